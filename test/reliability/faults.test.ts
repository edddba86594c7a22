/**
 * Faults: for every method class (GET, PUT, DELETE, POST) and every way a server or a network misbehaves, the
 * call ends in success or the documented typed error, within the time the retry rules allow, and the server's
 * log shows exactly the attempts those rules allow (README, "Retries"):
 *
 * | | retried on |
 * |---|---|
 * | GET, PUT, DELETE | connection errors, timeouts, 408, 429, 5xx |
 * | POST | 429, or a connection that failed before the request was sent |
 *
 * A `Retry-After` (seconds, an HTTP date, or `retry-after-ms`) is honoured up to one minute; a longer one fails
 * the call at once with `retryAfterMs`. No retry starts past the call's deadline,
 * `(timeoutMs + 8 s) × (maxRetries + 1)`.
 *
 * Every case runs against its own fault server (a real socket on 127.0.0.1), with a logger at `debug`; every
 * error and log line is also searched for the API key.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  type ApiError,
  Client,
  type InternalServerError,
  type RateLimitError,
  WfaError,
  type RequestOptions,
  type WorkflowCreateParams,
} from '../../src/index.js';
import { closedPortUrl, faults, startFaultServer, workflowBody, type FaultServer } from './fault-server.js';
import { activeHandles, capturingLogger, count, openHandlesSince, recordOpenHandles, renderings, secretHits } from './summary.js';

let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('faults.test.ts', await openHandlesSince(baseline));
});

const API_KEY = 'wfa_live_faults_7Hq2xZ9pLkQ';
/** Time allowed for each attempt where the fault is a stall: short, so that stalls cost little. */
const STALL_TIMEOUT_MS = 300;
/**
 * Time allowed for each attempt everywhere else: long, so that a slow machine never turns an answered attempt
 * into a timeout (which would be retried, or not, by other rules).
 */
const TIMEOUT_MS = 5_000;
const MAX_RETRIES = 2;
const ATTEMPTS = MAX_RETRIES + 1;
/** The README's bound on a whole call: `(timeoutMs + 8 s) × (maxRetries + 1)`. */
const documentedDeadline = (timeoutMs: number) => (timeoutMs + 8_000) * ATTEMPTS;
/** Longest backoff before retry n (1-based): 0.5 s, 1 s, 2 s … (jitter only shortens it). */
const backoff = (n: number) => Math.min(500 * 2 ** (n - 1), 8_000);
/** Scheduling slack on a loaded 2-core machine. */
const SLACK_MS = 2_500;
/** Time one answered attempt may take on loopback. */
const ATTEMPT_MS = 100;

const INPUT: WorkflowCreateParams = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

type Method = 'GET' | 'PUT' | 'DELETE' | 'POST';
const METHODS: Method[] = ['GET', 'PUT', 'DELETE', 'POST'];
const IDEMPOTENT = (m: Method) => m !== 'POST';

/** One SDK call per method class. */
const CALLS: Record<Method, (client: Client, options: RequestOptions) => Promise<unknown>> = {
  GET: (c, o) => c.workflows.get('wf_1', o),
  PUT: (c, o) => c.workflows.update('wf_1', { name: 'Renamed' }, o),
  DELETE: (c, o) => c.workflows.delete('wf_1', o),
  POST: (c, o) => c.workflows.create(INPUT, o),
};

interface Expected {
  /** `'ok'`, or the SDK error class the call rejects with. */
  outcome: string;
  /** Requests the server receives (for a refused connection: `fetch` calls). A list: any of these. */
  attempts: number | number[];
}

interface Outcome {
  settled: { ok: true; value: unknown } | { ok: false; error: unknown } | 'hang';
  elapsed: number;
  attempts: number;
  /** Attempts whose status line and headers reached the client (`fetch` resolved). */
  headersReceived: number;
  /** Occurrences of the API key in the error's renderings, the debug log and the other origin's requests. */
  secretsFound: number;
  log: FaultServer['log'];
}

interface FaultCase {
  name: string;
  /** No server: the port is closed and the connection refused. */
  refused?: boolean;
  /** Sets the fault server's behaviour; `other` is a second server on another origin. */
  setup?: (server: FaultServer, other: FaultServer) => void;
  expected: (method: Method) => Expected;
  /** The longest the call may take under the rules: its attempts, its waits, slack. */
  bound: (method: Method) => number;
  /** More checks on the outcome (the error's fields, the gaps between attempts). */
  check?: (outcome: Outcome, method: Method, expect: ExpectFn) => void;
  /** Redirect hops are not retries: the answering server did not act. */
  redirects?: boolean;
  /** The client's `timeoutMs` (default TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * `false`: a 429 storm meets the call's own retry rules, with the rate gate off. With the gate (the default) a
   * 429 is retried through it until the call's deadline: rate-gate.test.ts.
   */
  rateLimit?: false;
  /**
   * The fault happens after the status line and headers: the case only means something if `fetch` resolved
   * (the headers arrived) on every attempt, so that is checked too.
   */
  afterHeaders?: boolean;
}

type ExpectFn = typeof import('vitest').expect;

/** Time for `attempts` answered attempts and the longest backoffs between them. */
function schedule(attempts: number, attemptMs = ATTEMPT_MS, waits: number[] = []): number {
  let total = attempts * attemptMs + SLACK_MS;
  for (let n = 1; n < attempts; n++) total += waits[n - 1] ?? backoff(n);
  return total;
}

const retriedIfIdempotent =
  (outcome: string) =>
  (m: Method): Expected => ({ outcome, attempts: IDEMPOTENT(m) ? ATTEMPTS : 1 });
const boundIfIdempotent =
  (attemptMs = ATTEMPT_MS) =>
  (m: Method) =>
    schedule(IDEMPOTENT(m) ? ATTEMPTS : 1, attemptMs);
const always = (outcome: string, attempts: number | number[]) => (): Expected => ({ outcome, attempts });

/** Gaps between consecutive attempts, in ms, from the server's log. */
const gaps = (log: Outcome['log']) => log.slice(1).map((r, i) => r.at - log[i]!.at);

const errorOf = (o: Outcome) => (o.settled !== 'hang' && !o.settled.ok ? o.settled.error : undefined);

const CASES: FaultCase[] = [
  {
    name: 'connection refused (closed port)',
    refused: true,
    // Never connected, so even a POST is safe to send again.
    expected: always('ConnectionError', ATTEMPTS),
    bound: () => schedule(ATTEMPTS),
    check: (o, _m, expect) => expect((errorOf(o) as Error).message).toMatch(/ECONNREFUSED/),
  },
  {
    name: 'connection reset before the response',
    setup: (s) => s.otherwise(faults.reset()),
    expected: retriedIfIdempotent('ConnectionError'),
    bound: boundIfIdempotent(),
  },
  {
    name: 'connection reset mid-response (headers and part of the body sent)',
    afterHeaders: true,
    setup: (s) => s.otherwise(faults.resetMidResponse()),
    expected: retriedIfIdempotent('ConnectionError'),
    bound: boundIfIdempotent(),
  },
  {
    name: 'response stalls after the headers',
    // Long enough for the headers to arrive on a loaded machine, so the stall really is after them.
    timeoutMs: 1_000,
    afterHeaders: true,
    setup: (s) => s.otherwise(faults.stallAfterHeaders()),
    expected: retriedIfIdempotent('TimeoutError'),
    bound: boundIfIdempotent(1_000 + ATTEMPT_MS),
  },
  {
    name: 'no response at all',
    timeoutMs: STALL_TIMEOUT_MS,
    setup: (s) => s.otherwise(faults.stall()),
    expected: retriedIfIdempotent('TimeoutError'),
    bound: boundIfIdempotent(STALL_TIMEOUT_MS + ATTEMPT_MS),
  },
  {
    name: 'truncated JSON in a 200',
    setup: (s) => s.otherwise(faults.truncatedJson()),
    // A complete answer that is not JSON: trying again would get the same, and a POST may have acted.
    expected: always('ResponseValidationError', 1),
    bound: () => schedule(1),
  },
  {
    name: 'an HTML 502 page',
    setup: (s) => s.otherwise(faults.htmlBadGateway()),
    expected: retriedIfIdempotent('InternalServerError'),
    bound: boundIfIdempotent(),
    check: (o, _m, expect) => {
      const error = errorOf(o) as InternalServerError;
      expect(error.status).toBe(502);
      expect(error.message).toContain('502 Bad Gateway');
      expect(error.message).not.toContain('<');
    },
  },
  {
    name: 'an empty 500',
    setup: (s) => s.otherwise(faults.emptyServerError()),
    expected: retriedIfIdempotent('InternalServerError'),
    bound: boundIfIdempotent(),
    check: (o, _m, expect) => expect((errorOf(o) as Error).message).toMatch(/empty body/),
  },
  {
    name: 'a 200 with a non-JSON body',
    setup: (s) => s.otherwise(faults.notJson()),
    expected: always('ResponseValidationError', 1),
    bound: () => schedule(1),
  },
  {
    name: 'a 408',
    setup: (s) => s.otherwise(faults.status(408)),
    expected: retriedIfIdempotent('ApiError'),
    bound: boundIfIdempotent(),
    check: (o, _m, expect) => expect((errorOf(o) as ApiError).status).toBe(408),
  },
  {
    name: '429 storm without Retry-After',
    rateLimit: false,
    setup: (s) => s.otherwise(faults.rateLimited()),
    expected: always('RateLimitError', ATTEMPTS),
    bound: () => schedule(ATTEMPTS),
    check: (o, _m, expect) => expect((errorOf(o) as RateLimitError).retryAfterMs).toBeUndefined(),
  },
  {
    name: '429 storm with Retry-After: 1 (seconds)',
    rateLimit: false,
    setup: (s) => s.otherwise(faults.rateLimited({ 'retry-after': '1' })),
    expected: always('RateLimitError', ATTEMPTS),
    bound: () => schedule(ATTEMPTS, ATTEMPT_MS, [1_000, 1_000]),
    check: (o, _m, expect) => {
      expect((errorOf(o) as RateLimitError).retryAfterMs).toBe(1_000);
      for (const gap of gaps(o.log)) expect(gap).toBeGreaterThanOrEqual(980);
    },
  },
  {
    name: '429 storm with Retry-After as an HTTP date 2 s ahead',
    rateLimit: false,
    setup: (s) => s.otherwise(() => faults.rateLimited({ 'retry-after': new Date(Date.now() + 2_000).toUTCString() })),
    expected: always('RateLimitError', ATTEMPTS),
    bound: () => schedule(ATTEMPTS, ATTEMPT_MS, [2_000, 2_000]),
    check: (o, _m, expect) => {
      // The date has whole seconds: the wait it asks for is between 1 and 2 s.
      for (const gap of gaps(o.log)) expect(gap).toBeGreaterThanOrEqual(900);
    },
  },
  {
    name: '429 with Retry-After: 86400 (a day, past the one-minute cap): fails at once',
    setup: (s) => s.otherwise(faults.rateLimited({ 'retry-after': '86400' })),
    expected: always('RateLimitError', 1),
    bound: () => schedule(1),
    check: (o, _m, expect) => expect((errorOf(o) as RateLimitError).retryAfterMs).toBe(86_400_000),
  },
  {
    name: '429 with Retry-After: 61 (just past the cap): fails at once',
    setup: (s) => s.otherwise(faults.rateLimited({ 'retry-after': '61' })),
    expected: always('RateLimitError', 1),
    bound: () => schedule(1),
    check: (o, _m, expect) => expect((errorOf(o) as RateLimitError).retryAfterMs).toBe(61_000),
  },
  {
    name: '429 with Retry-After: an HTTP date in the year 9999: fails at once',
    setup: (s) => s.otherwise(faults.rateLimited({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' })),
    expected: always('RateLimitError', 1),
    bound: () => schedule(1),
    check: (o, _m, expect) => expect((errorOf(o) as RateLimitError).retryAfterMs).toBeGreaterThan(60_000),
  },
  {
    name: '429 with Retry-After: 0 once, then success',
    setup: (s) => s.plan(faults.rateLimited({ 'retry-after': '0' })),
    expected: always('ok', 2),
    bound: () => schedule(2, ATTEMPT_MS, [0]),
  },
  {
    // 3 s: far above the 0.5 s backoff it would get if the header were ignored, even on a slow machine.
    name: '429 with retry-after-ms: 3000 once, then success (the wait is honoured)',
    setup: (s) => s.plan(faults.rateLimited({ 'retry-after-ms': '3000' })),
    expected: always('ok', 2),
    bound: () => schedule(2, ATTEMPT_MS, [3_000]),
    check: (o, _m, expect) => expect(gaps(o.log)[0]).toBeGreaterThanOrEqual(2_980),
  },
  // Values that are neither seconds nor an HTTP date, and a rate-limit header the README does not list: each
  // asks (as ky reads it) for a wait longer than the call's deadline, so no retry may start after it; the call
  // ends within the backoff schedule, at once or after the ordinary retries.
  ...['soon', 'Infinity', '1e3'].map(
    (value): FaultCase => ({
      name: `429 storm with an unreadable Retry-After: ${value}`,
      rateLimit: false,
      setup: (s) => s.otherwise(faults.rateLimited({ 'retry-after': value })),
      expected: always('RateLimitError', [1, ATTEMPTS]),
      bound: () => schedule(ATTEMPTS),
    }),
  ),
  {
    name: '429 storm with RateLimit-Reset: 50 (past the call deadline) and no Retry-After',
    rateLimit: false,
    setup: (s) => s.otherwise(faults.rateLimited({ 'ratelimit-reset': '50' })),
    expected: always('RateLimitError', [1, ATTEMPTS]),
    bound: () => schedule(ATTEMPTS),
  },
  {
    name: 'a 503 once, then success',
    setup: (s) => s.plan(faults.status(503)),
    expected: (m) => (IDEMPOTENT(m) ? { outcome: 'ok', attempts: 2 } : { outcome: 'InternalServerError', attempts: 1 }),
    bound: () => schedule(2),
  },
  {
    name: 'a reset once, then success',
    setup: (s) => s.plan(faults.reset()),
    expected: (m) => (IDEMPOTENT(m) ? { outcome: 'ok', attempts: 2 } : { outcome: 'ConnectionError', attempts: 1 }),
    bound: () => schedule(2),
  },
  {
    name: 'a redirect to another origin',
    redirects: true,
    setup: (s, other) => s.otherwise((r) => faults.redirect(302, `${other.url}${r.rawUrl}`)),
    expected: always('ApiError', 1),
    bound: () => schedule(1),
    check: (o, _m, expect) => {
      expect((errorOf(o) as ApiError).status).toBe(302);
      expect((errorOf(o) as Error).message).toMatch(/another origin/);
    },
  },
  {
    name: 'a redirect loop on the same origin',
    redirects: true,
    setup: (s) => s.otherwise((r) => faults.redirect(307, r.path.endsWith('/a') ? r.path.replace(/\/a$/, '') : `${r.path}/a`)),
    // Bounded by the redirect limit: the first request and at most 5 hops.
    expected: always('ApiError', [2, 3, 4, 5, 6]),
    bound: () => schedule(6),
  },
];

async function run(c: FaultCase, method: Method): Promise<Outcome & { bound: number }> {
  const server = c.refused ? undefined : await startFaultServer();
  const other = await startFaultServer();
  if (server) c.setup?.(server, other);
  const baseUrl = server?.url ?? (await closedPortUrl());
  const { lines, logger } = capturingLogger();
  let fetchCalls = 0;
  let headersReceived = 0;
  const client = new Client({
    baseUrl,
    apiKey: API_KEY,
    apiPrefix: '/v1',
    timeoutMs: c.timeoutMs ?? TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
    rateLimit: c.rateLimit,
    logger,
    logLevel: 'debug',
    fetch: async (input, init) => {
      fetchCalls++;
      const response = await fetch(input, init);
      headersReceived++;
      return response;
    },
  });
  const bound = c.bound(method);
  // The guard: a call that has not settled by its bound is a hang. The signal then frees what it holds.
  const controller = new AbortController();
  const started = performance.now();
  const call = CALLS[method](client, { signal: controller.signal }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), bound);
  });
  const settled = await Promise.race([call, guard]);
  clearTimeout(timer);
  const elapsed = performance.now() - started;
  if (settled === 'hang') controller.abort(new Error('reliability guard: the call did not settle in time'));
  await server?.close();
  await other.close();
  await call;

  const log = server?.log ?? [];
  const attempts = server ? log.length : fetchCalls;
  count('requests', log.length + other.log.length);
  // The API key must not reach the other origin, nor appear in any error rendering or log line.
  const texts = [...(settled !== 'hang' && !settled.ok ? renderings(settled.error) : []), ...lines];
  const hits = secretHits(texts, [API_KEY]);
  count('secretSearches', texts.length);
  count('secretsFound', hits);
  const leaked = other.log.filter((r) => JSON.stringify(r.headers).includes(API_KEY)).length;
  count('keysSentElsewhere', leaked);
  return { settled, elapsed, attempts, headersReceived, secretsFound: hits + leaked, log, bound };
}

function outcomeName(settled: Outcome['settled'], bound: number): string {
  if (settled === 'hang') return `no outcome within ${bound} ms`;
  if (settled.ok) return 'ok';
  const error = settled.error;
  if (WfaError.is(error)) return error.name;
  const e = error as { constructor?: { name?: string }; name?: string; message?: string } | null;
  return `not an SDK error: ${e?.constructor?.name ?? typeof error} ${e?.name ?? ''}: ${e?.message ?? String(error)}`;
}

describe.concurrent('every method class against every fault', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      it.for(METHODS)('%s', async (method, { expect }) => {
        const expected = c.expected(method);
        const result = await run(c, method);
        const outcome = outcomeName(result.settled, result.bound);
        const attemptsOk = Array.isArray(expected.attempts)
          ? expected.attempts.includes(result.attempts)
          : expected.attempts === result.attempts;
        const withinBound = result.elapsed <= result.bound;
        // The case's own checks (the error's fields, the waits), run first so that the figures count them.
        let checkFailure: unknown;
        try {
          c.check?.(result, method, expect);
        } catch (error) {
          checkFailure = error;
        }
        count('faultsInjected');
        if (outcome === expected.outcome && attemptsOk && withinBound && checkFailure === undefined) count('faultsSurvived');
        // A POST that reached the service more often than the rules allow is a duplicate.
        if (method === 'POST' && !c.redirects) {
          const allowed = Array.isArray(expected.attempts) ? Math.max(...expected.attempts) : expected.attempts;
          count('duplicates', Math.max(0, result.attempts - allowed));
        }

        expect({ outcome, attempts: result.attempts }).toEqual({
          outcome: expected.outcome,
          attempts: Array.isArray(expected.attempts) ? expect.toBeOneOf(expected.attempts) : expected.attempts,
        });
        expect(result.elapsed, `ended within ${result.bound} ms`).toBeLessThanOrEqual(result.bound);
        expect(result.elapsed).toBeLessThanOrEqual(documentedDeadline(c.timeoutMs ?? TIMEOUT_MS));
        if (checkFailure !== undefined) throw checkFailure;
        expect(result.secretsFound, 'the API key in an error, a log line or at another origin').toBe(0);
        if (c.afterHeaders) expect(result.headersReceived, 'the headers reached the client on every attempt').toBe(result.attempts);
        if (expected.outcome === 'ok' && method !== 'DELETE') {
          expect((result.settled as { value: { id: string } }).value.id).toBe('wf_1');
        }
      });
    });
  }
});

describe('a server that ignores `page` cannot make a list loop', () => {
  const two = [workflowBody('wf_1'), workflowBody('wf_2')];
  const envelopes: [string, unknown][] = [
    ['`has_more: true` on every page', { data: two, has_more: true }],
    ['a bare array', two],
    ['`total_pages: 50` but always `page: 1`', { data: two, page: 1, total_pages: 50 }],
    ['`next_page: 2` on every page', { data: two, next_page: 2 }],
    ['the items under `meta`-less `results`, with `total: 1000`', { results: two, total: 1000, limit: 2 }],
  ];

  it.for(envelopes)('%s: two requests, each item once', async ([, body], { expect }) => {
    const server = await startFaultServer({ otherwise: faults.ok(body) });
    try {
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
      const started = performance.now();
      const ids: string[] = [];
      for await (const wf of client.workflows.list({ limit: 2 })) ids.push(wf.id);
      count('faultsInjected');
      const ok = ids.length === 2 && server.log.length === 2;
      if (ok) count('faultsSurvived');
      count('requests', server.log.length);
      expect(ids).toEqual(['wf_1', 'wf_2']);
      expect(server.log.map((r) => r.query.get('page'))).toEqual([null, '2']);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });

  it('items without ids (compared by content): the walk still stops', async ({ expect }) => {
    const server = await startFaultServer({
      otherwise: faults.ok({ data: [{ platform: 'shopify' }, { platform: 'zapier' }], has_more: true }),
    });
    try {
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
      const seen: unknown[] = [];
      for await (const integration of client.integrations.list()) seen.push(integration);
      count('faultsInjected');
      if (seen.length === 2 && server.log.length === 2) count('faultsSurvived');
      count('requests', server.log.length);
      expect(seen).toHaveLength(2);
      expect(server.log).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

describe('waitForBuild rides out every transient fault', () => {
  it('a 502 page, a reset, a 429, a stalled poll and an empty 500, then completion: resolves, one request per poll', async ({ expect }) => {
    const server = await startFaultServer();
    server
      .plan(
        faults.htmlBadGateway(),
        faults.reset(),
        faults.rateLimited({ 'retry-after': '0' }),
        faults.stall(),
        faults.emptyServerError(),
        faults.ok({ id: 'bld_1', status: 'building', progress: 50 }),
      )
      .otherwise(faults.ok({ id: 'bld_1', status: 'completed', progress: 100, download_url: 'https://files.example.com/bld_1.zip' }));
    try {
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' });
      const started = performance.now();
      const build = await client.waitForBuild('bld_1', { intervalMs: 10, requestTimeoutMs: 200, timeoutMs: 10_000 });
      count('faultsInjected', 5);
      count('faultsSurvived', 5);
      count('requests', server.log.length);
      expect(build.download_url).toBe('https://files.example.com/bld_1.zip');
      expect(server.log).toHaveLength(7);
      expect(server.log.every((r) => r.method === 'GET' && r.path === '/v1/builds/bld_1')).toBe(true);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });
});
