import fc from 'fast-check';
import { revokedProxy } from '../helpers/hostile.js';
import { http, HttpResponse } from 'msw';
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiKeyError,
  Client,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  ApiError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  WfaError,
  AuthenticationError,
} from '../../src/index.js';
import { queryString } from '../../src/core/query.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BASE_URL, useService } from '../helpers/service.js';
import { captureLogger } from '../helpers/logger.js';

const server = useService();
const KEY = 'wfa_live_secret_123';
const workflow = { id: 'wf_1', name: 'n', platform: 'zapier', status: 'building', created_at: '2026-01-01T00:00:00Z' };

const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: BASE_URL, apiKey: KEY, maxRetries: 0, ...options });

describe('the API key', () => {
  it('goes in X-API-Key on every resource request, with Accept: application/json', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await client().workflows.get('wf_1');
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(server.requests[0]!.headers['accept']).toBe('application/json');
  });

  it('defaults to WFA_API_KEY', async () => {
    vi.stubEnv('WFA_API_KEY', 'from_env_key');
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await new Client({ baseUrl: BASE_URL, maxRetries: 0 }).workflows.get('wf_1');
    expect(server.requests[0]!.headers['x-api-key']).toBe('from_env_key');
  });

  it('may come from an async function, asked before every request', async () => {
    let n = 0;
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const c = client({ apiKey: async () => `rotated_${++n}` });
    await c.workflows.get('wf_1');
    await c.workflows.get('wf_1');
    expect(server.requests.map((s) => s.headers['x-api-key'])).toEqual(['rotated_1', 'rotated_2']);
  });

  it('from a function that never settles: TimeoutError at timeoutMs, nothing sent', async () => {
    vi.useFakeTimers();
    try {
      const c = client({ apiKey: () => new Promise<string>(() => undefined), timeoutMs: 5_000 });
      const call = c.workflows.get('wf_1').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(5_000);
      const error = await call;
      expect(TimeoutError.is(error)).toBe(true);
      expect((error as TimeoutError).timeoutMs).toBe(5_000);
      expect(server.requests).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('from a function that throws: ApiKeyError with the error as a redacted cause, never its message', async () => {
    let calls = 0;
    const c = client({
      apiKey: () => {
        if (calls++ === 0) return KEY;
        throw new Error(`vault says no to ${KEY}`);
      },
    });
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await c.workflows.get('wf_1');
    const error = await c.workflows.get('wf_1').catch((e: unknown) => e);
    expect(ApiKeyError.is(error)).toBe(true);
    expect((error as Error).message).toBe('The apiKey function failed (Error); its error is the cause');
    expect(String((error as Error).cause)).toBe('Error: vault says no to [redacted]');
    expect(inspect(error, { depth: Infinity })).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('from a function that throws a value nothing can inspect (a revoked Proxy): still ApiKeyError', async () => {
    const c = client({
      apiKey: () => {
        throw revokedProxy();
      },
    });
    const error = await c.workflows.get('wf_1').catch((e: unknown) => e);
    expect(ApiKeyError.is(error)).toBe(true);
    expect((error as Error).message).toBe('The apiKey function failed (object); its error is the cause');
    expect(server.requests).toHaveLength(0);
  });

  it('when missing, fails before any network I/O with a clear error', async () => {
    vi.stubEnv('WFA_API_KEY', '');
    const c = new Client({ baseUrl: BASE_URL });
    const error = await c.workflows.get('wf_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfaError);
    expect((error as Error).message).toMatch(/No API key: pass \{ apiKey \}.*WFA_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('is refused, without being echoed, when it cannot be a header value', async () => {
    const error = await client({ apiKey: 'bad\nkey_value' })
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Unusable API key from the apiKey option: it holds a line break (CR or LF), which a header value cannot carry',
    );
    expect((error as Error).message).not.toContain('key_value');
    expect(server.requests).toHaveLength(0);
  });
});

describe('baseUrl', () => {
  it.each([
    [`${BASE_URL}`, `${BASE_URL}/api/v1/workflows/wf_1`],
    [`${BASE_URL}/`, `${BASE_URL}/api/v1/workflows/wf_1`],
    [`${BASE_URL}/api/v1`, `${BASE_URL}/api/v1/workflows/wf_1`],
    [`${BASE_URL}/api/v1/`, `${BASE_URL}/api/v1/workflows/wf_1`],
    [`${BASE_URL}/v1`, `${BASE_URL}/v1/workflows/wf_1`],
    [`${BASE_URL}/svc/api/v1`, `${BASE_URL}/svc/api/v1/workflows/wf_1`],
  ])('%s is normalised (requests go to %s)', async (baseUrl, expected) => {
    server.use(http.get('*/workflows/wf_1', () => HttpResponse.json(workflow)));
    await client({ baseUrl }).workflows.get('wf_1');
    expect(server.requests.map((s) => s.url)).toEqual([expected]);
  });

  it('defaults to WFA_BASE_URL', async () => {
    vi.stubEnv('WFA_BASE_URL', `${BASE_URL}/v1/`);
    server.use(http.get(`${BASE_URL}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await new Client({ apiKey: KEY }).workflows.get('wf_1');
    expect(server.requests[0]!.path).toBe('/v1/workflows/wf_1');
  });

  it('is required, and must be an http(s) URL', () => {
    vi.stubEnv('WFA_BASE_URL', '');
    expect(() => new Client({ apiKey: KEY })).toThrow(/No baseUrl/);
    expect(() => new Client({ baseUrl: 'not a url' })).toThrow(/absolute http or https URL/);
    expect(() => new Client({ baseUrl: 'ftp://x.test' })).toThrow(/absolute http or https URL/);
  });
});

describe("apiPrefix: 'auto'", () => {
  it('against a server that serves only /v1: one 404 under /api/v1, then /v1 for good', async () => {
    server.use(http.get(`${BASE_URL}/v1/workflows/:id`, () => HttpResponse.json(workflow)));
    const c = client();
    await c.workflows.get('wf_1');
    await c.workflows.get('wf_2');
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/workflows/wf_1', '/v1/workflows/wf_1', '/v1/workflows/wf_2']);
  });

  it('against a server that serves only /api/v1: never tries /v1', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/:id`, () => HttpResponse.json(workflow)));
    const c = client();
    await c.workflows.get('wf_1');
    await c.workflows.get('wf_2');
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/workflows/wf_1', '/api/v1/workflows/wf_2']);
  });

  it('pins the first prefix that answers anything but 404, even an error', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/:id`, () => HttpResponse.json({ error: 'bad key' }, { status: 401 })));
    const c = client();
    await expect(c.workflows.get('wf_1')).rejects.toBeInstanceOf(AuthenticationError);
    await expect(c.workflows.get('wf_1')).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/workflows/wf_1', '/api/v1/workflows/wf_1']);
  });

  it('once a prefix is confirmed, a 404 is final', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)),
      http.get(`${BASE_URL}/api/v1/workflows/missing`, () => HttpResponse.json({ message: 'gone' }, { status: 404 })),
    );
    const c = client();
    await c.workflows.get('wf_1');
    await expect(c.workflows.get('missing')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/workflows/wf_1', '/api/v1/workflows/missing']);
  });

  it("a 404 that is the service's own (an error code, words about a record) confirms the prefix: one DELETE, its error", async () => {
    const body = { error: { code: 'not_found', message: 'No integration with id int_nope' } };
    server.use(
      http.delete(`${BASE_URL}/api/v1/integrations/int_nope`, () =>
        HttpResponse.json(body, { status: 404, headers: { 'x-request-id': 'r1' } }),
      ),
    );
    const c = client();
    const error = (await c.integrations.delete('int_nope').then(
      () => undefined,
      (e: unknown) => e,
    )) as NotFoundError;
    expect(server.requests.map((s) => `${s.method} ${s.path}`)).toEqual(['DELETE /api/v1/integrations/int_nope']);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('404 No integration with id int_nope (DELETE /api/v1/integrations/int_nope, request id r1)');
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/api/v1', prefixConfirmed: true });
  });

  it.each([
    ['a router quoting the path', { error: { code: 'not_found', message: 'No endpoint DELETE /api/v1/integrations/int_nope' } }],
    ['no error code', { error: { message: 'Not found' } }],
    ['a code, and only the status for words', { error: { code: 'not_found', message: 'Not Found' } }],
    ['an empty body', null],
  ])('a 404 that may be a wrong prefix (%s) is tried under the other; the error names the first request', async (_, body) => {
    server.use(
      http.delete(`${BASE_URL}/api/v1/integrations/int_nope`, () =>
        body === null
          ? new HttpResponse(null, { status: 404, headers: { 'x-request-id': 'r1' } })
          : HttpResponse.json(body, { status: 404, headers: { 'x-request-id': 'r1' } }),
      ),
      http.delete(`${BASE_URL}/v1/integrations/int_nope`, () =>
        HttpResponse.json(
          { error: { code: 'not_found', message: 'No integration with id int_nope' } },
          { status: 404, headers: { 'x-request-id': 'r2' } },
        ),
      ),
    );
    const c = client();
    const error = (await c.integrations.delete('int_nope').then(
      () => undefined,
      (e: unknown) => e,
    )) as NotFoundError;
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/integrations/int_nope', '/v1/integrations/int_nope']);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ url: `${BASE_URL}/api/v1/integrations/int_nope`, requestId: 'r1', method: 'DELETE' });
    expect(error.message).toContain('; also tried /v1/integrations/int_nope (request id r2): No integration with id int_nope');
    expect(error.message).toMatch(/\(DELETE \/api\/v1\/integrations\/int_nope, request id r1\)$/);
    // The fallback's own 404 confirmed /v1: the next call goes there alone.
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/v1', prefixConfirmed: true });
  });

  it('starts with the prefix the baseUrl named', async () => {
    server.use(http.get(`${BASE_URL}/v1/workflows/:id`, () => HttpResponse.json(workflow)));
    await client({ baseUrl: `${BASE_URL}/v1` }).workflows.get('wf_1');
    expect(server.requests.map((s) => s.path)).toEqual(['/v1/workflows/wf_1']);
  });

  it('an explicit prefix is used as given, a 404 under it is not retried elsewhere', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/:id`, () => HttpResponse.json(workflow)));
    await expect(client({ apiPrefix: '/v1' }).workflows.get('wf_1')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests.map((s) => s.path)).toEqual(['/v1/workflows/wf_1']);
  });

  it.each([
    ['v2', 'must start with "/"'],
    ['/v2?x=1', 'must be path segments only'],
    ['/w fa', 'must be path segments only'],
    ['/wfa/../v1', 'must not contain "." or ".."'],
    ['/wfa/..%2fv1', 'must not contain "." or ".."'],
    ['/wfa/%2E%2e/v1', 'must not contain "." or ".."'],
    ['/wfa%zz', 'has a "%" that is not a percent-escape'],
  ])('refuses the prefix %j, naming the rule', (apiPrefix, rule) => {
    expect(() => client({ apiPrefix })).toThrow(ValidationError);
    expect(() => client({ apiPrefix })).toThrow(`apiPrefix: ${rule}`);
  });
});

describe('client.request (raw calls)', () => {
  it.each(['/workflows', '/api/v1/workflows', '/v1/workflows', 'workflows'])('sends %s under the confirmed prefix', async (path) => {
    server.use(http.get(`${BASE_URL}/v1/workflows`, () => HttpResponse.json([])));
    const c = client({ apiPrefix: '/v1' });
    await c.request({ method: 'GET', path });
    expect(server.requests[0]!.path).toBe('/v1/workflows');
  });

  it('sends /v1/auth to /v1/auth whatever the prefix', async () => {
    server.use(http.post(`${BASE_URL}/v1/auth`, () => HttpResponse.json({ api_key: 'k' })));
    await client({ apiPrefix: '/api/v1' }).request({ method: 'POST', path: '/v1/auth', body: { email: 'a@b', password: 'p' } });
    expect(server.requests[0]!.path).toBe('/v1/auth');
  });

  it('encodes the query, leaving out undefined and null, repeating arrays', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/things`, () => HttpResponse.json({})));
    await client().request({ method: 'GET', path: '/things', query: { a: 'x y', b: undefined, c: null, d: [1, 2], e: true } });
    expect(server.requests[0]!.search).toBe('?a=x+y&d=1&d=2&e=true');
  });

  it('encodes any name and value exactly as URLSearchParams does', () => {
    // Mostly characters at the edge of what form encoding leaves alone; any code point (lone surrogates too)
    // besides. Drawn as integers: fast-check's own 'binary' unit takes 2 s to set up with a maxLength.
    // Well-formed text only: a lone surrogate is refused (below), as encoding would silently replace it.
    const edge = fc.constantFrom('a', 'Z', '0', '_', '-', '.', '*', '~', ' ', '+', '%', '&', '=', '?', '#', "'", '!', 'é', '😀');
    const anyCodePoint = fc
      .integer({ min: 0, max: 0x10ffff - 0x800 })
      .map((code) => String.fromCodePoint(code >= 0xd800 ? code + 0x800 : code));
    const text = fc.oneof(fc.string({ unit: edge, maxLength: 6 }), fc.string({ unit: anyCodePoint, maxLength: 12 }));
    const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(value, fc.array(value, { maxLength: 3 }))), (query) => {
        const expected = new URLSearchParams();
        for (const [name, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) expected.append(name, String(item));
        const search = expected.toString();
        expect(queryString(query)).toBe(search);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a string', 'status=paid'],
    ['a lone surrogate in a value', { q: '\uD800' }],
    ['a lone surrogate in a name', { ['\uDC00']: 'x' }],
  ])('refuses %s as a query before sending', async (_, query) => {
    const error = await client()
      .request({ method: 'GET', path: '/things', query: query as never })
      .catch((e: unknown) => e);
    expect(ValidationError.is(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('sends a JSON body with its content type', async () => {
    server.use(http.post(`${BASE_URL}/api/v1/things`, () => HttpResponse.json({ ok: true })));
    const result = await client().request<{ ok: boolean }>({ method: 'POST', path: '/things', body: { a: [1] } });
    expect(result).toEqual({ ok: true });
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests.map((s) => s.body)).toEqual([{ a: [1] }]);
  });

  it('refuses an absolute URL with user:password@ before sending, and never quotes the password', async () => {
    const error = await client()
      .request({ method: 'GET', path: 'https://user:pa55word@elsewhere.test/x' })
      .catch((e: unknown) => e);
    expect(ValidationError.is(error)).toBe(true);
    expect(inspect(error, { depth: Infinity })).not.toContain('pa55word');
    expect(server.requests).toHaveLength(0);
  });

  it('never sends the API key to another origin', async () => {
    server.use(http.get('https://elsewhere.test/file', () => HttpResponse.json({ ok: 1 })));
    await client({ headers: { 'X-API-Key': KEY } }).request({ method: 'GET', path: 'https://elsewhere.test/file' });
    expect(server.requests[0]!.url).toBe('https://elsewhere.test/file');
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('adds default and per-call headers, per-call winning', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/things`, () => HttpResponse.json({})));
    await client({ headers: { 'x-team': 'a', 'x-trace': '1' } }).request({ method: 'GET', path: '/things', headers: { 'x-team': 'b' } });
    expect(server.requests[0]!.headers['x-team']).toBe('b');
    expect(server.requests[0]!.headers['x-trace']).toBe('1');
  });

  it('resolves to undefined for an empty body', async () => {
    server.use(http.delete(`${BASE_URL}/api/v1/things/1`, () => new HttpResponse(null, { status: 204 })));
    await expect(client().request({ method: 'DELETE', path: '/things/1' })).resolves.toBeUndefined();
  });
});

describe('redirects', () => {
  it('follows a redirect within the service origin, key included', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/old`, () => new HttpResponse(null, { status: 307, headers: { location: '/api/v1/new' } })),
      http.get(`${BASE_URL}/api/v1/new`, () => HttpResponse.json({ moved: true })),
    );
    await expect(client().request({ method: 'GET', path: '/old' })).resolves.toEqual({ moved: true });
    expect(server.requests.map((s) => [s.path, s.headers['x-api-key']])).toEqual([
      ['/api/v1/old', KEY],
      ['/api/v1/new', KEY],
    ]);
  });

  it('does not follow a redirect to another origin, so the key never leaves', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/old`, () => new HttpResponse(null, { status: 302, headers: { location: 'https://evil.test/steal' } })),
    );
    const error = await client()
      .request({ method: 'GET', path: '/old' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(302);
    // The host is not quoted: a service may echo the key into it (its Location header, redacted, says where).
    expect((error as ApiError).message).toMatch(/another origin not followed/);
    expect((error as ApiError).message).not.toContain('evil.test');
    expect(server.requests.map((s) => s.host)).toEqual(['wfa.test']);
  });
});

describe('responses the SDK cannot use', () => {
  it('an HTML 502 page becomes a readable InternalServerError', async () => {
    server.use(
      http.get(
        `${BASE_URL}/api/v1/workflows/wf_1`,
        () =>
          new HttpResponse('<html><head><title>502 Bad Gateway</title></head></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe('502 Bad Gateway (HTML page: 502 Bad Gateway) (GET /api/v1/workflows/wf_1)');
  });

  it('a 200 that is not JSON is a ResponseValidationError carrying the text', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => new HttpResponse('hello', { status: 200 })));
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('hello');
    expect((error as Error).message).toMatch(/is not JSON/);
  });
});

describe('time and cancellation', () => {
  useFakeClock();
  /** A request that never gets an answer. */
  const hang = () => new Promise<never>(() => undefined);

  it('an attempt longer than timeoutMs fails with TimeoutError', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, hang));
    const settled = await settle(client({ timeoutMs: 50 }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: false, error: expect.any(TimeoutError), elapsedMs: 50 });
    expect((settled as { error: TimeoutError }).error.timeoutMs).toBe(50);
  });

  it('an already-aborted signal rejects with AbortError and sends nothing', async () => {
    const error = await client()
      .workflows.get('wf_1', { signal: AbortSignal.abort('stop') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe('stop');
    expect(server.requests).toHaveLength(0);
  });

  it('aborting mid-request rejects with AbortError', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, hang));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const settled = await settle(client().workflows.get('wf_1', { signal: controller.signal }));
    expect(settled).toMatchObject({ ok: false, error: expect.any(AbortError), elapsedMs: 30 });
    expect(server.requests).toHaveLength(1);
  });
});

describe('the fetch option', () => {
  it('is used for every request', async () => {
    const calls: string[] = [];
    const fetch = async (input: Request | string | URL) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return Response.json(workflow);
    };
    await client({ fetch }).workflows.get('wf_1');
    expect(calls).toEqual([`${BASE_URL}/api/v1/workflows/wf_1`]);
  });

  it('a network failure becomes ConnectionError naming the cause', async () => {
    const fetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    };
    const error = await client({ fetch })
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(`Could not reach the service: ECONNREFUSED (GET ${BASE_URL}/api/v1/workflows/wf_1)`);
  });
});

describe('logging', () => {
  it('writes the transport, then one line per request and response at debug, never the key', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const { lines, logger } = captureLogger();
    await client({ logger, logLevel: 'debug' }).workflows.get('wf_1');
    expect(lines).toEqual([
      '[wfa] sending through the fetch transport',
      `[wfa] → GET ${BASE_URL}/api/v1/workflows/wf_1`,
      expect.stringMatching(/^\[wfa\] ← 200 GET .*\/api\/v1\/workflows\/wf_1 \(\d+ ms\)$/),
      '[wfa] using path prefix /api/v1',
    ]);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('is silent by default', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const spy = vi.spyOn(console, 'debug');
    await client().workflows.get('wf_1');
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('inspection of a client', () => {
  it('shows where it points and never the key', () => {
    const c = client();
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(inspect(c, { depth: Infinity, showHidden: true })).not.toContain(KEY);
    expect(String(c)).not.toContain(KEY);
    expect(JSON.parse(JSON.stringify(c))).toEqual({
      baseUrl: BASE_URL,
      apiPrefix: '/api/v1',
      prefixConfirmed: false,
      apiKey: '[redacted]',
    });
  });
});

describe('an X-API-Key header given explicitly', () => {
  it('is sent alone, in place of the configured key', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await client().workflows.get('wf_1', { headers: { 'X-API-Key': 'per_call_key' } });
    expect(server.requests[0]!.headers['x-api-key']).toBe('per_call_key');
  });

  it('needs no configured key', async () => {
    vi.stubEnv('WFA_API_KEY', '');
    server.use(http.get(`${BASE_URL}/api/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await new Client({ baseUrl: BASE_URL, maxRetries: 0, headers: { 'x-api-key': 'from_headers' } }).workflows.get('wf_1');
    expect(server.requests[0]!.headers['x-api-key']).toBe('from_headers');
  });
});

describe('a Content-Type header given explicitly', () => {
  it('is kept, in whatever case, and not doubled by the JSON default', async () => {
    server.use(http.post(`${BASE_URL}/api/v1/things`, () => HttpResponse.json({})));
    await client().request({
      method: 'POST',
      path: '/things',
      body: { a: 1 },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(server.requests[0]!.headers['content-type']).toBe('application/merge-patch+json');
  });
});
