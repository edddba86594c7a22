/**
 * Credential-named fields and headers (issue 35's fourth look): whatever the name's prefix, encoding or nesting,
 * whatever the value's type, and in whatever layout the service writes it (JSON, cut JSON, a form, XML), its
 * value is in no rendering of the error: a 400's `ApiError` and a 200's `ResponseValidationError`, both transports.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { count, renderings, secretHits } from './summary.js';

const TOK = 'tok_LEAKMEtokenvalue77';
const SHOWN = TOK.slice(4, 14);
const NUMBER = 98765432109876;
const NAMES = [
  'user_password',
  'db_secret',
  'bearer_token',
  'x-access-token',
  'userPassword',
  'clientSecret',
  'refreshToken',
  'private_key',
  'session_token',
  'auth.token',
];
const PAD = 'x'.repeat(66_000);

const BODIES: [name: string, body: string][] = [
  ['a percent-encoded `_` in a form name', `access%5Ftoken=${TOK}&error=bad`],
  ['a percent-encoded letter in a form name', `%74oken=${TOK}&error=bad`],
  ['a percent-encoded upper-case letter in a form name', `%54OKEN=${TOK}&error=bad`],
  ...NAMES.map((name): [string, string] => [`JSON ${name}`, JSON.stringify({ error: 'bad', [name]: TOK })]),
  ...NAMES.map((name): [string, string] => [`form ${name}`, `error=bad&${name}=${TOK}`]),
  ...NAMES.map((name): [string, string] => [`cut JSON ${name}`, `{"${name}":"${TOK}","error":"bad","pad":"${PAD}"}`]),
  ['a bracketed JSON key', JSON.stringify({ 'user[password]': TOK, error: 'bad' })],
  ['a bracketed form key', `user[password]=${TOK}&error=bad`],
  ['a bracketed form key, brackets encoded', `user%5Bpassword%5D=${TOK}&error=bad`],
  ['an XML element', `<error><token>${TOK}</token></error>`],
  ['an XML password element', `<error><password>${TOK}</password></error>`],
  ['an XML api_key element', `<error><api_key>${TOK}</api_key></error>`],
  ['an XML attribute', `<error token="${TOK}">bad</error>`],
  ['an object under a credential name', JSON.stringify({ error: 'bad', token: { value: TOK } })],
  ['a list under a credential name', JSON.stringify({ error: 'bad', password: [TOK] })],
  ['an object under a credential name, cut', `{"error":"bad","token":{"value":"${TOK}","n":[1]},"pad":"${PAD}"}`],
  ['a list under a credential name, cut', `{"error":"bad","password":["${TOK}"],"pad":"${PAD}"}`],
  ['an escaped name in cut JSON', `{"\\u0074oken":"${TOK}","error":"bad","pad":"${PAD}"}`],
  ['an escaped upper-case name in invalid JSON', `{"\\u0054OKEN":"${TOK}",`],
];

const HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-access-token', 'x-session-token'];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => server.close());

const client = () => new Client({ baseUrl: server.url, apiKey: 'wfa_live_namesKey_7Tq2', apiPrefix: '/v1', maxRetries: 0 });

function expectHidden(
  error: unknown,
  expectName: string,
  shown: string,
  expect: (v: unknown) => { toEqual: (x: unknown) => void; toBe: (x: unknown) => void },
) {
  const texts = renderings(error);
  count('secretSearches', texts.length);
  count('secretsFound', secretHits(texts, [shown]));
  expect(WfaError.is(error) ? error.name : String(error)).toBe(expectName);
  expect(texts.filter((t) => t.includes(shown))).toEqual([]);
}

describe('a credential-named field is hidden whatever its name, encoding, nesting or value', () => {
  for (const [name, body] of BODIES) {
    it(`${name}: a 400's ApiError`, async ({ expect }) => {
      server.otherwise({ kind: 'raw', status: 400, body, headers: { 'content-type': 'text/plain' } });
      const error = await client()
        .request({ method: 'GET', path: '/echo' })
        .catch((e: unknown) => e);
      expectHidden(error, 'BadRequestError', SHOWN, expect);
    });
    it(`${name}: a 200's ResponseValidationError`, async ({ expect }) => {
      server.otherwise({ kind: 'raw', status: 200, body, headers: { 'content-type': 'application/json' } });
      const error = await client()
        .workflows.get('wf_1')
        .catch((e: unknown) => e);
      expectHidden(error, 'ResponseValidationError', SHOWN, expect);
    });
  }

  it('a number under a credential name', async ({ expect }) => {
    server.otherwise({ kind: 'json', status: 400, body: { error: 'bad', pin_token: NUMBER, password: NUMBER } });
    const error = await client()
      .request({ method: 'GET', path: '/echo' })
      .catch((e: unknown) => e);
    expectHidden(error, 'BadRequestError', String(NUMBER), expect);
    expect((error as { body: unknown }).body).toEqual({ error: 'bad', pin_token: '[redacted]', password: '[redacted]' });
  });

  it('ordinary fields stay: tokens_used, max_tokens, a body without secrets', async ({ expect }) => {
    const body = { error: { message: 'quota', code: 'quota' }, tokens_used: 12, max_tokens: 4096, token_count: 3, keys: ['a'] };
    server.otherwise({ kind: 'json', status: 400, body });
    const error = await client()
      .request({ method: 'GET', path: '/echo' })
      .catch((e: unknown) => e);
    expect((error as { body: unknown }).body).toEqual(body);
    expect((error as Error).message).toContain('quota');
  });
});

describe('credential-named response headers are hidden in the error', () => {
  for (const header of HEADERS)
    it(header, async ({ expect }) => {
      server.otherwise({
        kind: 'raw',
        status: 400,
        body: '{"error":"bad"}',
        headers: { 'content-type': 'application/json', [header]: `Bearer ${TOK}`, 'x-request-id': 'req_1' },
      });
      const error = await client()
        .request({ method: 'GET', path: '/echo' })
        .catch((e: unknown) => e);
      expectHidden(error, 'BadRequestError', SHOWN, expect);
      expect((error as { headers: Record<string, string> }).headers[header]).toBe('[redacted]');
      expect((error as { requestId: string }).requestId).toBe('req_1');
    });
});

/**
 * Round 7's re-attack: a secret holding a separator, echoed after a credential name; whitespace folded into the
 * message; numbers; a credential field past the shown cut; copies inside a cut structure; a thrown error's name.
 * Every rendering of the error, the log and what `onError` sees.
 */
const PASS = 'correct horse battery staple';
const SPACED = 'team key 7788aa99bb';
const INTEGRATION = 'shpat 1111 2222 3333';
const LONG = 'sk_live_W7tZr3M5566';
const TOK7 = 'tok_Struct4491abcXY';

interface Reattack {
  name: string;
  fault?: { status: number; body: string; headers?: Record<string, string> };
  options?: Record<string, unknown>;
  call: (client: Client) => Promise<unknown>;
  hidden: string;
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const issue = (c: Client, password: string) => c.auth.issueKey({ email: 'a@b.co', password });
const get = (c: Client) => c.workflows.get('wf_1');

const REATTACKS: Reattack[] = [
  {
    name: 'an untrimmed integration key echoed trimmed',
    fault: json(422, { error: { message: 'rejected shpat_ZZ81kq77Lm' } }),
    call: (c) => c.integrations.save({ platform: 'shopify', api_key: '  shpat_ZZ81kq77Lm  ' }),
    hidden: 'ZZ81kq77Lm',
  },
  {
    name: 'a passphrase echoed after "password:"',
    fault: json(401, { error: { message: `bad password: ${PASS}` } }),
    call: (c) => issue(c, PASS),
    hidden: 'horse battery',
  },
  {
    name: 'a spaced key echoed after "key:"',
    fault: json(401, { error: { message: `unknown key: ${SPACED}` } }),
    options: { apiKey: SPACED },
    call: get,
    hidden: '7788aa99bb',
  },
  {
    name: 'a spaced integration key in a form body',
    fault: { status: 422, body: `error=rejected&api_key=${INTEGRATION}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    call: (c) => c.integrations.save({ platform: 'shopify', api_key: INTEGRATION }),
    hidden: '2222 3333',
  },
  {
    name: 'a password with ; and ) after password= in text',
    fault: { status: 400, body: 'rejected: password=pa;ss)w0rd&Secure! is weak', headers: { 'content-type': 'text/plain' } },
    call: (c) => issue(c, 'pa;ss)w0rd&Secure!'),
    hidden: 'w0rd&Secure',
  },
  {
    name: 'a spaced key in www-authenticate',
    fault: {
      status: 401,
      body: '{"error":"no"}',
      headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer realm=x, api_key=${SPACED}` },
    },
    options: { apiKey: SPACED },
    call: get,
    hidden: '7788aa99bb',
  },
  {
    name: 'a spaced key in a deprecation Link (the log line)',
    fault: {
      status: 200,
      body: '{"id":"wf_1"}',
      headers: { 'content-type': 'application/json', deprecation: 'true', link: `<https://x/m>; rel="deprecation"; title="key=${SPACED}"` },
    },
    options: { apiKey: SPACED, validateResponses: false },
    call: get,
    hidden: '7788aa99bb',
  },
  {
    name: "a custom fetch's error message quoting the spaced key",
    options: { apiKey: SPACED, fetch: async () => Promise.reject(new TypeError(`refused key=${SPACED}`)) },
    call: get,
    hidden: '7788aa99bb',
  },
  {
    name: 'a credential field holding a prefix of the key',
    fault: json(401, { key: LONG.slice(0, 12), error: { message: `bad key ${LONG}` } }),
    options: { apiKey: LONG },
    call: get,
    hidden: 'r3M5566',
  },
  {
    name: 'a spaced key echoed with a tab',
    fault: json(401, { error: { message: 'Invalid API key team\tkey 7788aa99bb' } }),
    options: { apiKey: SPACED },
    call: get,
    hidden: SPACED,
  },
  {
    name: 'a spaced key wrapped in an HTML title',
    fault: {
      status: 403,
      body: '<html><title>Forbidden for team\n  key 7788aa99bb</title></html>',
      headers: { 'content-type': 'text/html' },
    },
    options: { apiKey: SPACED },
    call: get,
    hidden: SPACED,
  },
  {
    name: 'a numeric token copied into the message',
    fault: {
      status: 400,
      body: '{"token":987654321012,"error":{"message":"token 987654321012 expired"}}',
      headers: { 'content-type': 'application/json' },
    },
    call: get,
    hidden: '987654321012',
  },
  {
    name: 'a numeric key echoed as a JSON number',
    fault: {
      status: 401,
      body: '{"error":{"message":"invalid key"},"key_id":73019284561730}',
      headers: { 'content-type': 'application/json' },
    },
    options: { apiKey: '73019284561730' },
    call: get,
    hidden: '73019284561730',
  },
  {
    name: 'a numeric password echoed as a JSON number',
    fault: {
      status: 401,
      body: '{"error":{"message":"bad login"},"attempt":918273645546}',
      headers: { 'content-type': 'application/json' },
    },
    call: (c) => issue(c, '918273645546'),
    hidden: '918273645546',
  },
  {
    name: 'a token field past the shown cut, its copy before it',
    fault: {
      status: 400,
      body: `{"error":{"message":"session ${TOK7} expired"},"pad":"${'x'.repeat(70_000)}","token":"${TOK7}"}`,
      headers: { 'content-type': 'application/json' },
    },
    call: get,
    hidden: TOK7,
  },
  {
    name: 'cut JSON: a copy of a value inside a credentials object',
    fault: {
      status: 400,
      body: `{"error":{"message":"session ${TOK7} expired"},"credentials":{"value":"${TOK7}"},"more":"`,
      headers: { 'content-type': 'application/json' },
    },
    call: get,
    hidden: TOK7,
  },
  {
    name: 'cut JSON: a copy of a value inside a token list',
    fault: {
      status: 400,
      body: `{"error":{"message":"session ${TOK7} expired"},"token":["${TOK7}"],"x":"`,
      headers: { 'content-type': 'application/json' },
    },
    call: get,
    hidden: TOK7,
  },
  {
    name: "a hook's error named with the key",
    options: {
      apiKey: LONG,
      hooks: {
        beforeRequest: () => {
          const error = new Error('vault');
          error.name = `VaultError ${LONG}`;
          throw error;
        },
      },
    },
    call: get,
    hidden: LONG,
  },
  {
    name: "a custom fetch's error named with the key",
    options: {
      apiKey: LONG,
      fetch: async () => {
        const error = new TypeError('failed');
        error.name = `FetchError ${LONG}`;
        throw error;
      },
    },
    call: get,
    hidden: LONG,
  },
];

describe('round 7 re-attack: the secret is in no rendering, message, log or hook', () => {
  for (const attack of REATTACKS)
    it(attack.name, async ({ expect }) => {
      if (attack.fault) server.otherwise({ kind: 'raw', ...attack.fault });
      const logs: string[] = [];
      const seen: unknown[] = [];
      const logger = {
        error: (m: string) => logs.push(m),
        warn: (m: string) => logs.push(m),
        info: (m: string) => logs.push(m),
        debug: (m: string) => logs.push(m),
      };
      const { hooks, ...options } = (attack.options ?? {}) as { hooks?: Record<string, unknown> };
      const client = new Client({
        baseUrl: server.url,
        apiKey: 'wfa_live_namesKey_7Tq2',
        apiPrefix: '/v1',
        maxRetries: 0,
        logger,
        logLevel: 'debug',
        ...options,
        hooks: { ...hooks, onError: ({ error }) => void seen.push(error) },
      });
      const error = await attack.call(client).catch((e: unknown) => e);
      const texts = [...renderings(error), ...logs, ...seen.flatMap(renderings)];
      expect(texts.filter((t) => t.includes(attack.hidden))).toEqual([]);
    });
});

describe('validation messages', () => {
  for (const [label, make] of [
    [
      'a client header name holding the key',
      () => new Client({ baseUrl: server.url, apiKey: LONG, headers: { [`X-Custom ${LONG}`]: '' } }),
    ],
    [
      'a client header name "Authorization: Bearer <token>"',
      () => new Client({ baseUrl: server.url, apiKey: 'x1234567', headers: { [`Authorization: Bearer ${LONG}`]: '' } }),
    ],
    [
      'a call header name holding the key',
      () => new Client({ baseUrl: server.url, apiKey: LONG }).workflows.get('wf_1', { headers: { [`X-Custom ${LONG}`]: '' } }),
    ],
  ] as [string, () => unknown][])
    it(`${label}: a ValidationError without the key`, async ({ expect }) => {
      const error = await Promise.resolve()
        .then(make)
        .catch((e: unknown) => e);
      expect(WfaError.is(error) && error.name).toBe('ValidationError');
      expect(renderings(error).filter((t) => t.includes(LONG.slice(8)))).toEqual([]);
    });
});
