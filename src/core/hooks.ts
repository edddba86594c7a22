/**
 * The `hooks` client option: what each hook is told, and how one is run so that a throw names it and a hang
 * stays within the call's time bounds. The core runs them; `src/otel/` builds tracing on them.
 */
import { WfaError } from './errors.js';
import { safeCause, thrownName } from './redact.js';

/** What every hook of a call is told. Never the API key: the URL has secrets removed, and no header is readable. */
export interface HookContext {
  /** Unique per call in this process, so hooks can tell concurrent calls apart. */
  readonly callId: number;
  /** Upper case. */
  readonly method: string;
  /** The attempt's URL, with secrets removed. */
  readonly url: string;
  /** The endpoint's template, such as `/workflows/{id}`; the path itself for `client.request`. */
  readonly route: string;
  /** 1 for the first request sent; retries, redirects and the prefix fallback count on. */
  readonly attempt: number;
  /** Milliseconds since the call started. */
  readonly elapsedMs: number;
}

/** Where `beforeRequest` adds headers: write-only, so the key cannot be read, and `X-API-Key` cannot be set. */
export interface HookHeaders {
  /** Adds or replaces a header of this attempt. Throws on an invalid name or value, or on `X-API-Key`. */
  set(name: string, value: string): void;
}

/** What `beforeRequest` is told, just before each attempt is sent. */
export interface BeforeRequestContext extends HookContext {
  /** Add headers to this attempt. */
  readonly headers: HookHeaders;
}

/** What `afterResponse` is told, for each attempt's response (errors and redirects included), body read. */
export interface AfterResponseContext extends HookContext {
  /** The response's status. */
  readonly status: number;
  /** The response's headers, secrets removed. */
  readonly responseHeaders: Headers;
}

/** What `beforeRetry` is told, before the wait that precedes a retry. */
export interface BeforeRetryContext extends HookContext {
  /** The failed attempt's status, or `undefined` when it got no response. */
  readonly status: number | undefined;
  /** The name of what ended the failed attempt without a response (`TimeoutError`, `TypeError`). */
  readonly error: string | undefined;
  /** The wait before the retry, in milliseconds. */
  readonly delayMs: number;
}

/** What `onSuccess` is told, once, when a call succeeds. */
export interface SuccessContext extends HookContext {
  /** The final status. */
  readonly status: number;
}

/** What `onError` is told, once, when a call fails. */
export interface ErrorContext extends HookContext {
  /** What the call rejects with. */
  readonly error: WfaError;
  /** The last response's status, if there was one. */
  readonly status: number | undefined;
}

/** A build wait's progress, for `hooks.onWait`: its start, each poll, and its end. */
export interface WaitEvent {
  /** `start` once, `poll` after each poll, `end` once. */
  readonly type: 'start' | 'poll' | 'end';
  /** Unique per wait in this process. */
  readonly waitId: number;
  /** The build waited for. */
  readonly buildId: string;
  /** Polls sent so far. */
  readonly poll: number;
  /** Milliseconds since the wait started. */
  readonly elapsedMs: number;
  /** The build's status after this poll (or at the end). */
  readonly status: string | undefined;
  /** The error's name: a poll that failed (and will be sent again), or what ended the wait. */
  readonly error: string | undefined;
  /** On `end`: how the wait ended. */
  readonly outcome: 'completed' | 'failed' | 'error' | 'stopped' | undefined;
}

/** The client's rate gate closing or opening again, for `hooks.onRateLimit`. */
export interface RateLimitEvent {
  /** `closed`: every call of the client waits; `open`: waiting calls leave again, at a pace. */
  readonly state: 'closed' | 'open';
  /** On `closed`, how long the gate stays closed; on `open`, how long it was closed, in milliseconds. */
  readonly waitMs: number;
  /** On `closed`, the status that closed it (429, 503, or a success whose headers said nothing remains). */
  readonly status: number | undefined;
  /** On `closed`, the request that got it: method and URL, with secrets removed. */
  readonly request: string | undefined;
  /** Calls waiting at the gate. */
  readonly waiting: number;
  /** The pace calls leave at, in requests per second; `undefined` when unpaced. */
  readonly ratePerSecond: number | undefined;
}

/** A hook: it may return a promise, which the call awaits within its time bounds. */
export type Hook<C> = (context: C) => void | PromiseLike<void>;

/**
 * The `hooks` client option. One function each: an array adds nothing that a function calling two cannot do.
 * A hook that throws or rejects fails the call with a `WfaError` naming it, and the call is not retried.
 *
 * @example
 * ```ts
 * new Client({ hooks: { beforeRequest: ({ headers }) => headers.set('x-tenant', 'acme'), onError: (c) => console.warn(c.error.message) } });
 * ```
 */
export interface Hooks {
  /** Before each attempt is sent; may add headers. Runs within the attempt's timeout. */
  beforeRequest?: Hook<BeforeRequestContext> | undefined;
  /** After each attempt's response, body read. Runs within the attempt's timeout. */
  afterResponse?: Hook<AfterResponseContext> | undefined;
  /** Before each retry's wait. */
  beforeRetry?: Hook<BeforeRetryContext> | undefined;
  /** Once, when a call succeeds. */
  onSuccess?: Hook<SuccessContext> | undefined;
  /** Once, when a call fails (by its `onSuccess` too); a throw here is logged, and the call's own error stands. */
  onError?: Hook<ErrorContext> | undefined;
  /** Each step of a build wait (`builds.wait`, `builds.watch`, `waitForBuild`). */
  onWait?: Hook<WaitEvent> | undefined;
  /**
   * The client's rate gate closing (a 429 or 503 with `Retry-After`) and opening again. Only heard: a throw,
   * a rejection or a hang never delays or fails a call.
   */
  onRateLimit?: Hook<RateLimitEvent> | undefined;
}

let lastId = 0;
/** Ids for calls and waits seen by hooks. */
export function nextId(): number {
  return ++lastId;
}

/**
 * Calls a hook. A throw becomes the `WfaError` naming it; a returned promise is given back for the caller to
 * await within its bounds (a rejection becomes that error too), and nothing is allocated for a sync hook.
 */
export function runHook<C>(name: keyof Hooks, hook: Hook<C>, context: C, secrets: readonly string[]): Promise<void> | undefined {
  const failed = (error: unknown) =>
    new WfaError(`hooks.${name} threw (${thrownName(error, secrets)}); the call was not retried`, { cause: safeCause(error, secrets) });
  let result: unknown;
  let then: unknown;
  try {
    result = hook(context);
    // Read inside the try: a `then` getter that throws is the hook's failure, not the network's.
    then = (result as { then?: unknown } | null | undefined)?.then;
  } catch (error) {
    throw failed(error);
  }
  if (typeof then !== 'function') return undefined;
  return new Promise<unknown>((resolve, reject) => then.call(result, resolve, reject)).then(
    () => undefined,
    (error: unknown) => {
      throw failed(error);
    },
  );
}
