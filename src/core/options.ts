/** The options a `Client` and each call accept, documented where defined; `settings.ts` checks them. */
import type { Hooks } from './hooks.js';
import type { RateStore } from './rate-store.js';
import type { RetryOptions } from './retry.js';

/**
 * The two path prefixes the service is known to use: its reference says `/api/v1`, its quick-start `/v1`.
 *
 * @example
 * ```ts
 * new Client({ apiKey, baseUrl: 'https://automation.example.com', apiPrefix: '/v1' }); // skip the detection
 * ```
 */
export type ApiPrefix = '/api/v1' | '/v1';

/** Severity levels, most severe first. `'off'` logs nothing. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything console-like. Lines never contain the API key or a saved integration key. */
export interface Logger {
  /** Part of the console shape; the SDK reports failures by throwing them, not here. */
  error(message: string, ...rest: unknown[]): void;
  /** Trouble the SDK works around: a retry, a build poll that failed and will be sent again. */
  warn(message: string, ...rest: unknown[]): void;
  /** Which path prefix the SDK settled on, and why. */
  info(message: string, ...rest: unknown[]): void;
  /** Each request sent and each response, with its time. */
  debug(message: string, ...rest: unknown[]): void;
}

/**
 * A Fetch-compatible function: the global `fetch`, undici's, a test double, a proxy.
 *
 * @example
 * ```ts
 * new Client({ fetch: (input, init) => fetch(input, { ...init, keepalive: true }) });
 * ```
 */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `node:http` or `node:https` `Agent` (or a subclass), described by a member every agent has, so the
 * published types need no `@types/node`.
 */
export interface NodeAgent {
  /** Closes its sockets. */
  destroy(): void;
}

/**
 * Where the API key comes from: the key itself, or a function that returns it (called before every request,
 * so a rotated key is picked up without a new client).
 *
 * @example
 * ```ts
 * new Client({ apiKey: async () => (await secrets.get('wfa')).value });
 * ```
 */
export type ApiKeySource = string | (() => string | Promise<string>);

/**
 * The client's rate gate (on by default): every send of every call passes it. A 429 (or 503 with `Retry-After`)
 * closes it for that wait, for every call; then calls leave one by one at a pace learned from the service's
 * `RateLimit` headers, or from what it accepted. See docs/errors-and-retries.md, "Rate limits: the client paces itself".
 *
 * @example
 * ```ts
 * new Client({ rateLimit: { requestsPerSecond: 20, maxConcurrent: 8 } }); // a quota you know
 * ```
 */
export interface RateLimitOptions {
  /** The most requests a second the client sends, your quota if you know it; at least one a minute (1/60). Default: learned, unbounded. */
  requestsPerSecond?: number | undefined;
  /** The most requests in flight at once. Default: unbounded. */
  maxConcurrent?: number | undefined;
  /**
   * Where the gate keeps what it shares: `memoryRateStore()` for clients of one process, a Redis store across
   * processes. Default: the client's own, in memory.
   */
  store?: RateStore | undefined;
  /** The name of the shared budget in the store. Default: a hash of the API key (never the key itself). */
  key?: string | undefined;
}

/** Options of each call; every method takes them as its last, optional argument. */
export interface RequestOptions {
  /** Aborts the call, including any wait between retries; the call rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Time allowed for each attempt, in milliseconds. Overrides the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** How many times a failed attempt may be retried (see the README's Retries section), 0 to 10. `0` disables retries. */
  maxRetries?: number | undefined;
  /** Extra headers for this call only; they override the client's `headers`. */
  headers?: Record<string, string> | undefined;
  /** The whole call's time, in milliseconds. Overrides the client's `deadlineMs`. */
  deadlineMs?: number | undefined;
}

/** Options of `new Client()`. Every one is optional where the environment can supply it. */
export interface ClientOptions {
  /** Sent as `X-API-Key`. Default: the `WFA_API_KEY` environment variable (where `process.env` exists). */
  apiKey?: ApiKeySource | undefined;
  /**
   * The service's address, with or without a path. A trailing `/`, `/v1` or `/api/v1` is accepted; with
   * `apiPrefix: 'auto'` that suffix is the first prefix tried. Default: the `WFA_BASE_URL` environment variable.
   */
  baseUrl?: string | undefined;
  /**
   * Which path prefix resource calls use. `'auto'` (the default) tries `/api/v1` (or the one `baseUrl` ends with)
   * and, until a prefix responds with anything but 404, retries a 404 once under the other. `''` (or `'/'`) sends
   * paths with no prefix, and any other path (`'/wfa/v1'`) is a gateway's own prefix, appended to `baseUrl`
   * as written; neither is ever detected or retried.
   */
  apiPrefix?: ApiPrefix | 'auto' | '' | (string & {}) | undefined;
  /**
   * Where `auth.issueKey` and `Client.login` send credentials, under `baseUrl`. Default `/v1/auth`, or
   * `<apiPrefix>/auth` when `apiPrefix` is a custom prefix or `''`.
   */
  authPath?: string | undefined;
  /** Time allowed for each attempt, in milliseconds. Default 60 000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, 0 to 10. Default 2; `0` disables retries. */
  maxRetries?: number | undefined;
  /**
   * The whole call's time, in milliseconds: the key function, every attempt, backoff, redirect and the prefix
   * fallback. Past it the call rejects with `TimeoutError` (`reason: 'deadline'`) and no retry starts. Default:
   * `(timeoutMs + 8 000) × (maxRetries + 1)`.
   */
  deadlineMs?: number | undefined;
  /** When a failed attempt is sent again: statuses, backoff, `Retry-After` bound, and a `shouldRetry` say. */
  retry?: RetryOptions | undefined;
  /** The rate gate: a quota, a concurrency bound, a shared store; `false` turns it off (each call retries on its own). */
  rateLimit?: RateLimitOptions | false | undefined;
  /**
   * Functions run around each call and attempt (add headers, log, trace): see docs/hooks.md. They never see
   * the API key. `workflow-automation-sdk/otel` builds OpenTelemetry spans on them.
   */
  hooks?: Hooks | undefined;
  /**
   * The Fetch implementation. Default: on Node, `node:http`/`node:https` with a keep-alive agent of the
   * client's own; elsewhere (browsers, Bun, Deno, Workers) the global `fetch`, looked up at call time.
   */
  fetch?: FetchLike | undefined;
  /**
   * On Node, the `http.Agent` or `https.Agent` to send with instead of the client's own: a proxy
   * (`https-proxy-agent`), client certificates, a private CA, socket limits. Not with `fetch`.
   *
   * @example
   * ```ts
   * new Client({ agent: new HttpsProxyAgent(process.env.HTTPS_PROXY) });
   * ```
   */
  agent?: NodeAgent | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /**
   * The largest response body the SDK reads, in bytes. Default 4 MiB: a larger response fails with
   * `ResponseValidationError` instead of filling memory. Error bodies are read up to 1 MiB, redacted, then
   * kept to 65,536 characters.
   */
  maxResponseBytes?: number | undefined;
  /** Check response bodies against the SDK's schemas (default `true`); `false` returns bodies as received. */
  validateResponses?: boolean | undefined;
  /**
   * Where log lines go. Default: nowhere, or `console` at the level the `WFA_LOG` environment variable names
   * (`debug`, `info`, `warn`, `error`, `off`).
   */
  logger?: Logger | undefined;
  /** How much to log. Default `'off'`, or `'info'` when a `logger` is given. */
  logLevel?: LogLevel | undefined;
  /**
   * Your application, put in front of the SDK in the `User-Agent` that server runtimes send
   * (`my-app/1.4.0 workflow-automation-sdk/<version> (node <version>; linux; x64)`). Browsers send no `User-Agent` of ours.
   */
  appInfo?:
    | {
        /** Your application's name, a token without spaces or slashes. */
        name: string;
        /** Its version. */
        version: string;
      }
    | undefined;
}

/** How a call went: the final response's status and headers, and how the SDK got there. */
export interface ResponseDetails {
  /** The final response's status. */
  readonly status: number;
  /** The final response's headers. */
  readonly headers: Headers;
  /** `X-Request-Id` (or `Request-Id`) of the final response, if the service sent one. */
  readonly requestId: string | undefined;
  /** The URL of the final response, after redirects and the prefix fallback, with secrets removed. */
  readonly url: string;
  /** Requests sent for this call: retries, redirects and the prefix fallback included. */
  readonly attempts: number;
  /** Milliseconds from the call's start to its response, body read. */
  readonly elapsedMs: number;
}

/** Where one exists (Node, Bun, Deno with permission); never in a browser. */
export function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    // Deno without --allow-env throws on access.
    return undefined;
  }
}
