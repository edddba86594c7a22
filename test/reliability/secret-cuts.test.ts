/**
 * Secrets at every cut and in every escaped form. The SDK cuts bodies in three places (a 2xx body that is not
 * JSON, kept to 10 000 characters; an error body, read to 64 KiB; a message mined from an error body, clipped
 * to 300 characters), and a service may cut its own echo short. Each secret (the API key, a saved integration
 * key, a login password) is echoed raw, JSON-escaped and URL-encoded so that it straddles each cut at several
 * offsets; no rendering of the error and no log line may hold any 8-character piece of any of its forms.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { activeHandles, attacked, capturingLogger, count, openHandlesSince, recordOpenHandles, renderings, secretHits } from './summary.js';

const API_KEY = 'wfa_live_cutKey_9Qm2Zt7Lp4Xv';
const SAVED_KEY = 'sk-int+key/with=chars_Zq81Wm';
const PASSWORD = 'pa"ss\\w rd/é+x&Q7%';

let server: FaultServer;
let baseline: Map<string, number>;
/** The body the server answers next, and its status. */
let answer = { status: 200, body: '' };

beforeAll(async () => {
  baseline = activeHandles();
  server = await startFaultServer({
    otherwise: () => ({ kind: 'raw', status: answer.status, body: answer.body, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
  });
});
afterAll(async () => {
  await server.close();
  recordOpenHandles('secret-cuts.test.ts', await openHandlesSince(baseline));
});

const FORMS: Record<string, (secret: string) => string> = {
  raw: (s) => s,
  'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1),
  'URL-encoded': (s) => encodeURIComponent(s),
};

/** Every 8-character piece of every form of `secret`: a scanner, and an attacker, match on fragments. */
function fragments(secret: string): string[] {
  const out = new Set<string>();
  for (const form of Object.values(FORMS)) for (let i = 0; i + 8 <= form(secret).length; i++) out.add(form(secret).slice(i, i + 8));
  return [...out];
}

interface Secret {
  name: string;
  value: string;
  /** Makes the call that carries the secret, with a client that logs every line. */
  call: (client: Client) => Promise<unknown>;
}

const SECRETS: Secret[] = [
  { name: 'the API key', value: API_KEY, call: (client) => client.workflows.get('wf_1') },
  {
    name: 'a saved integration key',
    value: SAVED_KEY,
    call: (client) => client.integrations.save({ platform: 'stripe', api_key: SAVED_KEY, label: 'live' }),
  },
  { name: 'a login password', value: PASSWORD, call: (client) => client.auth.issueKey({ email: 'ana@example.com', password: PASSWORD }) },
];

interface Cut {
  name: string;
  status: number;
  /** The body, with `echo` placed so that its first `before` characters come before the cut. */
  body: (echo: string, before: number) => string;
}

const CUTS: Cut[] = [
  {
    name: 'a 2xx body that is not JSON, kept to 10 000 characters',
    status: 200,
    body: (echo, before) => `${'x'.repeat(10_000 - before)}${echo}${'y'.repeat(50)}`,
  },
  { name: 'an error body, read to 64 KiB', status: 500, body: (echo, before) => `${'x'.repeat(65_536 - before)}${echo}${'y'.repeat(50)}` },
  {
    name: 'an error message clipped to 300 characters',
    status: 400,
    body: (echo, before) => JSON.stringify({ error: `${'x'.repeat(300 - before)}${echo} and more` }),
  },
  { name: "the service's own cut at the end of the body", status: 502, body: (echo, before) => `bad gateway for ${echo.slice(0, before)}` },
];

describe('no piece of a secret survives a cut, in any form', () => {
  for (const secret of SECRETS) {
    for (const cut of CUTS) {
      it(`${secret.name} across ${cut.name}`, async () => {
        let hits = 0;
        let searched = 0;
        for (const [formName, form] of Object.entries(FORMS)) {
          const echo = form(secret.value);
          for (const before of new Set([1, 8, Math.floor(echo.length / 2), echo.length - 1])) {
            answer = { status: cut.status, body: cut.body(echo, before) };
            const { lines, logger } = capturingLogger();
            const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, logger, logLevel: 'debug' });
            const error = await secret.call(client).catch((e: unknown) => e);
            expect(WfaError.is(error), `${formName} at ${before}`).toBe(true);
            const texts = [...renderings(error), ...lines];
            const found = secretHits(texts, fragments(secret.value));
            if (found > 0) console.error(`${secret.name}, ${formName}, ${before} characters before the cut: ${found} hits`);
            hits += found;
            searched += texts.length;
          }
        }
        count('secretSearches', searched);
        count('secretsFound', hits);
        attacked('secrets at cuts and in escaped forms', hits === 0);
        expect(hits).toBe(0);
      });
    }
  }
});

describe('property: any secret, in any form, cut at any offset of any cut', () => {
  // Secrets of 13 to 41 characters, with characters that JSON and URL encoding both change. Upper case, and no
  // run of spaces or slashes: a random secret must not occur by chance in a stack trace or a file path.
  const part = fc.stringMatching(/^[A-Z0-9"\\/+&%=é_~!*'-]{6,20}$/);
  const secret = fc.tuple(part, part).map(([a, b]) => `${a} ${b}`);

  it('leaves no 8-character piece in any rendering or log line (500 runs)', async () => {
    await fc
      .assert(
        fc.asyncProperty(
          secret,
          fc.constantFrom(...Object.keys(FORMS)),
          fc.constantFrom(...CUTS),
          fc.nat(),
          async (value, formName, cut, at) => {
            const echo = FORMS[formName]!(value);
            answer = { status: cut.status, body: cut.body(echo, 1 + (at % (echo.length - 1))) };
            const { lines, logger } = capturingLogger();
            const client = new Client({
              baseUrl: server.url,
              apiKey: 'wfa_live_unrelated_Key01',
              apiPrefix: '/v1',
              maxRetries: 0,
              logger,
              logLevel: 'debug',
            });
            const error = await client.integrations.save({ platform: 'stripe', api_key: value, label: 'live' }).catch((e: unknown) => e);
            const texts = [...renderings(error), ...lines];
            count('propertyRuns');
            count('secretSearches', texts.length);
            const hits = secretHits(texts, fragments(value));
            count('secretsFound', hits);
            return WfaError.is(error) && hits === 0;
          },
        ),
        { numRuns: 500 },
      )
      .then(
        () => attacked('secrets at cuts and in escaped forms', true),
        (error: unknown) => {
          attacked('secrets at cuts and in escaped forms', false);
          throw error;
        },
      );
  });
});

describe('credential-named fields in bodies that are not JSON as the SDK reads them', () => {
  // Values no secret list holds: only the field's name says they are credentials.
  const TOKEN = 'tok_field_Zr7Qp2Lm9Xv4';
  const pad = 'x'.repeat(66_000);
  const deep = 200_000;
  // Sent as text/plain, as the server above answers: the SDK reads a body as JSON whatever its content-type.
  const BODIES: { name: string; status: number; body: string }[] = [
    {
      name: 'top-level token, the JSON cut at 64 KiB',
      status: 400,
      body: JSON.stringify({ token: TOKEN, error: { message: 'bad' }, pad }),
    },
    {
      name: 'access_token under error, the JSON cut at 64 KiB',
      status: 400,
      body: JSON.stringify({ error: { message: 'bad', access_token: TOKEN }, pad }),
    },
    {
      name: 'client_secret in a list item, the JSON cut at 64 KiB',
      status: 422,
      body: JSON.stringify({ errors: [{ field: 'app', client_secret: TOKEN }], pad }),
    },
    {
      name: `password before a detail ${deep} levels deep`,
      status: 400,
      body: `{"password":"${TOKEN}","detail":${'['.repeat(deep)}${']'.repeat(deep)}}`,
    },
    { name: 'a truncated JSON error body', status: 400, body: `{"error":"bad","token":"${TOKEN}","more":"ab` },
    { name: 'a token cut inside its value at 64 KiB', status: 400, body: `{"pad":"${'x'.repeat(65_500)}","token":"${TOKEN}"}` },
    { name: 'a form-encoded error body', status: 400, body: `token=${TOKEN}&error=bad` },
    { name: 'a 200 that is a truncated JSON', status: 200, body: `{"id":"wf_1","api_key":"${TOKEN}","na` },
    { name: 'a 200 that is form-encoded', status: 200, body: `error=none&access_token=${TOKEN}` },
  ];

  for (const { name, status, body } of BODIES) {
    it(`${name}: the value is [redacted] in every rendering`, async () => {
      answer = { status, body };
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
      const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
      const texts = renderings(error);
      const hits = secretHits(texts, fragments(TOKEN));
      count('secretSearches', texts.length);
      count('secretsFound', hits);
      attacked('secrets at cuts and in escaped forms', WfaError.is(error) && hits === 0);
      expect(WfaError.is(error)).toBe(true);
      expect(hits).toBe(0);
      expect(texts.join('\n')).toContain('[redacted]');
    });
  }
});
