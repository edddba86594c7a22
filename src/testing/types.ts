/** The mock service's options and its handle: what a test configures and calls. */
import type { MockListEnvelope, MockUser, MockWorkflow } from './records.js';

export type * from './records.js';

/**
 * The `build.completed` event the mock POSTs to the webhook URL.
 *
 * @example
 * ```ts
 * const event: MockWebhookEvent = { event: 'build.completed', workflow_id: 'wf_1', data: { download_url: 'http://127.0.0.1:4010/downloads/bld_1.zip' } };
 * ```
 */
export interface MockWebhookEvent {
  /** The one event the spec shows. */
  event: 'build.completed';
  /** The workflow whose build completed. */
  workflow_id: string;
  /** The event's content. */
  data: {
    /** The completed build's `download_url`. */
    download_url: string;
  };
}

/**
 * One webhook POST the mock made: its outcome is `status` (the receiver's response) or `error` (no response).
 * A failed attempt (no response, or not 2xx) is retried after each of `webhookRetryDelaysMs`; each attempt is
 * one record. Of the receiver's answer, at most 64 KiB is read; past that the connection is dropped.
 *
 * @example
 * ```ts
 * await service.flush();
 * expect(service.webhookDeliveries()[0]?.status).toBe(200);
 * ```
 */
export interface MockWebhookDelivery {
  /** Where it was POSTed: the service's `webhookUrl` at that time. */
  url: string;
  /** What was sent. */
  payload: MockWebhookEvent;
  /** The `webhook-id` header: one per event, the same on each attempt, as a receiver's dedupe expects. */
  id: string;
  /** 1 for the first POST of the event, 2 for its first retry... */
  attempt: number;
  /** When this attempt failed (no answer, or not 2xx) and another follows: the wait before it. */
  retryInMs?: number;
  /** The receiver's HTTP status; absent when there was no response. */
  status?: number;
  /** The error's message when there was no response: a refused connection, a timeout. */
  error?: string;
  /** When the POST was made, ISO 8601 on the service's clock. */
  at: string;
}

/**
 * A 429 with `Retry-After` on every Nth request, whoever sends it.
 *
 * @example
 * ```ts
 * createMockService({ rateLimit: { every: 3, retryAfterSeconds: 2 } }); // requests 3, 6, 9… get 429
 * ```
 */
export interface MockEveryNth {
  /** N: the Nth, 2Nth, 3Nth... request is answered 429. */
  every: number;
  /** The `Retry-After` header value. Default 1. */
  retryAfterSeconds?: number | undefined;
}

/**
 * A token bucket per API key, as a real service limits: each key may send `burst` requests at once, then
 * `requestsPerSecond`; a request beyond it is answered 429 with `Retry-After` in whole seconds (the time until
 * a token is free, rounded up, at least 1). Requests without a key the mock issued (log-in, downloads, a
 * wrong key, answered 401) are not limited.
 *
 * @example
 * ```ts
 * createMockService({ rateLimit: { requestsPerSecond: 20 }, rateLimitHeaders: true });
 * ```
 */
export interface MockTokenBucket {
  /** Tokens added per second, per key (may be under 1: 0.5 is one request every 2 s). */
  requestsPerSecond: number;
  /** The bucket's capacity: requests a key may send at once. Default one second's worth (at least 1). */
  burst?: number | undefined;
}

/** How the mock limits requests: a token bucket per key, or a 429 on every Nth request. */
export type MockRateLimit = MockTokenBucket | MockEveryNth;

/**
 * What the mock has answered since it was created or reset: every request, and those answered 429 (by the
 * rate limit, `failNext` or `every`).
 *
 * @example
 * ```ts
 * const { requests, tooManyRequests } = server.service.requestCounts(server.apiKey);
 * ```
 */
export interface MockRequestCounts {
  /** Requests answered (or dropped by `failNext(n, 'network')`). */
  requests: number;
  /** Of them, those answered 429. */
  tooManyRequests: number;
}

/**
 * A build's duration drawn anew for each workflow, uniformly between `min` and `max` milliseconds (from the
 * seeded random stream, so a pinned `seed` repeats them).
 *
 * @example
 * ```ts
 * createMockService({ buildDurationMs: { min: 3000, max: 10_000 } });
 * ```
 */
export interface MockDurationRange {
  /** The shortest build, in milliseconds. */
  min: number;
  /** The longest build, in milliseconds (at least `min`). */
  max: number;
}

/**
 * Options of {@link createMockService}. Every option has a default: `createMockService()` is a working mock
 * with the user `demo@example.com` / `demo`.
 *
 * @example
 * ```ts
 * const service = createMockService({ buildDurationMs: 500, webhookUrl: 'http://127.0.0.1:9000/hooks', seed: 1 });
 * ```
 */
export interface MockServiceOptions {
  /**
   * Path prefixes the resources answer under. Default `['/api/v1', '/v1']`; `''` (or `'/'`) serves them at the
   * root, as a gateway may. Keys are issued at `authPath` regardless.
   */
  prefixes?: readonly string[] | undefined;
  /** Where `POST` issues keys. Default `/v1/auth`. */
  authPath?: string | undefined;
  /** Users besides the default `demo@example.com` / `demo` (a user with that email replaces it). */
  users?: readonly MockUser[] | undefined;
  /** Orders seeded for each user. Default 5, one of each status. */
  ordersPerUser?: number | undefined;
  /** Body shape of list endpoints. Default `'data'`. */
  listEnvelope?: MockListEnvelope | undefined;
  /** Time from workflow creation to the end of its build, in ms, or a range to draw it from. Default 3000. */
  buildDurationMs?: number | MockDurationRange | undefined;
  /**
   * Make builds end `failed`: all of them (`true`), a share of them from 0 to 1 (drawn from `seed`), or those
   * the function picks. Default `false`.
   */
  failBuilds?: boolean | number | ((workflow: MockWorkflow) => boolean) | undefined;
  /** Where `build.completed` events are POSTed. Default: none (no deliveries). */
  webhookUrl?: string | undefined;
  /**
   * The waits before each retry of a delivery that failed (no answer, or not 2xx). Default
   * `[1000, 2000, 4000, 8000]`: five attempts in all; `[]` sends once. `flush()` does not wait for a retry
   * not yet due: wait for your receiver, or move fake timers on.
   */
  webhookRetryDelaysMs?: readonly number[] | undefined;
  /** Called with each webhook attempt once its outcome is known (what `wfa mock` logs). A throw or rejection is ignored. */
  onWebhookDelivery?: ((delivery: MockWebhookDelivery) => unknown) | undefined;
  /** The clock, in epoch milliseconds. Default `Date.now()` (so vitest fake timers drive it too). */
  now?: (() => number) | undefined;
  /** Seed of the mock's random numbers (ids, keys, error rate). Default: a random seed. */
  seed?: number | undefined;
  /** Delay added before each response. Default 0. */
  latencyMs?: number | undefined;
  /** Share of requests, from 0 to 1, answered 500, 502 or 503 (a third each, drawn from `seed`). Default 0. */
  errorRate?: number | undefined;
  /** Refuse requests with 429: a token bucket per key, or every Nth request. Default: no limit. */
  rateLimit?: MockRateLimit | undefined;
  /**
   * With a token-bucket `rateLimit`, also send its headers on every limited key's response: the IETF draft's
   * `RateLimit-Policy: "default";q=20;w=1` and `RateLimit: "default";r=<left>;t=<seconds>`, and
   * `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds from now). Default `false`: a client must learn.
   */
  rateLimitHeaders?: boolean | undefined;
  /** The fetch used to deliver webhooks. Default the global `fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Origin of `download_url`s. Default: the origin the workflow was created through. */
  downloadBaseUrl?: string | undefined;
  /** Build artifacts: their size, URLs that expire, ranges, connections that reset mid-body. */
  artifacts?: MockArtifactOptions | undefined;
}

/**
 * How the mock serves build artifacts at `download_url` (`GET /downloads/{build_id}.zip`, no key needed).
 *
 * @example
 * ```ts
 * createMockService({ artifacts: { size: 10 * 1024 * 1024, expiresAfterMs: 60_000, resetAfterBytes: 1024 * 1024, resets: 1 } });
 * ```
 */
export interface MockArtifactOptions {
  /** Bytes in each artifact. Default 22: an empty ZIP archive. Larger ones are a fixed byte pattern, made as sent. */
  size?: number | undefined;
  /**
   * A `download_url` carries `expires` and `signature` and is refused with 403 this long after the read that
   * gave it; each build read gives a fresh one. Default: URLs never expire.
   */
  expiresAfterMs?: number | undefined;
  /** Answers `Range: bytes=N-` with 206 (`If-Range` against `ETag` or `Last-Modified`). Default `true`. */
  ranges?: boolean | undefined;
  /** Break the connection after this many body bytes (a reset socket on the HTTP server). Default: never. */
  resetAfterBytes?: number | undefined;
  /** How many responses `resetAfterBytes` breaks; later ones are whole. Default: all of them. */
  resets?: number | undefined;
}

/**
 * One request the mock's download host received, headers as sent (names in lower case).
 *
 * @example
 * ```ts
 * expect(service.downloadRequests().every((r) => !('x-api-key' in r.headers))).toBe(true);
 * ```
 */
export interface MockDownloadRequest {
  /** The URL requested, query included. */
  url: string;
  /** Every header of the request. */
  headers: Record<string, string>;
}

/**
 * Options of {@link MockService.failNext}.
 *
 * @example
 * ```ts
 * service.failNext(1, 503, { retryAfterSeconds: 2, message: 'Maintenance' });
 * ```
 */
export interface FailNextOptions {
  /** Sets `Retry-After`. For 429 the default is 1; otherwise no header. */
  retryAfterSeconds?: number | undefined;
  /** The error message in the body. */
  message?: string | undefined;
}

/**
 * One running mock: the whole service behind a single Fetch-style `handle(request)`, plus controls for tests.
 *
 * @example
 * ```ts
 * const service = createMockService();
 * const res = await service.handle(new Request('http://mock/v1/orders', { headers: { 'X-API-Key': service.apiKey } }));
 * ```
 */
export interface MockService {
  /**
   * Answers one request. Rejects only with `MockNetworkError` (from `failNext(n, 'network')`) or with the
   * signal's reason when the request is aborted during the added latency.
   */
  handle(request: Request): Promise<Response>;
  /** A key valid for the default user, issued when the service was created; still valid after `reset()`. */
  readonly apiKey: string;
  /** Issues a new key for a configured user (default: the default user), as `POST /v1/auth` would. */
  issueKey(email?: string): string;
  /** Sets or clears the webhook URL, for tests that start their receiver after the mock. */
  setWebhookUrl(url: string | undefined): void;
  /** The next `count` requests fail with `status` (default 500), or with a dropped connection for `'network'`. */
  failNext(count: number, status?: number | 'network', options?: FailNextOptions): void;
  /** The next `count` workflows created (default 1) get a build that fails. */
  failNextBuild(count?: number): void;
  /** Requests answered and 429s since creation or `reset()`: for one key, or for all requests without one. */
  requestCounts(apiKey?: string): MockRequestCounts;
  /** The webhook POSTs made so far, oldest first. */
  webhookDeliveries(): readonly MockWebhookDelivery[];
  /** The last 100 requests to download URLs, oldest first: to check what a client sent the download host. */
  downloadRequests(): readonly MockDownloadRequest[];
  /**
   * Ends the builds that are due on the clock, sends their webhooks, and waits for every delivery attempt in
   * flight (not for a retry not yet due).
   */
  flush(): Promise<void>;
  /** Back to the state right after creation: seeded orders, initial keys, no workflows, no queued faults. */
  reset(): void;
  /**
   * Stops background work (the build timer, deliveries in flight) so a process can exit. The service still
   * answers requests afterwards, but sends no more webhooks.
   */
  close(): void;
}
