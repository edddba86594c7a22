/**
 * Secrets: the API key, a key saved with `integrations.save` and a login password never appear in an error
 * (its `message`, `stack`, `toString()`, `JSON.stringify()`, `util.inspect()` at depth Infinity, every `cause`),
 * in a log line at the most verbose level, or in the client's own inspection, even when the service echoes them
 * back in every field and header it can. And the API key is never sent to another origin.
 *
 * A hostile fault server echoes whatever it received: the `X-API-Key` header and the request body, in the
 * error message, nested fields, a property name, an HTML title, `x-request-id`, `www-authenticate`, and base64
 * and hex forms of the key and of each body value.
 */
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { Client, WfaError, type ClientOptions, type WorkflowCreateParams } from '../../src/index.js';
import { closedPortUrl, faults, startFaultServer, workflowBody, type Fault, type FaultServer, type LoggedRequest } from './fault-server.js';
import { activeHandles, capturingLogger, count, openHandlesSince, recordOpenHandles, renderings, secretHits } from './summary.js';

let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('secrets.test.ts', await openHandlesSince(baseline));
});

const API_KEY = 'wfa_live_SECRETk3y_4f9a8b7c6d5e';
const SAVED_KEY = 'shpat_SAVEDintegration_0a1b2c3d4e';
const PASSWORD = 'correct-horse-battery-staple-42';
/** A key given for one call only, in `RequestOptions.headers`. */
const CALL_KEY = 'wfa_live_CALLk3y_9z8y7x6w5v';
const SECRETS = [API_KEY, SAVED_KEY, PASSWORD, CALL_KEY];

/** A text's encoded forms a careless service or gateway may echo: base64 (both alphabets, unpadded too) and hex. */
function encoded(text: string): string[] {
  const bytes = Buffer.from(text);
  const hex = bytes.toString('hex');
  return [bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'), hex, hex.toUpperCase()];
}
/** What is searched for: every secret as is and encoded. */
const SECRET_FORMS = SECRETS.flatMap((secret) => [secret, ...encoded(secret)]);

/** The string values of a JSON body (where a password or saved key travels), encoded one by one. */
function encodedValues(body: string): string[] {
  try {
    const values = Object.values(JSON.parse(body) as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
    return values.flatMap(encoded);
  } catch {
    return [];
  }
}

const INPUT: WorkflowCreateParams = { name: 'n', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] };

/** Everything secret the request carried: its key header and its body. */
function carried(r: LoggedRequest): { key: string; body: string; all: string } {
  const key = String(r.headers['x-api-key'] ?? '');
  return { key, body: r.body, all: `${key} ${r.body}` };
}

/** Headers that echo the key, as a careless service or proxy might. */
function echoHeaders(r: LoggedRequest): Record<string, string> {
  const { key, body } = carried(r);
  return {
    'x-request-id': `req_${key}`,
    'x-echo-key': key,
    'x-echo-body': body.replace(/[^\x20-\x7e]/g, ''),
    'www-authenticate': `Key realm="${key}"`,
  };
}

/** An error answer that echoes everything the request carried, as JSON, HTML or text. */
const echo =
  (status: number, shape: 'json' | 'html' | 'text' = 'json', extraHeaders: Record<string, string> = {}) =>
  (r: LoggedRequest): Fault => {
    const { key, body, all } = carried(r);
    const headers = { ...echoHeaders(r), ...extraHeaders };
    if (shape === 'html') {
      return {
        kind: 'raw',
        status,
        body: `<html><head><title>Rejected ${all}</title></head><body>${all}</body></html>`,
        headers: { ...headers, 'content-type': 'text/html' },
      };
    }
    if (shape === 'text') return { kind: 'raw', status, body: `rejected ${all}`, headers: { ...headers, 'content-type': 'text/plain' } };
    return {
      kind: 'json',
      status,
      headers,
      body: {
        message: `rejected key ${key} with body ${body}`,
        error: { message: all },
        detail: [{ msg: all }],
        echoed: { key, body, [key || 'none']: true },
        list: [all],
        encoded: [...encoded(key), ...encodedValues(body)],
      },
    };
  };

/** A 2xx answer built from what the request carried. */
const echoOk =
  (make: (c: ReturnType<typeof carried>) => unknown, status = 200) =>
  (r: LoggedRequest): Fault => ({ kind: 'json', status, body: make(carried(r)), headers: echoHeaders(r) });

interface Ctx {
  server: FaultServer;
  other: FaultServer;
  lines: string[];
  /** A client on the fault server with the API key, a logger at `debug`, no retries, 300 ms per attempt. */
  client(options?: ClientOptions): Client;
}

interface SecretCase {
  name: string;
  /** The SDK error class the path ends in (so we know the path was really taken). */
  expected: string;
  /** The call (a promise, or a list's `PagePromise`). */
  run(ctx: Ctx): PromiseLike<unknown>;
}

const statusClass: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  403: 'PermissionDeniedError',
  404: 'NotFoundError',
  409: 'ConflictError',
  422: 'UnprocessableEntityError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  502: 'InternalServerError',
  503: 'InternalServerError',
};

const CASES: SecretCase[] = [
  ...Object.entries(statusClass).map(
    ([status, expected]): SecretCase => ({
      name: `a ${status} whose JSON body and headers echo the key`,
      expected,
      run: ({ server, client }) => {
        server.otherwise(echo(Number(status)));
        return client().workflows.get('wf_1');
      },
    }),
  ),
  {
    name: 'an HTML 502 page whose title echoes the key',
    expected: 'InternalServerError',
    run: ({ server, client }) => (server.otherwise(echo(502, 'html')), client().workflows.get('wf_1')),
  },
  {
    name: 'a text 500 echoing the key, retried once (a retry log line)',
    expected: 'InternalServerError',
    run: ({ server, client }) => (server.otherwise(echo(500, 'text')), client({ maxRetries: 1 }).workflows.update('wf_1', { name: 'x' })),
  },
  {
    name: 'a 429 asking for a day, echoing the key',
    expected: 'RateLimitError',
    run: ({ server, client }) => (
      server.otherwise(echo(429, 'json', { 'retry-after': '86400' })), client({ maxRetries: 2 }).workflows.get('wf_1')
    ),
  },
  {
    name: 'a 200 of the wrong shape echoing the key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 42, name: c.key, echoed: c.all }))), client().workflows.get('wf_1')
    ),
  },
  {
    name: 'a 200 that is not JSON, echoing the key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise((r) => ({ kind: 'raw', status: 200, body: `not json ${carried(r).all}` })), client().workflows.get('wf_1')
    ),
  },
  {
    name: 'a list answer that is no list, echoing the key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ echoed: c.key, nested: { again: c.all } }))), client().workflows.list()
    ),
  },
  {
    name: 'a list whose items are of the wrong shape, echoing the key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (server.otherwise(echoOk((c) => ({ data: [{ id: 1, name: c.key }] }))), client().workflows.list()),
  },
  {
    name: 'integrations.save: a 400 echoing the saved key',
    expected: 'BadRequestError',
    run: ({ server, client }) => (server.otherwise(echo(400)), client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY })),
  },
  {
    name: 'integrations.save: a 500 page echoing the saved key',
    expected: 'InternalServerError',
    run: ({ server, client }) => (
      server.otherwise(echo(500, 'html')), client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY, label: 'Main' })
    ),
  },
  {
    name: 'integrations.save: a 200 of the wrong shape echoing the saved key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: { bad: c.body }, api_key: SAVED_KEY, label: 7 }))),
      client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY })
    ),
  },
  {
    name: 'integrations.save: a 200 that is not JSON, echoing the saved key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise((r) => ({ kind: 'raw', status: 200, body: `saved ${carried(r).body}` })),
      client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY })
    ),
  },
  {
    name: 'integrations.save: invalid input holding the saved key (nothing sent)',
    expected: 'ValidationError',
    // @ts-expect-error: a label must be a string
    run: ({ client }) => client().integrations.save({ platform: '', api_key: SAVED_KEY, label: 5 }),
  },
  {
    name: 'auth.issueKey: a 401 echoing the password',
    expected: 'AuthenticationError',
    run: ({ server, client }) => (server.otherwise(echo(401)), client().auth.issueKey({ email: 'ana@example.com', password: PASSWORD })),
  },
  {
    name: 'auth.issueKey: a 200 with no key in it, echoing the password and the API key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ secret_thing: API_KEY, password: c.body }))),
      client().auth.issueKey({ email: 'ana@example.com', password: PASSWORD })
    ),
  },
  {
    name: 'Client.login: a 403 echoing the password',
    expected: 'PermissionDeniedError',
    run: ({ server, lines }) => {
      server.otherwise(echo(403));
      const { logger } = capturingLogger();
      const log = (m: string) => lines.push(m);
      return Client.login({
        baseUrl: server.url,
        email: 'ana@example.com',
        password: PASSWORD,
        maxRetries: 0,
        logger: { ...logger, debug: log, info: log, warn: log, error: log },
        logLevel: 'debug',
      });
    },
  },
  {
    name: 'a connection reset after the request was sent (integrations.save)',
    expected: 'ConnectionError',
    run: ({ server, client }) => (
      server.otherwise(faults.reset()), client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY })
    ),
  },
  {
    name: 'a refused connection',
    expected: 'ConnectionError',
    run: async ({ client }) => client({ baseUrl: await closedPortUrl() }).integrations.save({ platform: 'shopify', api_key: SAVED_KEY }),
  },
  {
    name: 'a timeout',
    expected: 'TimeoutError',
    run: ({ server, client }) => (server.otherwise(faults.stall()), client({ timeoutMs: 300 }).workflows.get('wf_1')),
  },
  {
    name: 'a redirect to another origin with the key in the Location',
    expected: 'ApiError',
    run: ({ server, other, client }) => (
      server.otherwise((r) => faults.redirect(302, `${other.url}/steal?key=${carried(r).key}`)), client().workflows.get('wf_1')
    ),
  },
  {
    name: 'a same-origin redirect to a URL carrying the key, then an echoing 500',
    expected: 'InternalServerError',
    run: ({ server, client }) => {
      server.plan((r) => faults.redirect(307, `/v1/elsewhere?key=${carried(r).key}`)).otherwise(echo(500));
      return client().workflows.get('wf_1');
    },
  },
  {
    name: 'a redirect loop carrying the key',
    expected: 'ApiError',
    run: ({ server, client }) => (
      server.otherwise((r) => faults.redirect(302, `/v1/loop/${r.seq}?key=${carried(r).key}`)), client().workflows.get('wf_1')
    ),
  },
  {
    name: 'an abort during the request',
    expected: 'AbortError',
    run: ({ server, client }) => {
      server.otherwise(faults.stall());
      return client({ timeoutMs: 5_000 }).workflows.get('wf_1', { signal: AbortSignal.timeout(100) });
    },
  },
  {
    name: 'a rotating key (a function) echoed by a 401',
    expected: 'AuthenticationError',
    run: ({ server, client }) => (server.otherwise(echo(401)), client({ apiKey: async () => API_KEY }).workflows.get('wf_1')),
  },
  {
    name: 'a key passed as a per-call header, echoed by a 403',
    expected: 'PermissionDeniedError',
    run: ({ server, client }) => (server.otherwise(echo(403)), client().workflows.get('wf_1', { headers: { 'X-API-Key': CALL_KEY } })),
  },
  {
    name: 'a fetch implementation whose error quotes the request (and so the key)',
    expected: 'ConnectionError',
    run: ({ client }) =>
      client({
        fetch: async (input, init) => {
          const request = new Request(input, init);
          throw new TypeError('fetch failed', {
            cause: new Error(`connect ECONNRESET while sending x-api-key: ${request.headers.get('x-api-key')}`),
          });
        },
      }).workflows.get('wf_1'),
  },
  {
    name: 'waitForBuild: a poll answered 401 echoing the key',
    expected: 'AuthenticationError',
    run: ({ server, client }) => (server.otherwise(echo(401)), client().waitForBuild('bld_1', { intervalMs: 5, timeoutMs: 2_000 })),
  },
  {
    name: 'waitForBuild: a failed build whose logs echo the key',
    expected: 'BuildFailedError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 'bld_1', status: 'failed', logs: [`auth with ${c.key}`], error: `bad key ${c.key}` }))),
      client().waitForBuild('bld_1', { intervalMs: 5 })
    ),
  },
  {
    name: 'waitForBuild: a wait that times out, its last build echoing the key',
    expected: 'WaitTimeoutError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 'bld_1', status: 'building', progress: 5, note: c.key }))),
      client().waitForBuild('bld_1', { intervalMs: 5, timeoutMs: 150 })
    ),
  },
  {
    name: 'waitForBuild: a failed build whose logs echo a per-call key header',
    expected: 'BuildFailedError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 'bld_1', status: 'failed', logs: [`auth with ${c.key}`], error: `bad key ${c.key}` }))),
      client().builds.wait('bld_1', { intervalMs: 5, headers: { 'X-API-Key': CALL_KEY } })
    ),
  },
  {
    name: 'waitForBuild: a wait that times out, its last build echoing a per-call key header',
    expected: 'WaitTimeoutError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 'bld_1', status: 'building', progress: 5, note: c.key }))),
      client().builds.wait('bld_1', { intervalMs: 5, timeoutMs: 150, headers: { 'X-API-Key': CALL_KEY } })
    ),
  },
  {
    name: 'waitForBuild: a completed build without download_url, echoing the key',
    expected: 'ResponseValidationError',
    run: ({ server, client }) => (
      server.otherwise(echoOk((c) => ({ id: 'bld_1', status: 'completed', note: c.key }))),
      client().waitForBuild('bld_1', { intervalMs: 5 })
    ),
  },
];

describe('no secret in any error, cause or log line, on every error path', () => {
  let server: FaultServer;
  let other: FaultServer;
  let lines: string[];
  let logger: ReturnType<typeof capturingLogger>['logger'];
  beforeEach(async () => {
    server = await startFaultServer();
    other = await startFaultServer();
    ({ lines, logger } = capturingLogger());
  });
  afterEach(async () => {
    await server.close();
    await other.close();
  });

  for (const c of CASES)
    it(c.name, async ({ expect }) => {
      const ctx: Ctx = {
        server,
        other,
        lines,
        client: (options = {}) =>
          new Client({
            baseUrl: server.url,
            apiKey: API_KEY,
            apiPrefix: '/v1',
            maxRetries: 0,
            // Long enough for a first connection on a loaded machine; the timeout case sets its own 300 ms.
            timeoutMs: 5_000,
            logger,
            logLevel: 'debug',
            ...options,
          }),
      };
      const outcome = await Promise.resolve(c.run(ctx)).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const error = outcome.ok ? undefined : outcome.error;
      const texts = [...renderings(error), ...lines];
      const hits = secretHits(texts, SECRET_FORMS);
      const leakedTo = other.log.filter((r) => SECRETS.some((s) => JSON.stringify(r).includes(s))).length;
      count('secretSearches', texts.length);
      count('secretsFound', hits);
      count('keysSentElsewhere', leakedTo);
      count('requests', server.log.length + other.log.length);

      expect(WfaError.is(error) ? error.name : `not an SDK error: ${String(error)}`).toBe(c.expected);
      // Where it leaked, for the failure message.
      const where = texts.filter((t) => SECRET_FORMS.some((s) => t.includes(s))).map((t) => t.slice(0, 300));
      expect(where).toEqual([]);
      expect(hits).toBe(0);
      expect(leakedTo).toBe(0);
    });
});

describe('a key echoed the way other encoders write it: JSON \\u escapes, HTML entities, the Latin-1 bytes sent', () => {
  /** A key with every character these encoders change; `é` travels in `X-API-Key` as the one byte 0xE9. */
  const KEY = `wfa_live_Ab&cd<ef>gh"ij'kl+mn\`op/\u00e9qr_0123456789`;
  const u = (upper: boolean) => (c: string) =>
    `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
  const json = (escaped: RegExp, upper: boolean) =>
    [...KEY].map((c) => (escaped.test(c) ? u(upper)(c) : JSON.stringify(c).slice(1, -1))).join('');
  const html = (quot: string, apos: string) =>
    KEY.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': quot, "'": apos })[c]!);
  const latin1 = Buffer.from(KEY, 'latin1');
  const percent = [...latin1]
    .map((b) => (/[\w.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  /** Written by hand, not by the SDK's code: Go, Python's ensure_ascii, both, .NET (upper-case hex), PHP (`\/`). */
  const JSON_FORMS = [
    json(/[<>&]/, false),
    json(/[^\0-\x7f]/, false),
    json(/[<>&]|[^\0-\x7f]/, false),
    json(/[<>&'"+`]|[^\0-\x7f]/, true),
    json(/[^\0-\x7f]/, false).replaceAll('/', '\\/'),
  ];
  /** Python's html.escape, Go's html.EscapeString, PHP's htmlspecialchars; and mixes no known escaper writes. */
  const HTML_FORMS = [
    html('&quot;', '&#x27;'),
    html('&#34;', '&#39;'),
    html('&quot;', '&#039;'),
    html('&#34;', '&#x27;'),
    html('&#34;', '&#039;'),
  ];
  /** The bytes the service received: base64 (alone and inside a Basic `user:key`), hex, percent-encoded. */
  const BYTE_FORMS = [latin1.toString('base64'), latin1.toString('base64url'), latin1.toString('hex'), percent];
  const BASIC = Buffer.concat([Buffer.from('user:'), latin1]).toString('base64');
  const ALL = [KEY, ...JSON_FORMS, ...HTML_FORMS, ...BYTE_FORMS, BASIC.slice(8, -8)];

  let server: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => server.close());

  const paths: [name: string, expected: string, fault: Fault][] = [
    [
      'a 200 whose JSON stops short, echoing the JSON forms',
      'ResponseValidationError',
      {
        kind: 'raw',
        status: 200,
        body: `{"id":"wf_1","echo":["${JSON_FORMS.join('","')}"],"na`,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'a 400 over 64 KiB, kept as text, echoing the JSON forms',
      'BadRequestError',
      {
        kind: 'raw',
        status: 400,
        body: `{"message":"bad key ${JSON_FORMS.join(' ')}","pad":"${'x'.repeat(70_000)}"}`,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'an HTML 401 whose title and page echo the HTML forms',
      'AuthenticationError',
      {
        kind: 'raw',
        status: 401,
        body: `<html><head><title>Key ${HTML_FORMS.join(' ')} refused</title></head><body>${HTML_FORMS.join('<br>')}</body></html>`,
        headers: { 'content-type': 'text/html' },
      },
    ],
    [
      'a 401 echoing the Latin-1 bytes received as base64, Basic, hex and percent-encoding',
      'AuthenticationError',
      { kind: 'json', status: 401, body: { message: 'invalid key', forms: BYTE_FORMS, basic: `Basic ${BASIC}` } },
    ],
  ];
  for (const [name, expected, fault] of paths)
    it(name, async ({ expect }) => {
      server.otherwise(fault);
      const { lines, logger } = capturingLogger();
      const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', maxRetries: 0, logger, logLevel: 'debug' });
      const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
      expect(server.log[0]?.headers['x-api-key']).toBe(KEY);
      // The body as printed: renderings() holds it only JSON- or inspect-escaped, which doubles each `\\`.
      const texts = [...renderings(error), String((error as { body?: unknown }).body), ...lines];
      count('secretSearches', texts.length);
      count('secretsFound', secretHits(texts, ALL));
      expect(WfaError.is(error) ? error.name : `not an SDK error: ${String(error)}`).toBe(expected);
      expect(ALL.filter((form) => texts.some((t) => t.includes(form)))).toEqual([]);
    });
});

describe('a key echoed percent-encoded by any encoder, each character literal or encoded, in any hex case', () => {
  const KEYS = ['wfa_live/Ab+c=SECRETkey99', 'clé_secrète_ABCDEF123'];
  const hex = (b: number, upper: boolean) => `%${b.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
  /** Every byte but letters and digits encoded. */
  const nonAlnum = (bytes: Buffer, upper: boolean) =>
    [...bytes].map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : hex(b, upper))).join('');
  /** Written by hand, not by the SDK's code: what Python, JavaScript and hand-rolled encoders write. */
  const ENCODERS: [name: string, encode: (key: string) => string][] = [
    ["Python's urllib.parse.quote (keeps /)", (k) => encodeURIComponent(k).replace(/%2F/g, '/')],
    ['encodeURI', (k) => encodeURI(k)],
    ['escape()', (k) => escape(k)],
    ['every non-alphanumeric byte, upper-case hex', (k) => nonAlnum(Buffer.from(k), true)],
    ['every non-alphanumeric byte, lower-case hex', (k) => nonAlnum(Buffer.from(k), false)],
    ['every byte, mixed-case hex', (k) => [...Buffer.from(k)].map((b, i) => hex(b, i % 2 === 0)).join('')],
    ['the Latin-1 bytes, non-alphanumerics encoded', (k) => nonAlnum(Buffer.from(k, 'latin1'), true)],
  ];
  let server: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => server.close());

  // An encoder that leaves a key as is (encodeURI keeps `/+=`) is no case here: the key as is has its own tests.
  for (const key of KEYS)
    for (const [encoder, encode] of ENCODERS.filter(([, encode]) => encode(key) !== key))
      it(`${JSON.stringify(key)} by ${encoder}`, async ({ expect }) => {
        const echo = encode(key);
        server.otherwise({ kind: 'json', status: 401, body: { error: { code: 'bad_key', message: `invalid key ${echo}` } } });
        const client = new Client({ baseUrl: server.url, apiKey: key, apiPrefix: '/v1', maxRetries: 0 });
        const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
        const texts = renderings(error);
        count('secretSearches', texts.length);
        count('secretsFound', secretHits(texts, [echo]));
        expect(WfaError.is(error) ? error.name : String(error)).toBe('AuthenticationError');
        expect(texts.filter((t) => t.includes(echo))).toEqual([]);
        expect((error as Error).message).toContain('[redacted]');
      });
});

describe('a key of any length (a long JWT): a search linear in it, the call failing with its own error', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => server.close());

  // Nested or one-piece patterns of a key this long were more than the regular expression engine compiles: the
  // process died out of memory near 2,800 characters, and past 10,000 a SyntaxError spelled the key out.
  for (const length of [3_000, 12_000])
    it(`${length} characters, echoed as is, every byte percent-encoded, and cut short at the end`, async ({ expect }) => {
      const key = Array.from({ length }, (_, i) => 'Ab9_-x'[i % 6]).join('');
      const encoded = [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      const body = { error: { code: 'bad_key', message: `invalid key ${key} (${encoded})` }, echo: `…${encoded.slice(0, -4)}` };
      server.otherwise({ kind: 'json', status: 401, body });
      const client = new Client({ baseUrl: server.url, apiKey: key, apiPrefix: '/v1', maxRetries: 0 });
      const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
      const texts = renderings(error);
      expect(WfaError.is(error) ? error.name : String(error).slice(0, 200)).toBe('AuthenticationError');
      // Any 32 characters of the key, as is or encoded, would be too many.
      const pieces = [key.slice(100, 132), encoded.slice(300, 396), encoded.slice(-100)];
      expect(pieces.filter((piece) => texts.some((t) => t.includes(piece)))).toEqual([]);
    });
});

describe('a periodic key (`abab…`) in a 1 MiB error body of near copies: each search linear in the body', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => server.close());

  // `indexOf` and a character-by-character walk from every start compared the whole key again at every other
  // character of such a body: 1.3 s for one error, where the body's size alone takes tens of ms.
  it('12,000 characters: its copies hidden, as is, percent-encoded and with a zero-width space, within 1 s', async ({ expect }) => {
    const key = 'ab'.repeat(6_000);
    const nearCopies = `${'ab'.repeat(5_999)}ax`.repeat(80);
    const copies = [key, `${key.slice(0, -1)}%62`, `${key.slice(0, 99)}\u200b${key.slice(99)}`];
    server.otherwise({ kind: 'raw', status: 400, body: `|${copies.join('|')}|${nearCopies}`, headers: { 'content-type': 'text/plain' } });
    const client = new Client({ baseUrl: server.url, apiKey: key, apiPrefix: '/v1', maxRetries: 0 });
    const started = performance.now();
    const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(WfaError.is(error) ? error.name : String(error).slice(0, 200)).toBe('BadRequestError');
    expect((error as { body: unknown }).body).toMatch(/^\|\[redacted\]\|\[redacted\]\|\[redacted\]\|abab/);
    expect(elapsed).toBeLessThan(1_000);
  });

  it("a credential field's periodic value, its copies hidden among near copies (a spaced one too), within 1 s", async ({ expect }) => {
    const token = 'ab'.repeat(6_000);
    const spaced = `${'ab'.repeat(3_000)} ${'ab'.repeat(3_000)}`;
    const body = `{"note":"${token}|${spaced.replace(' ', '\\n ')}|${`${'ab'.repeat(5_999)}ax`.repeat(80)}","token":"${token}","secret":"${spaced}"}`;
    server.otherwise({ kind: 'raw', status: 400, body, headers: { 'content-type': 'application/json' } });
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
    const started = performance.now();
    const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(JSON.stringify((error as { body: unknown }).body)).toMatch(/^"\{\\"note\\":\\"\[redacted\]\|\[redacted\]\|abab/);
    expect(elapsed).toBeLessThan(1_000);
  });
});

describe("a credential field's value: hidden in its field, in every copy elsewhere, and in the text layouts covered", () => {
  const TOK = 'tok_LEAKMEtokenvalue77';
  const BODIES: [name: string, body: string][] = [
    ['copied into the JSON message', JSON.stringify({ error: { code: 'expired', message: `token ${TOK} expired` }, token: TOK })],
    ['copied into a JSON detail', JSON.stringify({ detail: `invalid refresh_token ${TOK}`, refresh_token: TOK })],
    ['copied in a truncated JSON', `{"error":"token ${TOK} expired","token":"${TOK}","na`],
    ['a form field after a comma', `error=bad,token=${TOK}`],
    ['a form field in parentheses', `bad (token=${TOK})`],
    ['a bracketed form field', `error=bad&credentials[token]=${TOK}`],
    ['a query in a JSON message', JSON.stringify({ error: `GET /x?access_token=${TOK}&a=1 failed` })],
    ['name: value lines', `error: bad\ntoken: ${TOK}`],
    ['name:value without spaces', `error:bad token:${TOK}`],
    ['a Python keyword argument in single quotes', `Error(token='${TOK}', error='bad')`],
    ['a Ruby hash with =>', `{"token"=>"${TOK}"}`],
    ['an Authorization header quoted', `Authorization: Bearer ${TOK}`],
    ['an Authorization header in a JSON message', JSON.stringify({ error: `bad header Authorization: Bearer ${TOK}` })],
  ];
  let server: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
  });
  afterEach(async () => server.close());

  for (const [name, body] of BODIES)
    it(name, async ({ expect }) => {
      server.otherwise({ kind: 'raw', status: 400, body, headers: { 'content-type': 'text/plain' } });
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
      const error = await client.request({ method: 'GET', path: '/echo' }).catch((e: unknown) => e);
      const texts = renderings(error);
      count('secretSearches', texts.length);
      count('secretsFound', secretHits(texts, [TOK.slice(4, 14)]));
      expect(WfaError.is(error) ? error.name : String(error)).toBe('BadRequestError');
      expect(texts.filter((t) => t.includes(TOK.slice(4, 14)))).toEqual([]);
      expect(texts.join('\n')).toContain('[redacted]');
    });
});

describe("the client's own inspection shows no key", () => {
  it('util.inspect, console-style formatting, JSON.stringify, String(), every namespace', async ({ expect }) => {
    const server = await startFaultServer({ otherwise: faults.ok({ api_key: API_KEY }) });
    try {
      const { lines, logger } = capturingLogger();
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, headers: { 'X-API-Key': API_KEY }, logger, logLevel: 'debug' });
      const loggedIn = await Client.login({ baseUrl: server.url, email: 'ana@example.com', password: PASSWORD, logger, logLevel: 'debug' });
      const texts: string[] = [...lines];
      for (const c of [client, loggedIn]) {
        texts.push(
          inspect(c, { depth: Infinity, showHidden: true }),
          JSON.stringify(c),
          String(c),
          `${JSON.stringify(c.toJSON())}`,
          ...[c.workflows, c.orders, c.builds, c.integrations, c.auth].map((ns) => inspect(ns, { depth: Infinity, showHidden: true })),
          ...Object.keys(c).map((k) => inspect((c as unknown as Record<string, unknown>)[k], { depth: Infinity, showHidden: true })),
        );
      }
      const hits = secretHits(texts, SECRETS);
      count('secretSearches', texts.length);
      count('secretsFound', hits);
      count('requests', server.log.length);
      expect(inspect(client)).toContain('[redacted]');
      expect(hits).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the API key is never sent to another origin', () => {
  let server: FaultServer;
  let other: FaultServer;
  beforeEach(async () => {
    server = await startFaultServer();
    other = await startFaultServer({ otherwise: faults.ok({ ok: true }) });
  });
  afterEach(async () => {
    await server.close();
    await other.close();
  });
  const client = (options: ClientOptions = {}) =>
    new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, ...options });

  /** Requests at the other origin that carried the key anywhere (a header, the URL, the body). */
  const keyed = () => other.log.filter((r) => JSON.stringify(r).includes(API_KEY));
  const record = () => {
    count('keysSentElsewhere', keyed().length);
    count('secretSearches', other.log.length);
    count('requests', server.log.length + other.log.length);
  };

  const redirects: [string, (otherUrl: string, port: number) => string][] = [
    ['an absolute Location', (url) => `${url}/v1/workflows/wf_1`],
    ['a protocol-relative Location', (url) => `${url.replace(/^http:/, '')}/v1/workflows/wf_1`],
    ['a Location with userinfo naming the service', (url, port) => `http://127.0.0.1:${port}@${url.replace(/^http:\/\//, '')}/x`],
    ['an upper-case Location', (url) => `${url.toUpperCase()}/X`],
  ];
  for (const status of [301, 302, 303, 307, 308]) {
    for (const [label, location] of redirects) {
      it(`a ${status} redirect with ${label} is not followed`, async ({ expect }) => {
        server.otherwise(faults.redirect(status, location(other.url, server.port)));
        const error = await client()
          .workflows.create(INPUT)
          .catch((e: unknown) => e);
        record();
        expect(WfaError.is(error) && error.name).toBe('ApiError');
        expect(other.log).toHaveLength(0);
        expect(server.log).toHaveLength(1);
      });
    }
  }

  // The URL parser removes dot segments before any check of the resolved path could see them.
  for (const location of ['/v1/workflows/../../admin', '/v1/%2e%2e/%2E./admin', '/v1/./workflows/wf_2', 'SERVER/v1/workflows/../../admin'])
    it(`a redirect to a path with dot segments is not followed: ${location.replace('SERVER', 'http://service')}`, async ({ expect }) => {
      server.otherwise(faults.redirect(307, location.replace('SERVER', server.url)));
      const error = await client()
        .workflows.get('wf_1')
        .catch((e: unknown) => e);
      expect(WfaError.is(error) && error.message).toContain('not followed');
      expect(server.log.map((r) => r.path)).toEqual(['/v1/workflows/wf_1']);
    });

  it('a same-origin redirect is followed with the key; a second hop to another origin is not', async ({ expect }) => {
    server.plan(faults.redirect(307, '/v1/moved/wf_1')).otherwise(faults.redirect(302, `${other.url}/v1/workflows/wf_1`));
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    record();
    expect(WfaError.is(error) && error.name).toBe('ApiError');
    expect(server.log.map((r) => [r.path, r.headers['x-api-key']])).toEqual([
      ['/v1/workflows/wf_1', API_KEY],
      ['/v1/moved/wf_1', API_KEY],
    ]);
    expect(other.log).toHaveLength(0);
  });

  it.for([
    ['an absolute URL on another port', (url: string) => `${url}/v1/workflows`],
    ['an upper-case absolute URL', (url: string) => `${url.toUpperCase()}/v1/workflows`],
    ['an absolute URL with a fragment and a query', (url: string) => `${url}/v1/workflows?x=1#frag`],
  ] as const)('client.request() to %s: called without the key', async ([, target], { expect }) => {
    await client().request({ method: 'GET', path: target(other.url) });
    record();
    expect(other.log).toHaveLength(1);
    expect(other.log[0]!.headers['x-api-key']).toBeUndefined();
    expect(keyed()).toEqual([]);
  });

  it('client.request() to another origin strips an X-API-Key given as a client header and as a call header', async ({ expect }) => {
    const c = client({ apiKey: undefined, headers: { 'X-API-Key': API_KEY } });
    await c.request({ method: 'POST', path: `${other.url}/collect`, body: { ok: true }, headers: { 'x-api-key': API_KEY } });
    record();
    expect(other.log).toHaveLength(1);
    expect(keyed()).toEqual([]);
  });

  it('client.request() to the same origin but outside the base path: called without the key', async ({ expect }) => {
    server.otherwise(faults.ok({ ok: true }));
    const c = new Client({ baseUrl: `${server.url}/svc`, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
    await c.request({ method: 'GET', path: `${server.url}/other/thing` });
    await c.request({ method: 'GET', path: `${server.url}/svc/v1/workflows` });
    count('requests', server.log.length);
    expect(server.log.map((r) => [r.path, r.headers['x-api-key'] ?? null])).toEqual([
      ['/other/thing', null],
      ['/svc/v1/workflows', API_KEY],
    ]);
  });

  it('a build whose download_url is on another host: waiting never calls it; fetching it through the client sends no key', async ({
    expect,
  }) => {
    const downloadUrl = `${other.url}/downloads/bld_1.zip?token=abc`;
    server.otherwise((r) =>
      r.method === 'POST'
        ? faults.ok(workflowBody('wf_1', { build_id: 'bld_1' }), 201)
        : faults.ok({ id: 'bld_1', status: 'completed', progress: 100, download_url: downloadUrl }),
    );
    const c = client();
    const { build } = await c.workflows.createAndWait(INPUT, { intervalMs: 5 });
    const again = await c.waitForBuild('bld_1', { intervalMs: 5 });
    expect(build.download_url).toBe(downloadUrl);
    expect(again.download_url).toBe(downloadUrl);
    expect(other.log).toHaveLength(0);
    await c.request({ method: 'GET', path: build.download_url });
    record();
    expect(other.log).toHaveLength(1);
    expect(other.log[0]!.rawUrl).toBe('/downloads/bld_1.zip?token=abc');
    expect(keyed()).toEqual([]);
  });
});
