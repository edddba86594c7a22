/**
 * An outside attack on the restructured HTTP core (routes, prefix fallback, key resolution, queries, lists),
 * written from the docs and the source only, over real sockets on 127.0.0.1. Each test states the guarantee
 * it attacks; every call runs under a generous guard, so a hang fails the test instead of the suite.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiKeyError,
  Client,
  ConnectionError,
  type ClientOptions,
  NotFoundError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  WfaError,
} from '../../src/index.js';
import { closedPortUrl, type Fault, type FaultServer, faults, type LoggedRequest, startFaultServer, workflowBody } from './fault-server.js';
import { renderings } from './summary.js';
import { captureLogger } from '../helpers/logger.js';

// Base64-like: the characters real keys carry (`/`, `+`, `=`), which URL encoders treat differently.
const KEY = 'sk_live/Attack+Key=9f8e7d6c';
// A fragment of the key that every encoding but base64 leaves as it is.
const KEY_CORE = '9f8e7d6c';
// Far past any bound a call may take here; only a hang reaches it.
const GUARD_MS = 30_000;

const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(otherwise?: Fault | ((r: LoggedRequest, log: readonly LoggedRequest[]) => Fault)): Promise<FaultServer> {
  const s = await startFaultServer(otherwise ? { otherwise } : {});
  servers.push(s);
  return s;
}

function client(baseUrl: string, options: ClientOptions = {}): Client {
  return new Client({ baseUrl, apiKey: KEY, maxRetries: 0, timeoutMs: 5_000, ...options });
}

/** The call's outcome: its value, or what it threw; never longer than the guard. */
async function settle<T>(promise: PromiseLike<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`guard: the call did not settle within ${GUARD_MS} ms`)), GUARD_MS);
  });
  try {
    return { ok: true, value: await Promise.race([promise, guard]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('guard:')) throw error;
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

async function failure(promise: PromiseLike<unknown>): Promise<unknown> {
  const result = await settle(promise);
  if (result.ok) throw new Error(`expected a rejection, got ${inspect(result.value)}`);
  return result.error;
}

/** Texts holding a secret in any encoding: the fragment survives raw, JSON, and percent encoding in any case. */
function hits(texts: readonly string[], fragment: string): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const at = text.toLowerCase().indexOf(fragment.toLowerCase());
    if (at !== -1) out.push(`…${text.slice(Math.max(0, at - 40), at + fragment.length + 10)}…`);
  }
  return out;
}

function custom(handle: (req: IncomingMessage, res: ServerResponse, logged: LoggedRequest) => void): Fault {
  return { kind: 'custom', handle };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function refused(send: (c: Client) => PromiseLike<unknown>, options: ClientOptions = {}): Promise<{ error: unknown; sent: number }> {
  const service = await server();
  const error = await failure(send(client(service.url, { apiPrefix: '/api/v1', ...options })));
  return { error, sent: service.log.length };
}

const ok = faults.ok();
const notFound = faults.status(404, { error: 'not found' });

describe('attack: the API key never goes to another origin', () => {
  it('an absolute URL on another origin gets no key, whatever the case of its scheme and host', async () => {
    const service = await server();
    const other = await server();
    const c = client(service.url);
    const otherUpper = other.url.replace('http://', 'HTTP://');
    for (const url of [`${other.url}/x`, `${otherUpper}/x`, `${other.url.replace('127.0.0.1', 'LOCALHOST')}/x`]) {
      await settle(c.request({ method: 'GET', path: url }));
    }
    // localhost may resolve to ::1 first; the two 127.0.0.1 forms must arrive.
    expect(other.log.length).toBeGreaterThanOrEqual(2);
    for (const r of other.log) expect(r.headers['x-api-key']).toBeUndefined();
    expect(service.log).toHaveLength(0);
  });

  it('an explicit X-API-Key header (any case) is stripped for another origin', async () => {
    const other = await server();
    const c = client('http://127.0.0.1:9', { headers: { 'X-API-KEY': KEY } });
    await settle(c.request({ method: 'GET', path: `${other.url}/x`, headers: { 'x-Api-kEy': `${KEY}2` } }));
    expect(other.log).toHaveLength(1);
    expect(JSON.stringify(other.log[0]!.headers)).not.toContain(KEY_CORE);
  });

  it('a `//host` path, a userinfo trick and backslashes stay on the service origin', async () => {
    const other = await server();
    const service = await server();
    const c = client(service.url, { apiPrefix: '/api/v1' });
    const hostPort = other.url.slice('http://'.length);
    for (const path of [`//${hostPort}/x`, `\\\\${hostPort}/x`, `@${hostPort}/x`]) {
      await settle(c.request({ method: 'GET', path }));
    }
    // A dot segment is refused before sending: a URL parser would resolve it out of the service root.
    expect(ValidationError.is(await failure(c.request({ method: 'GET', path: `/..//${hostPort}/x` })))).toBe(true);
    await settle(c.request({ method: 'GET', path: `http://${service.url.slice(7)}@${hostPort}/x` }));
    // The userinfo form goes to `other` (its host), without a key; nothing else may reach it.
    expect(other.log.length).toBeLessThanOrEqual(1);
    for (const r of other.log) expect(r.headers['x-api-key']).toBeUndefined();
    expect(service.log.length).toBe(3);
  });

  it('a redirect to another origin (absolute, protocol-relative, upper case) is not followed', async () => {
    const other = await server();
    const hostPort = other.url.slice('http://'.length);
    for (const location of [`${other.url}/steal`, `//${hostPort}/steal`, `HTTP://${hostPort}/steal`, `http://${KEY_CORE}@${hostPort}/s`]) {
      const service = await server(faults.redirect(307, location));
      const error = await failure(client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1'));
      expect(WfaError.is(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(/another origin/);
    }
    expect(other.log).toHaveLength(0);
  });

  it('an absolute URL on the origin but outside a base path gets no key', async () => {
    const service = await server();
    const c = client(`${service.url}/svc`, { apiPrefix: '/api/v1' });
    await settle(c.request({ method: 'GET', path: `${service.url}/admin` }));
    await settle(c.request({ method: 'GET', path: `${service.url}/svc/api/v1/workflows` }));
    expect(service.log.map((r) => [r.path, r.headers['x-api-key'] !== undefined])).toEqual([
      ['/admin', false],
      ['/svc/api/v1/workflows', true],
    ]);
  });
});

describe('attack: the prefix fallback', () => {
  it('is tried once, the key function runs once, and toJSON reports the confirmed prefix', async () => {
    const service = await server((r) => (r.path.startsWith('/api/v1/') ? notFound : ok));
    let calls = 0;
    const c = client(service.url, {
      apiKey: () => {
        calls++;
        return KEY;
      },
    });
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/api/v1', prefixConfirmed: false });
    const result = await settle(c.workflows.get('wf_1'));
    expect(result.ok).toBe(true);
    expect(calls).toBe(1);
    expect(service.log.map((r) => r.path)).toEqual(['/api/v1/workflows/wf_1', '/v1/workflows/wf_1']);
    expect(service.log.map((r) => r.headers['x-api-key'])).toEqual([KEY, KEY]);
    expect(c.toJSON()).toEqual({ baseUrl: service.url, apiPrefix: '/v1', prefixConfirmed: true, apiKey: '[redacted]' });
    expect(inspect(c)).not.toContain(KEY_CORE);
    await settle(c.workflows.get('wf_2'));
    expect(service.log.at(-1)!.path).toBe('/v1/workflows/wf_2');
  });

  it('a 404 under both prefixes is two requests, a NotFoundError, and leaves the prefix unconfirmed', async () => {
    const service = await server(notFound);
    const c = client(service.url);
    const error = await failure(c.workflows.get('wf_1'));
    expect(NotFoundError.is(error)).toBe(true);
    expect(service.log.map((r) => r.path)).toEqual(['/api/v1/workflows/wf_1', '/v1/workflows/wf_1']);
    expect(c.toJSON().prefixConfirmed).toBe(false);
  });

  it('an explicit apiPrefix never falls back', async () => {
    const service = await server(notFound);
    const c = client(service.url, { apiPrefix: '/v1' });
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/v1', prefixConfirmed: true });
    expect(NotFoundError.is(await failure(c.workflows.get('wf_1')))).toBe(true);
    expect(service.log.map((r) => r.path)).toEqual(['/v1/workflows/wf_1']);
  });

  it('a 404 after confirmation is one request, not a fallback', async () => {
    const service = await server();
    const c = client(service.url);
    await settle(c.workflows.get('wf_1'));
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/api/v1', prefixConfirmed: true });
    service.otherwise(notFound);
    const error = await failure(c.workflows.get('wf_missing'));
    expect(NotFoundError.is(error)).toBe(true);
    expect(service.log.map((r) => r.path)).toEqual(['/api/v1/workflows/wf_1', '/api/v1/workflows/wf_missing']);
  });

  it('a POST that falls back sends the same body and key under the other prefix, and only once each', async () => {
    const service = await server((r) => (r.path.startsWith('/api/v1/') ? notFound : faults.ok(workflowBody('wf_9'), 201)));
    const c = client(service.url);
    const created = await settle(
      c.workflows.create({
        name: 'n',
        platform: 'zapier',
        trigger: { type: 'webhook' },
        actions: [{ app: 'slack', action: 'send_message' }],
      }),
    );
    expect(created.ok).toBe(true);
    expect(service.log.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/workflows', 'POST /v1/workflows']);
    expect(service.log[0]!.body).toBe(service.log[1]!.body);
  });

  it('the fallback follows redirects, with one key resolution and the same key on every hop', async () => {
    const service = await server((r) => {
      if (r.path === '/api/v1/workflows/wf_1') return faults.redirect(307, '/api/v1/moved/wf_1');
      if (r.path === '/api/v1/moved/wf_1') return notFound;
      if (r.path === '/v1/workflows/wf_1') return faults.redirect(302, '/v1/moved/wf_1');
      return ok;
    });
    let calls = 0;
    const c = client(service.url, { apiKey: async () => countedKey() });
    function countedKey(): string {
      calls++;
      return KEY;
    }
    expect((await settle(c.workflows.get('wf_1'))).ok).toBe(true);
    expect(calls).toBe(1);
    expect(service.log.map((r) => r.path)).toEqual([
      '/api/v1/workflows/wf_1',
      '/api/v1/moved/wf_1',
      '/v1/workflows/wf_1',
      '/v1/moved/wf_1',
    ]);
    for (const r of service.log) expect(r.headers['x-api-key']).toBe(KEY);
  });

  it('key issuing goes to /v1/auth only, without the client key, and never falls back', async () => {
    const service = await server(notFound);
    const c = client(service.url);
    const error = await failure(c.auth.issueKey({ email: 'a@example.com', password: 'hunter2-password' }));
    expect(NotFoundError.is(error)).toBe(true);
    expect(service.log.map((r) => r.path)).toEqual(['/v1/auth']);
    expect(service.log[0]!.headers['x-api-key']).toBeUndefined();
    expect(hits(renderings(error), 'hunter2-password')).toEqual([]);
  });

  it('a path that names a prefix is sent under the confirmed one', async () => {
    const service = await server((r) => (r.path.startsWith('/api/v1/') ? notFound : ok));
    const c = client(service.url);
    await settle(c.workflows.get('wf_1'));
    for (const path of ['/api/v1/workflows', '/v1/workflows', 'workflows', '/api/v1']) await settle(c.request({ method: 'GET', path }));
    expect(service.log.slice(2).map((r) => r.path)).toEqual(['/v1/workflows', '/v1/workflows', '/v1/workflows', '/v1']);
  });
});

describe('attack: deadlines, hanging key functions and aborts at every phase', () => {
  it('a key function that never settles ends in TimeoutError and sends nothing', async () => {
    const service = await server();
    const c = client(service.url, { apiKey: () => new Promise<string>(() => undefined), timeoutMs: 300 });
    const error = await failure(c.workflows.get('wf_1'));
    expect(TimeoutError.is(error)).toBe(true);
    expect(service.log).toHaveLength(0);
  });

  it('an abort while the key function hangs is an AbortError and sends nothing', async () => {
    const service = await server();
    const controller = new AbortController();
    const c = client(service.url, { apiKey: () => new Promise<string>(() => setTimeout(() => controller.abort(new Error('stop')), 50)) });
    const error = await failure(c.workflows.get('wf_1', { signal: controller.signal }));
    expect(AbortError.is(error)).toBe(true);
    expect(service.log).toHaveLength(0);
  });

  it('an already aborted signal sends nothing and does not ask for the key', async () => {
    const service = await server();
    let calls = 0;
    const c = client(service.url, {
      apiKey: () => {
        calls++;
        return KEY;
      },
    });
    const error = await failure(c.workflows.list({}, { signal: AbortSignal.abort() }));
    expect(AbortError.is(error)).toBe(true);
    expect(calls).toBe(0);
    expect(service.log).toHaveLength(0);
  });

  it('an abort during a retry wait, a fallback, a redirect hop and a stalled body each end the call at once', async () => {
    // Each behaviour aborts the call (50 ms later) from the phase it names.
    const then = (abort: () => void, fault: Fault): Fault => {
      abort();
      return fault;
    };
    const cases: [string, (abort: () => void) => (r: LoggedRequest) => Fault][] = [
      ['retry wait', (abort) => () => then(abort, faults.status(503, { error: 'busy' }, { 'retry-after': '30' }))],
      ['fallback', (abort) => (r) => (r.path.startsWith('/api/v1/') ? notFound : then(abort, faults.stall()))],
      [
        'redirect hop',
        (abort) => (r) => (r.path === '/api/v1/workflows/wf_1' ? faults.redirect(302, '/api/v1/hop') : then(abort, faults.stall())),
      ],
      ['stalled body', (abort) => () => then(abort, faults.stallAfterHeaders())],
    ];
    for (const [name, behaviour] of cases) {
      const controller = new AbortController();
      const service = await server(behaviour(() => setTimeout(() => controller.abort(new Error(name)), 50)));
      const c = client(service.url, { maxRetries: 3, timeoutMs: 20_000 });
      const started = performance.now();
      const error = await failure(c.workflows.get('wf_1', { signal: controller.signal }));
      expect(AbortError.is(error), name).toBe(true);
      // Generous: the waits it cut short are 20 s and more.
      expect(performance.now() - started, name).toBeLessThan(10_000);
      const before = service.received;
      await new Promise((r) => setTimeout(r, 200));
      expect(service.received, `${name}: nothing sent after the abort`).toBe(before);
    }
  });

  it('the fallback shares the call deadline: no request starts past (timeoutMs + 8 s) x (maxRetries + 1)', async () => {
    const service = await server((r) =>
      r.path.startsWith('/api/v1/') ? notFound : faults.status(503, { error: 'busy' }, { 'retry-after': '4' }),
    );
    const c = client(service.url, { maxRetries: 10, timeoutMs: 200 });
    const started = performance.now();
    await failure(c.workflows.get('wf_1', { maxRetries: 0 }));
    // maxRetries 0: deadline (200 + 8000) x 1 = 8.2 s; a 4 s Retry-After must not be slept on past it, and with
    // no retries allowed nothing is retried at all.
    expect(service.log.map((r) => r.path)).toEqual(['/api/v1/workflows/wf_1', '/v1/workflows/wf_1']);
    expect(service.log.at(-1)!.at - started).toBeLessThan(8_200);
  });
});

describe('attack: secrets in errors and logs, in any encoding', () => {
  it('the key in a redirect Location and then in a 404 body: no error rendering or debug line holds it', async () => {
    const service = await server((r) =>
      r.path === '/api/v1/workflows/wf_1'
        ? faults.redirect(302, `/api/v1/landing/${KEY}?token=${encodeURIComponent(KEY)}&raw=${KEY}`)
        : faults.status(404, { error: `no route for key ${KEY}`, echoed: { [KEY]: r.rawUrl } }),
    );
    const { lines, logger } = captureLogger();
    const c = client(service.url, { apiPrefix: '/api/v1', logger, logLevel: 'debug' });
    const error = await failure(c.workflows.get('wf_1'));
    expect(NotFoundError.is(error)).toBe(true);
    expect(service.log).toHaveLength(2);
    expect(hits([...renderings(error), ...lines], KEY_CORE)).toEqual([]);
  });

  it('the key in a fallback URL (a query the caller passed) is in no error or log line', async () => {
    const service = await server(notFound);
    const { lines, logger } = captureLogger();
    const c = client(service.url, { logger, logLevel: 'debug' });
    const error = await failure(c.request({ method: 'GET', path: '/workflows', query: { api_key: KEY } }));
    expect(service.log).toHaveLength(2);
    expect(hits([...renderings(error), ...lines], KEY_CORE)).toEqual([]);
  });

  it('an apiKey function whose error quotes the last key: the cause has it removed', async () => {
    const service = await server();
    let n = 0;
    const c = client(service.url, {
      apiKey: () => {
        if (n++ === 0) return KEY;
        throw new Error(`vault: ${KEY} expired`, { cause: { message: encodeURIComponent(KEY) } });
      },
    });
    await settle(c.workflows.get('wf_1'));
    const error = await failure(c.workflows.get('wf_1'));
    expect(ApiKeyError.is(error)).toBe(true);
    expect(hits(renderings(error), KEY_CORE)).toEqual([]);
  });

  it('a fetch that fails quoting the request (headers and all) leaves no key in the ConnectionError', async () => {
    const c = client('http://127.0.0.1:9', {
      fetch: async (_input, init) => {
        const error = new TypeError(`fetch failed for ${JSON.stringify(init?.headers)}`) as TypeError & Record<string, unknown>;
        error['request'] = { headers: init?.headers };
        error['code'] = `ECONNRESET ${KEY}`;
        throw error;
      },
    });
    const error = await failure(c.workflows.get('wf_1'));
    expect(WfaError.is(error)).toBe(true);
    expect(hits(renderings(error), KEY_CORE)).toEqual([]);
  });

  it('the login password echoed in a 2xx that is not JSON is redacted', async () => {
    const password = 'correct-horse/battery+staple';
    const service = await server({
      kind: 'raw',
      status: 200,
      body: `<p>welcome, your password ${password} is weak</p>`,
      headers: { 'content-type': 'text/html' },
    });
    const error = await failure(Client.login({ baseUrl: service.url, email: 'a@example.com', password, maxRetries: 0 }));
    expect(WfaError.is(error)).toBe(true);
    expect(hits(renderings(error), 'battery')).toEqual([]);
  });
});

describe('attack: bad input is refused before anything is sent', () => {
  it('query values that are objects, nested arrays or symbols', async () => {
    for (const query of [{ status: { $ne: 1 } }, { tag: [['a']] }, { tag: [undefined] }, { s: Symbol('x') }]) {
      const { error, sent } = await refused((c) => c.request({ method: 'GET', path: '/workflows', query: query as never }));
      expect(ValidationError.is(error), `query ${inspect(query)}: ${String(error)}`).toBe(true);
      expect(sent).toBe(0);
    }
  });

  it('no key, or a key a header cannot carry: ApiKeyError and nothing sent', async () => {
    // Spaces inside a key are a header value's right (one rule for every key source, docs/deployments.md).
    for (const apiKey of ['', 'key\r\nX-Injected: 1', 'key\u0000nul', () => '', () => 42 as never]) {
      const { error, sent } = await refused((c) => c.workflows.get('wf_1'), { apiKey });
      expect(ApiKeyError.is(error), inspect(apiKey)).toBe(true);
      expect(sent).toBe(0);
      expect(hits(renderings(error), 'X-Injected')).toEqual([]);
    }
  });

  it('call options: timeoutMs, maxRetries, header names and values, a fake signal', async () => {
    const bad: Record<string, unknown>[] = [
      { timeoutMs: Number.NaN },
      { timeoutMs: -1 },
      { maxRetries: 11 },
      { maxRetries: 1.5 },
      { headers: { 'x-a': 'v\r\nX-Injected: 1' } },
      { headers: { 'bad name': 'v' } },
      { headers: { 'x-a': 5 } },
      { signal: {} },
    ];
    for (const options of bad) {
      const { error, sent } = await refused((c) => c.workflows.get('wf_1', options as never));
      expect(ValidationError.is(error), JSON.stringify(options)).toBe(true);
      expect(sent).toBe(0);
    }
  });

  it('ids that would change the endpoint, and list parameters and options', async () => {
    for (const id of ['.', '..', '', ' ', 'x'.repeat(1025), '\uD800', null, {}]) {
      const { error, sent } = await refused((c) => c.workflows.get(id as never));
      expect(ValidationError.is(error), String(id).slice(0, 10)).toBe(true);
      expect(sent).toBe(0);
    }
    for (const [params, options] of [
      [{ page: 0 }, {}],
      [{ limit: -1 }, {}],
      [{ unknown: 1 }, {}],
      ['page=2', {}],
      [{}, { maxPages: 0 }],
      [{}, { maxPages: 1.5 }],
    ] as const) {
      const { error, sent } = await refused((c) => c.orders.list(params as never, options as never));
      expect(ValidationError.is(error), JSON.stringify([params, options])).toBe(true);
      expect(sent).toBe(0);
    }
  });

  it('bodies JSON cannot carry, including a getter that throws', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const throwing = {
      get boom(): never {
        throw new Error('getter');
      },
    };
    for (const body of [{ n: 1n }, cyclic, { m: new Map() }, { f: () => 1 }, throwing]) {
      const { error, sent } = await refused((c) => c.request({ method: 'POST', path: '/workflows', body }));
      expect(ValidationError.is(error)).toBe(true);
      expect(sent).toBe(0);
    }
  });
});

describe('attack: list walks', () => {
  it('a `next` URL on another origin is read for its page number only, never requested', async () => {
    const other = await server();
    const service = await server((r) =>
      r.query.get('page') === '2' ? faults.ok({ data: [] }) : faults.ok({ data: [{ id: 'o1' }], next: `${other.url}/steal?page=2` }),
    );
    const items: unknown[] = [];
    for await (const item of client(service.url, { apiPrefix: '/api/v1' }).orders.list()) items.push(item);
    expect(items).toHaveLength(1);
    expect(other.log).toHaveLength(0);
    expect(service.log.map((r) => r.query.get('page'))).toEqual([null, '2']);
  });

  it('next_page pointing back, with has_more true: the walk ends, each item once', async () => {
    const service = await server((r) => {
      const page = Number(r.query.get('page') ?? 1);
      return faults.ok({ data: [{ id: `o${page}` }], page, has_more: true, next_page: page === 3 ? 1 : page + 1 });
    });
    const items: string[] = [];
    for await (const item of client(service.url, { apiPrefix: '/api/v1' }).orders.list()) items.push(String(item.id));
    expect(items).toEqual(['o1', 'o2', 'o3']);
    expect(service.log).toHaveLength(3);
  });

  it('maxPages bounds endless distinct pages, for `for await` and for getNextPage', async () => {
    const service = await server((r) => faults.ok({ data: [{ id: `o${r.seq}` }], has_more: true }));
    const c = client(service.url, { apiPrefix: '/api/v1' });
    let n = 0;
    for await (const _ of c.orders.list({}, { maxPages: 3 })) n++;
    expect(n).toBe(3);
    const first = await c.orders.list({}, { maxPages: 1 });
    expect(first.hasNextPage()).toBe(false);
    expect(WfaError.is(await failure(first.getNextPage()))).toBe(true);
    expect(service.log).toHaveLength(4);
  });
});

/**
 * Each test below breaks a guarantee the docs state, on the code as it is: they fail until `src/` is fixed.
 * The report that came with them names the doc line, the reproduction and what was observed.
 */
describe('guarantees these attacks first broke, each fixed since', () => {
  // client.request() "sends a path with or without a prefix under the confirmed one" (docs/configuration.md),
  // and the core treats anything outside the root as foreign: a relative path must not climb out of it.
  it('a relative path with `..` segments (plain or %2e-encoded) stays under the base path and prefix', async () => {
    const service = await server();
    const c = client(`${service.url}/svc`, { apiPrefix: '/api/v1' });
    for (const path of ['/../../../admin', '/%2e%2e/%2e%2e/%2E%2E/admin', '/workflows/../../../../admin']) {
      const result = await settle(c.request({ method: 'GET', path }));
      if (!result.ok) expect(ValidationError.is(result.error)).toBe(true);
    }
    const escaped = service.log.filter((r) => !r.path.startsWith('/svc/api/v1/'));
    expect(
      escaped.map((r) => ({ path: r.path, key: r.headers['x-api-key'] !== undefined })),
      'requests that left /svc/api/v1 (with the key?)',
    ).toEqual([]);
  });

  // "while no prefix is confirmed, a 404 is tried once more under the other prefix" (docs/configuration.md):
  // two first calls in flight together must both reach the prefix that answers.
  it('concurrent first calls: a 404 that arrives after another call confirmed the other prefix still falls back', async () => {
    let held: ServerResponse | undefined;
    const service = await server((r) => {
      if (r.path === '/api/v1/workflows/wf_b') {
        return custom((_req, res) => {
          held = res;
        });
      }
      return r.path.startsWith('/api/v1/') ? notFound : ok;
    });
    const c = client(service.url);
    const b = settle(c.workflows.get('wf_b'));
    await until(() => held !== undefined, 'the first call to arrive');
    const a = await settle(c.workflows.get('wf_a'));
    expect(a.ok).toBe(true);
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/v1', prefixConfirmed: true });
    const body = JSON.stringify({ error: 'not found' });
    held!.writeHead(404, { 'content-type': 'application/json', 'content-length': String(body.length) });
    held!.end(body);
    const result = await b;
    expect(result.ok ? 'resolved' : String(result.error), 'the call that started first').toBe('resolved');
    expect(service.requests('/v1/workflows/wf_b')).toHaveLength(1);
  });

  // .NET's HttpUtility.UrlEncode (and others) write lower-case hex: `%2f`, not `%2F`.
  it('the key echoed URL-encoded with lower-case hex in an error body is redacted', async () => {
    const lower = encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    const service = await server(faults.status(401, { error: `Invalid API key: ${lower}` }));
    const error = await failure(client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1'));
    expect(hits(renderings(error), KEY_CORE)).toEqual([]);
  });

  // PHP's json_encode escapes `/` as `\/`; cut at 64 KiB the body is no longer JSON, so it is kept as text.
  it('the key JSON-escaped as `\\/` in an error body cut at 64 KiB is redacted', async () => {
    const escaped = KEY.replaceAll('/', '\\/');
    const body = `{"error":"Invalid API key","key":"${escaped}","trace":"${'x'.repeat(80_000)}"}`;
    const service = await server({ kind: 'raw', status: 400, body, headers: { 'content-type': 'application/json' } });
    const error = await failure(client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1'));
    expect(hits(renderings(error), KEY_CORE)).toEqual([]);
  });

  // "keys saved with integrations.save never appear in an error" (README, Errors).
  it('a key saved with integrations.save and listed back in a page that fails validation is not in the error', async () => {
    const saved = 'shpat_SavedThirdPartyKey_77aa99';
    const service = await server((r) =>
      r.method === 'POST'
        ? faults.ok({ id: 1, platform: 'shopify', label: 'Main', api_key: 'shpat_****' }, 201)
        : faults.ok({ data: [{ id: 1, platform: 'shopify', label: 42, api_key: saved }] }),
    );
    const c = client(service.url, { apiPrefix: '/api/v1' });
    expect((await settle(c.integrations.save({ platform: 'shopify', api_key: saved, label: 'Main' }))).ok).toBe(true);
    const error = await failure(c.integrations.list());
    expect(ResponseValidationError.is(error)).toBe(true);
    expect(hits(renderings(error), 'SavedThirdPartyKey')).toEqual([]);
  });

  it('a query that is a string, or holds a lone surrogate', async () => {
    for (const query of ['status=paid', { q: '\uD800' }]) {
      const { error, sent } = await refused((c) => c.request({ method: 'GET', path: '/workflows', query: query as never }));
      expect(ValidationError.is(error), `query ${inspect(query)}: ${String(error)}`).toBe(true);
      expect(sent, `query ${inspect(query)} was sent`).toBe(0);
    }
  });

  it('a raw request method that is not an HTTP token, or one fetch forbids', async () => {
    for (const method of ['GET /admin HTTP/1.1', 'GET\r\nX-Injected: 1', 'TRACE', 'CONNECT', undefined, 42]) {
      const { error, sent } = await refused((c) => c.request({ method: method as never, path: '/workflows' }));
      expect(ValidationError.is(error), `method ${inspect(method)}: ${String(error)}`).toBe(true);
      expect(sent).toBe(0);
    }
  });

  it('a raw request path that is not a string', async () => {
    for (const path of [undefined, null, 42, { toString: () => '/workflows' }]) {
      const { error, sent } = await refused((c) => c.request({ method: 'GET', path: path as never }));
      expect(ValidationError.is(error), `path ${inspect(path)}: ${String(error)}`).toBe(true);
      expect(sent, `path ${inspect(path)} was sent`).toBe(0);
    }
  });

  it('headers given as a Headers instance are refused, not silently dropped', async () => {
    const service = await server();
    const c = client(service.url, { apiPrefix: '/api/v1' });
    const result = await settle(c.workflows.get('wf_1', { headers: new Headers({ 'x-request-source': 'nightly' }) as never }));
    const sentHeader = service.log[0]?.headers['x-request-source'];
    expect(result.ok ? sentHeader : ValidationError.is(result.error) ? 'refused' : String(result.error)).toMatch(/^(nightly|refused)$/);
  });

  // "a server that ignores `page` cannot make it loop" (README, Pagination); "a page whose items are those of
  // any page read before" ends the walk (docs/pagination.md). A server that ignores `page` and has no stable
  // order (SQL without ORDER BY) sends the same items in another order.
  it('a server that ignores `page` and returns the same items in a different order cannot make the walk repeat them', async () => {
    const ids = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'];
    const service = await server((r) => {
      const k = (r.seq - 1) % ids.length;
      return faults.ok([...ids.slice(k), ...ids.slice(0, k)].map((id) => ({ id })));
    });
    const seen: string[] = [];
    for await (const item of client(service.url, { apiPrefix: '/api/v1' }).orders.list({}, { maxPages: 50 })) seen.push(String(item.id));
    expect({ requests: service.log.length, yielded: seen.length }).toEqual({ requests: 2, yielded: 6 });
  });
});

// The third outside attack (#26): each test states the guarantee, the docs that make it, and the break it found.
describe('attack 3: paths, base paths, headers, hooks and what user code is handed', () => {
  // docs/deployments.md: a `.` or `..` segment in apiPrefix or authPath is a ValidationError, encoded or not.
  it('percent-encoded dot segments in apiPrefix and authPath are refused, in any case and mix', async () => {
    const service = await server();
    for (const apiPrefix of ['/%2e%2e/tenant-b', '/%2E%2E/tenant-b', '/.%2e/tenant-b', '/x/%2e%2e/%2e%2e/', '/%2e/x']) {
      const error = await failure(Promise.resolve().then(() => client(`${service.url}/tenant-a`, { apiPrefix }).workflows.get('wf_1')));
      expect(ValidationError.is(error), apiPrefix).toBe(true);
      expect((error as ValidationError).field).toBe('apiPrefix');
    }
    const error = await failure(
      Promise.resolve().then(() =>
        Client.login({ baseUrl: service.url, authPath: '/%2e%2e/collect', email: 'a@b.c', password: 'pw_secret_1' }),
      ),
    );
    expect((error as ValidationError).field).toBe('authPath');
    expect(service.log).toHaveLength(0);
  });

  // docs/reliability.md: the key never goes to the same origin outside the base path.
  it('the base path is matched by whole segments: /gw2 is not under /gw, for request URLs and redirects', async () => {
    const service = await server((r) => (r.path === '/gw/x' ? faults.redirect(307, '/gw2/stolen') : ok));
    const c = client(`${service.url}/gw`, { apiPrefix: '' });
    await settle(c.request({ method: 'GET', path: `${service.url}/gw2/x` }));
    const redirected = await failure(c.request({ method: 'GET', path: '/x' }));
    expect(String((redirected as Error).message)).toMatch(/outside the service's base path/);
    expect(service.log.map((r) => [r.path, r.headers['x-api-key'] !== undefined])).toEqual([
      ['/gw2/x', false],
      ['/gw/x', true],
    ]);
  });

  // docs/configuration.md: a path with a "." or ".." segment is refused; a URL parser drops tab, CR and LF, so
  // `.\t.` would become `..` after the check (the fourth outside attack).
  it('a tab, CR or LF inside a dot segment of a request path is refused before sending, never resolved', async () => {
    const service = await server();
    const c = client(`${service.url}/tenant-a`, { apiPrefix: '/v1' });
    for (const path of ['/.\t./.\t./tenant-b/workflows', '/.\n./admin', '/workflows/.\r./.\r./internal', '/%2e\t%2e/x']) {
      expect(ValidationError.is(await failure(c.request({ method: 'GET', path })))).toBe(true);
    }
    expect(service.log).toEqual([]);
  });

  // docs/configuration.md: Deprecation, Sunset and any Link are quoted in the warning "secrets removed".
  it('a Link header whose key straddles the quoting cut leaves no part of the key in the warning', async () => {
    const { lines, logger } = captureLogger();
    const link = `<https://docs.example/${'p'.repeat(169)}?k=${KEY}>; rel="deprecation"`;
    const service = await server(faults.ok(workflowBody(), 200, { deprecation: 'true', link }));
    await client(service.url, { apiPrefix: '/api/v1', logger, logLevel: 'warn' }).workflows.get('wf_1');
    const warning = lines.find((line) => line.includes('deprecated'));
    expect(warning).toBeDefined();
    expect(warning).not.toContain(KEY.slice(0, 6));
  });

  // docs/hooks.md: a hook can never set X-API-Key.
  it('a header name whose toString changes between reads cannot become X-API-Key', async () => {
    const service = await server();
    let reads = 0;
    const name = { toString: () => (reads++ === 0 ? 'x-harmless' : 'X-API-Key') } as unknown as string;
    const c = client(service.url, { apiPrefix: '/api/v1', hooks: { beforeRequest: ({ headers }) => headers.set(name, 'v') } });
    await settle(c.workflows.get('wf_1'));
    for (const r of service.log) expect(r.headers['x-api-key']).toBe(KEY);
  });

  // docs/hooks.md: a hook that throws or rejects fails the call with "hooks.<name> threw", not retried.
  it('a hook result with a throwing then getter, or a hook that hangs, is the hook failure: run once, never retried', async () => {
    const service = await server();
    let runs = 0;
    const thenThrows = client(service.url, {
      apiPrefix: '/api/v1',
      maxRetries: 2,
      hooks: {
        beforeRequest: () => {
          runs++;
          return {
            // biome-ignore lint/suspicious/noThenProperty: the attack is a thenable whose then getter throws.
            get then() {
              throw new TypeError('boom');
            },
          } as never;
        },
      },
    });
    const thrown = await failure(thenThrows.workflows.get('wf_1'));
    expect(String((thrown as Error).message)).toMatch(/hooks\.beforeRequest threw/);
    expect(runs).toBe(1);
    runs = 0;
    const hangs = client(service.url, {
      apiPrefix: '/api/v1',
      maxRetries: 2,
      timeoutMs: 300,
      hooks: {
        beforeRequest: () => {
          runs++;
          return new Promise<void>(() => undefined);
        },
      },
    });
    const hung = await failure(hangs.workflows.get('wf_1'));
    expect(WfaError.is(hung) && !ConnectionError.is(hung) && !TimeoutError.is(hung), String(hung)).toBe(true);
    expect(String((hung as Error).message)).toMatch(/hooks\.beforeRequest/);
    expect(runs).toBe(1);
    expect(service.log).toHaveLength(0);
  });

  // RequestOptions.headers: "they override the client's headers"; header names are case-insensitive.
  it('per-call headers override client headers given in another case, User-Agent included', async () => {
    const service = await server();
    const c = client(service.url, { apiPrefix: '/api/v1', headers: { 'X-Tenant': 'a', 'User-Agent': 'mine/1' } });
    await c.workflows.get('wf_1', { headers: { 'x-tenant': 'b', 'user-agent': 'percall/3' } });
    expect(service.log[0]!.headers['x-tenant']).toBe('b');
    expect(service.log[0]!.headers['user-agent']).toBe('percall/3');
  });

  // Client headers go only where the key may go; per-call headers go where the call goes.
  it('client-level headers are withheld from another origin; per-call headers are sent there', async () => {
    const other = await server();
    const c = client('http://127.0.0.1:9', { headers: { Authorization: 'Bearer gateway-token' } });
    await c.request({ method: 'GET', path: `${other.url}/x`, headers: { 'x-call': '1' } });
    expect(other.log[0]!.headers.authorization).toBeUndefined();
    expect(other.log[0]!.headers['x-call']).toBe('1');
  });

  // docs/response-details.md: asResponse() leaves the body unread; the caller's signal governs the call.
  it('aborting the caller signal stops reading an asResponse body that trickles, with the abort, not a reset', async () => {
    const service = await server(faults.stallAfterHeaders());
    const controller = new AbortController();
    const response = await client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1', { signal: controller.signal }).asResponse();
    const reading = response.text();
    controller.abort();
    const result = await settle(reading);
    expect(result.ok).toBe(false);
    // As `fetch` rejects a body read: with the signal's reason, here the default `AbortError`.
    expect((result as { error: Error }).error.name).toBe('AbortError');
  });

  it("aborting with a reason rejects an asResponse body's read with that reason", async () => {
    const service = await server(faults.stallAfterHeaders());
    const controller = new AbortController();
    const response = await client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1', { signal: controller.signal }).asResponse();
    const reading = response.text();
    const reason = new Error('user cancelled');
    controller.abort(reason);
    expect(await settle(reading)).toEqual({ ok: false, error: reason });
  });

  // docs/reliability.md: every value handed to user code has the call's secrets removed.
  it('withResponse headers and requestId, and shouldRetry ctx.error, have the key removed', async () => {
    const service = await server(faults.ok(workflowBody(), 200, { 'x-request-id': `req-${KEY}`, 'x-echo': KEY }));
    const { response } = await client(service.url, { apiPrefix: '/api/v1' }).workflows.get('wf_1').withResponse();
    expect(response.requestId).not.toContain(KEY_CORE);
    expect(response.headers.get('x-echo')).not.toContain(KEY_CORE);
    const errors: unknown[] = [];
    const quoting = client(service.url, {
      apiPrefix: '/api/v1',
      maxRetries: 1,
      fetch: async (_url, init) => {
        throw new TypeError(`failed sending ${JSON.stringify(init?.headers)}`);
      },
      retry: {
        shouldRetry: ({ error }) => {
          errors.push(error);
          return false;
        },
      },
    });
    await settle(quoting.workflows.get('wf_1'));
    expect(errors).toHaveLength(1);
    expect(inspect(errors[0])).not.toContain(KEY_CORE);
  });

  // #28: before the prefix is confirmed a 404 is retried under /v1; the error names the URL the caller expects too.
  it('a 404 under both prefixes names both URLs', async () => {
    const service = await server(notFound);
    const error = await failure(client(service.url).workflows.get('wf_1'));
    expect(NotFoundError.is(error)).toBe(true);
    expect(String((error as Error).message)).toContain('/api/v1/workflows/wf_1');
    expect(String((error as Error).message)).toContain('/v1/workflows/wf_1');
  });
});

// A later outside attack on the call core: each test states the guarantee and the docs that make it.
describe('attack on the call core: refused redirects, raw bodies, custom fetch, paths', () => {
  // README: the key is never in an error, "even when the service echoes them back"; a URL parser lower-cases hosts.
  it('a redirect whose Location host echoes the key is refused without quoting the key, in any case', async () => {
    const key = 'wfaLive0123456789ABCdef';
    for (const location of [`http://${key}.example.com/x`, `//${key}.example.com/`]) {
      const service = await server(faults.redirect(302, location));
      const error = await failure(client(service.url, { apiPrefix: '/v1', apiKey: key }).workflows.get('wf_1'));
      expect(String((error as Error).message)).toMatch(/another origin/);
      expect(hits(renderings(error), key), location).toEqual([]);
    }
  });

  // docs/reliability.md: no abort listener is left on a shared signal.
  it('asResponse() leaves no abort listener on a shared signal: body read, body cancelled, an error, no body', async () => {
    const service = await server((r) => (r.path.endsWith('/gone') ? notFound : r.method === 'DELETE' ? faults.noContent() : ok));
    const c = client(service.url, { apiPrefix: '/api/v1' });
    const shared = new AbortController();
    const { signal } = shared;
    for (let i = 0; i < 15; i++) {
      await (await c.workflows.get('wf_1', { signal }).asResponse()).text();
      await (await c.workflows.get('wf_1', { signal }).asResponse()).body?.cancel();
      await settle(c.request({ method: 'GET', path: '/gone', signal }).asResponse());
      await settle(c.request({ method: 'DELETE', path: '/x', signal }).asResponse());
    }
    // A hook that fails after a raw success: the body is never handed out, and is let go.
    const hooked = client(service.url, {
      apiPrefix: '/api/v1',
      hooks: {
        afterResponse: ({ url }) => {
          if (url.endsWith('/after')) throw new Error('afterResponse refused it');
        },
        onSuccess: ({ url }) => {
          if (url.endsWith('/success')) throw new Error('onSuccess refused it');
        },
      },
    });
    for (let i = 0; i < 15; i++) {
      await settle(hooked.request({ method: 'GET', path: '/after', signal }).asResponse());
      await settle(hooked.request({ method: 'GET', path: '/success', signal }).asResponse());
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  // transport.ts: a transport rejects only when no response came, so any rejection is a network failure.
  it('a custom fetch whose network errors are not TypeErrors: a refused call is retried, a reset POST is not', async () => {
    class FetchError extends Error {
      constructor(
        message: string,
        readonly code: string,
      ) {
        super(message);
        this.name = 'FetchError';
      }
    }
    let calls = 0;
    let code = 'ECONNREFUSED';
    const c = client(await closedPortUrl(), {
      apiPrefix: '/v1',
      maxRetries: 2,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      fetch: async (url) => {
        calls++;
        throw new FetchError(`request to ${String(url)} failed, reason: ${code}`, code);
      },
    });
    const attempts = async (send: () => PromiseLike<unknown>) => {
      calls = 0;
      expect(ConnectionError.is(await failure(send()))).toBe(true);
      return calls;
    };
    expect(await attempts(() => c.workflows.get('wf_1'))).toBe(3);
    // Refused: never sent, so a POST is safe to send again.
    expect(await attempts(() => c.request({ method: 'POST', path: '/x', body: {} }))).toBe(3);
    code = 'ECONNRESET';
    expect(await attempts(() => c.workflows.get('wf_1'))).toBe(3);
    expect(await attempts(() => c.request({ method: 'POST', path: '/x', body: {} }))).toBe(1);
  });

  // docs/configuration.md: a relative path holding `#` is refused; the query would go after the fragment, unsent.
  it('a relative path holding # is refused naming path; an absolute URL keeps its query, not its fragment', async () => {
    const service = await server();
    const c = client(service.url, { apiPrefix: '/v1' });
    for (const path of ['/x#frag', '/x?a=1#frag', 'x#']) {
      const error = await failure(c.request({ method: 'GET', path, query: { status: 'paid' } }));
      expect(ValidationError.is(error), path).toBe(true);
      expect((error as ValidationError).field).toBe('path');
    }
    expect(service.log).toEqual([]);
    await c.request({ method: 'GET', path: `${service.url}/v1/x#frag`, query: { status: 'paid' } });
    expect(service.log.map((r) => r.rawUrl)).toEqual(['/v1/x?status=paid']);
  });

  // docs/configuration.md: a dot segment is refused; nginx, IIS and gateways decode %2F and %5C before normalising.
  it('..%2f and ..%5c (any case) in a path or a same-origin redirect never take the key out of the base path', async () => {
    const service = await server((r) => (r.path === '/gw/start' ? faults.redirect(302, '/gw/..%2f..%2fother-tenant/secret') : ok));
    const c = client(`${service.url}/gw`, { apiPrefix: '' });
    for (const path of [
      '/..%2fother',
      '/..%2F..%2Fother',
      '/%2e%2e%2fother',
      '/.%2e%5cother',
      '/..%5Cother',
      '/x/.%2F',
      `${service.url}/gw/..%2fx`,
    ]) {
      expect(ValidationError.is(await failure(c.request({ method: 'GET', path }))), path).toBe(true);
    }
    const redirected = await failure(c.request({ method: 'GET', path: '/start' }));
    expect(String((redirected as Error).message)).toMatch(/outside the service's base path/);
    expect(service.log.map((r) => r.rawUrl)).toEqual(['/gw/start']);
  });
});

// The fifth outside attack: a download stream's signal aborted between reads, the stream never read again.
describe('attack 5: a download whose signal aborts while its stream is not being read', () => {
  /** Whether `promise` settles within `ms`. */
  async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([promise.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A host whose artifacts are: `/stall` 3 of 100 bytes then nothing, `/whole` 3 of 3, `/short` 2 of 10 then closed, `/error` 500. */
  async function host(): Promise<{ url: string; closed: Promise<void>[] }> {
    const closed: Promise<void>[] = [];
    const service = await server(
      custom((req, res) => {
        closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
        if (req.url === '/error') return void res.writeHead(500).end();
        res.writeHead(200, { 'content-length': req.url === '/whole' ? '3' : req.url === '/short' ? '10' : '100' });
        if (req.url === '/short') return void res.end('ab');
        if (req.url === '/whole') return void res.end('abc');
        res.write('abc');
      }),
    );
    return { url: service.url, closed };
  }
  const artifact = (url: string) => ({ status: 'completed', download_url: url });
  /** What failed reading the whole stream (a read that succeeds fails the test). */
  const readFailure = (stream: Promise<ReadableStream<Uint8Array>>) => failure(stream.then((s) => new Response(s).arrayBuffer()));

  // docs/waiting-for-builds.md: the signal aborts the download; as with a call's raw body, the connection goes at the abort.
  it('drops the connection at the abort, with no further read; a later read rejects with AbortError', async () => {
    const { url, closed } = await host();
    const controller = new AbortController();
    const stream = await client(url).builds.download(artifact(`${url}/stall`), { signal: controller.signal });
    const reader = stream.getReader();
    expect((await reader.read()).value).toHaveLength(3);
    controller.abort();
    expect(await within(closed[0]!, 1_000)).toBe(true);
    expect(AbortError.is(await failure(reader.read()))).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  // docs/reliability.md: no abort listener is left on a shared signal once what it guarded has ended.
  it('leaves no abort listener on a shared signal once a transfer ends: read, cancelled, failed, refused, to a file', async () => {
    const { url } = await host();
    const c = client(url, { timeoutMs: 300 });
    const { signal } = new AbortController();
    const dir = await mkdtemp(join(tmpdir(), 'wfa-attack5-'));
    try {
      for (let i = 0; i < 5; i++) {
        await new Response(await c.builds.download(artifact(`${url}/whole`), { signal })).arrayBuffer();
        const reader = (await c.builds.download(artifact(`${url}/stall`), { signal })).getReader();
        await reader.read();
        await reader.cancel();
        expect(ConnectionError.is(await readFailure(c.builds.download(artifact(`${url}/short`), { signal })))).toBe(true);
        expect(TimeoutError.is(await readFailure(c.builds.download(artifact(`${url}/stall`), { signal })))).toBe(true);
        expect(await failure(c.builds.download(artifact(`${url}/error`), { signal }))).toHaveProperty('status', 500);
        await c.builds.downloadToFile(artifact(`${url}/whole`), join(dir, 'a.bin'), { signal });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('attack 5: a raw response the call never hands out is let go', () => {
  /** A 200 whose body stalls after a few bytes: its connection closes only when the client lets the body go. */
  async function stallingService(): Promise<{ url: string; opened: () => number; closed: () => number }> {
    const sockets = new Set<unknown>();
    let closed = 0;
    const service = await server(
      custom((req, res) => {
        if (!sockets.has(req.socket)) {
          sockets.add(req.socket);
          req.socket.once('close', () => closed++);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":');
      }),
    );
    return { url: service.url, opened: () => sockets.size, closed: () => closed };
  }

  // docs/response-details.md: a long-lived signal keeps no listener once what it guarded has ended; a raw body
  // that is never handed out lets its connection go. Here the attempt's timeoutMs ends while afterResponse runs.
  it('asResponse() with an afterResponse hook that outlasts timeoutMs (slow or hung): no listener left, connection closed', async () => {
    // A cold `fetch` may take longer than timeoutMs for its first headers: a first call to another server warms it.
    await client((await server()).url, { apiPrefix: '/v1' }).workflows.get('wf_1');
    const service = await stallingService();
    const shared = new AbortController();
    const { signal } = shared;
    // The slow hook ends well after timeoutMs.
    const slowHookMs = 700;
    for (const afterResponse of [() => new Promise<void>((r) => setTimeout(r, slowHookMs)), () => new Promise<void>(() => undefined)]) {
      const c = client(service.url, { apiPrefix: '/v1', timeoutMs: 300, hooks: { afterResponse } });
      for (const send of [
        () => c.workflows.get('wf_1', { signal }).asResponse(),
        () => c.request({ method: 'GET', path: '/x', signal }).asResponse(),
      ]) {
        const error = await failure(send());
        expect(WfaError.is(error)).toBe(true);
        expect(String((error as Error).message)).toMatch(/hooks\.afterResponse did not settle/);
      }
    }
    // Past the slow hook's end too: its late result is thrown away as well.
    await new Promise((r) => setTimeout(r, slowHookMs + 100));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(service.opened()).toBe(4);
    await until(() => service.closed() === 4, 'the server to see every connection closed');
  });

  // The same, when the attempt's result comes late from the transport itself: a custom fetch that ignores its
  // signal answers after timeoutMs, and nothing will read what it answered.
  it('a custom fetch that ignores its signal and answers after timeoutMs: no listener left, connection closed', async () => {
    const service = await stallingService();
    const shared = new AbortController();
    const { signal } = shared;
    const lateMs = 500;
    const c = client(service.url, {
      apiPrefix: '/v1',
      timeoutMs: 200,
      fetch: async (url, init) => {
        const response = await fetch(url, { ...init, signal: null });
        await new Promise((r) => setTimeout(r, lateMs));
        return response;
      },
    });
    for (const send of [() => c.workflows.get('wf_1', { signal }).asResponse(), () => c.workflows.get('wf_1', { signal })]) {
      expect(TimeoutError.is(await failure(send()))).toBe(true);
    }
    await new Promise((r) => setTimeout(r, lateMs + 100));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(service.opened()).toBe(2);
    await until(() => service.closed() === 2, 'the server to see every connection closed');
  });
});
