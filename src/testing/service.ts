/**
 * The mock service: every endpoint of the spec behind one Fetch-style `handle(request)`. It uses only what
 * browsers also have (no `Buffer`, no `process`), so the same code runs inside msw in a browser and behind
 * the Node HTTP server.
 */

import { createArtifacts, type Artifacts } from './artifacts.js';
import { checkOptions } from './options.js';
import { preflight, withCors } from './cors.js';
import type { ServiceState } from './endpoints.js';
import { createFaults, MockNetworkError, type Faults } from './faults.js';
import { createRandom, randomSeed, requestId, type Random } from './random.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';
import { codeForStatus, errorResponse, HttpError } from './responses.js';
import { AUTH_PATH, route } from './routes.js';
import { createStore, type Store } from './store.js';
import type { MockRequestCounts, MockService, MockServiceOptions, MockUser, MockWorkflow } from './types.js';
import { createBuildNotifier } from './build-notifier.js';

/**
 * The user every mock knows, whatever its options: log in with it through `POST /v1/auth`.
 *
 * @example
 * ```ts
 * await fetch(`${url}/v1/auth`, { method: 'POST', body: JSON.stringify(DEFAULT_MOCK_USER) });
 * ```
 */
export const DEFAULT_MOCK_USER: Readonly<{
  /** `demo@example.com`, as in the spec's examples. */
  email: string;
  /** `demo`. */
  password: string;
}> = Object.freeze({
  email: 'demo@example.com',
  password: 'demo',
});

const DEFAULT_PREFIXES = ['/api/v1', '/v1'] as const;

// Everything `reset()` starts afresh. Random streams are separate so that, for one seed, the error rate's
// draws do not depend on how many ids were made, and vice versa.
interface Run {
  ids: Random;
  requestIds: Random;
  faults: Faults;
  limiter: RateLimiter | undefined;
  /** Draws of build durations and failures. */
  builds: Random;
  /** Per key the store knows, and under '' for all requests. */
  counts: Map<string, MockRequestCounts>;
  store: Store;
  failBuildsLeft: number;
  webhookUrl: string | undefined;
  artifacts: Artifacts;
}

// `''` and `'/'` are the root, served as `''`.
function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

// The default user comes first, so its key is `service.apiKey`; a configured user with its email replaces it.
function allUsers(configured: readonly MockUser[]): MockUser[] {
  const replacement = configured.find((user) => user.email === DEFAULT_MOCK_USER.email);
  return [replacement ?? { ...DEFAULT_MOCK_USER }, ...configured.filter((user) => user !== replacement)];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates an in-memory mock of the whole service. Instances share nothing: each has its own users' keys,
 * records, clock, faults and timer.
 *
 * Statuses: 200 reads and updates, 201 creations, 204 deletions, 400 malformed JSON or query, 401 missing or
 * wrong key (or credentials), 404 unknown path or record, 405 wrong method, 422 invalid body, and the faults
 * the knobs inject. Every error body is `{ error: { message, code } }` (422 adds `issues`), every JSON
 * response has `content-type: application/json`, and every response has `x-request-id`.
 *
 * @example
 * ```ts
 * const service = createMockService({ buildDurationMs: 1000 });
 * const res = await service.handle(new Request('http://mock.test/v1/workflows', { headers: { 'X-API-Key': service.apiKey } }));
 * await res.json(); // { data: [], page: 1, limit: 20, total: 0, has_more: false }
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  checkOptions(options);
  const seed = options.seed ?? randomSeed();
  const now = options.now ?? (() => Date.now());
  const prefixes = (options.prefixes ?? DEFAULT_PREFIXES).map(normalisePrefix);
  const authPath = normalisePrefix(options.authPath ?? AUTH_PATH) || AUTH_PATH;
  const users = allUsers(options.users ?? []);

  // Keys valid from the start are made once, so they survive `reset()`.
  const setup = createRandom(seed ^ 0x9e3779b9);
  const initialKeys = new Map<string, string>();
  for (const user of users) initialKeys.set(user.apiKey ?? setup.id('wfa_test_', 32), user.email);
  const [apiKey = ''] = initialKeys.keys();
  const seededAt = now();

  const { rateLimit } = options;
  const bucket = rateLimit && 'requestsPerSecond' in rateLimit ? rateLimit : undefined;
  const everyNth = rateLimit && 'every' in rateLimit ? rateLimit : undefined;
  const freshRun = (): Run => {
    const ids = createRandom(seed);
    return {
      ids,
      requestIds: createRandom(seed + 1),
      faults: createFaults({ errorRate: options.errorRate, rateLimit: everyNth, random: createRandom(seed + 2) }),
      limiter: bucket && createRateLimiter(bucket, { now, headers: options.rateLimitHeaders ?? false }),
      builds: createRandom(seed + 3),
      counts: new Map(),
      store: createStore({ users, keys: initialKeys, ordersPerUser: options.ordersPerUser ?? 5, random: ids, seededAt }),
      failBuildsLeft: 0,
      webhookUrl: options.webhookUrl,
      artifacts: createArtifacts(options.artifacts),
    };
  };
  let run = freshRun();

  const notifier = createBuildNotifier({
    now,
    store: () => run.store,
    webhookUrl: () => run.webhookUrl,
    fetch: () => options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    downloadUrl: (build, at) => run.artifacts.url(build, at),
    retryDelaysMs: options.webhookRetryDelaysMs ?? [1000, 2000, 4000, 8000],
    onDelivery: (delivery) => options.onWebhookDelivery?.(delivery),
  });

  function issueKey(email: string = DEFAULT_MOCK_USER.email): string {
    if (!run.store.passwords.has(email)) throw new Error(`issueKey: the mock has no user ${email}`);
    const key = run.ids.id('wfa_test_', 32);
    run.store.keys.set(key, email);
    return key;
  }

  function shouldFailBuild(workflow: MockWorkflow): boolean {
    if (run.failBuildsLeft > 0) {
      run.failBuildsLeft -= 1;
      return true;
    }
    const { failBuilds = false } = options;
    if (typeof failBuilds === 'number') return run.builds.next() < failBuilds;
    return typeof failBuilds === 'function' ? failBuilds(workflow) : failBuilds;
  }

  const state = (): ServiceState => ({
    store: run.store,
    now,
    ids: run.ids,
    listEnvelope: options.listEnvelope ?? 'data',
    buildDurationMs: () => {
      const { buildDurationMs = 3000 } = options;
      if (typeof buildDurationMs === 'number') return buildDurationMs;
      return Math.round(buildDurationMs.min + run.builds.next() * (buildDurationMs.max - buildDurationMs.min));
    },
    downloadBaseUrl: options.downloadBaseUrl,
    artifacts: run.artifacts,
    shouldFailBuild,
    buildStarted: () => notifier.schedule(),
    issueKey,
  });

  async function respond(request: Request): Promise<Response> {
    if (request.method === 'OPTIONS') return preflight(request);
    // A due build is settled before any response, so its webhook goes out even when the clock is injected.
    notifier.sweep();
    // Limited on arrival, as a service's front door would; the latency is then the same for every answer.
    const key = request.headers.get('x-api-key');
    const limit = key !== null && run.store.keys.has(key) ? run.limiter?.take(key) : undefined;
    if (options.latencyMs) await sleep(options.latencyMs, request.signal);
    if (limit && !limit.allowed) {
      const headers = { ...limit.headers, 'retry-after': String(limit.retryAfterSeconds) };
      return errorResponse(new HttpError(429, 'Too many requests: this key is over its rate limit', 'rate_limited', { headers }));
    }
    const fault = run.faults.next();
    if (fault?.kind === 'network') throw new MockNetworkError();
    if (fault) {
      const headers: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      return errorResponse(new HttpError(fault.status, fault.message, codeForStatus(fault.status), { headers }));
    }
    const response = await route(request, state(), prefixes, authPath);
    for (const [name, value] of Object.entries(limit?.headers ?? {})) response.headers.set(name, value);
    return response;
  }

  // The total under '', and each key the mock issued (so that made-up keys cannot grow the map).
  function count(request: Request, status: number | undefined): void {
    const key = request.headers.get('x-api-key');
    for (const name of key !== null && run.store.keys.has(key) ? ['', key] : ['']) {
      const counts = run.counts.get(name) ?? { requests: 0, tooManyRequests: 0 };
      counts.requests += 1;
      if (status === 429) counts.tooManyRequests += 1;
      run.counts.set(name, counts);
    }
  }

  return {
    apiKey,
    async handle(request) {
      const id = requestId(run.requestIds);
      let status: number | undefined;
      try {
        const response = withCors(await respond(request));
        response.headers.set('x-request-id', id);
        status = response.status;
        return response;
      } finally {
        count(request, status);
      }
    },
    requestCounts: (key) => ({ requests: 0, tooManyRequests: 0, ...run.counts.get(key ?? '') }),
    issueKey,
    setWebhookUrl(url) {
      run.webhookUrl = url;
    },
    failNext(count, status = 500, failOptions = {}) {
      run.faults.failNext(count, status, failOptions);
    },
    failNextBuild(count = 1) {
      if (!Number.isInteger(count) || count < 0) throw new RangeError('failNextBuild: count must be an integer >= 0');
      run.failBuildsLeft += count;
    },
    webhookDeliveries: () => notifier.deliveries(),
    downloadRequests: () => [...run.artifacts.requests()],
    flush: () => notifier.flush(),
    reset() {
      notifier.clear();
      run = freshRun();
    },
    close() {
      notifier.clear({ stop: true });
    },
  };
}
