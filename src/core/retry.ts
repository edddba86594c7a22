/**
 * When a failed attempt is tried again, and the loop that does it. GET, PUT and DELETE are retried on
 * connection errors, timeouts, 408, 429 and 5xx; a POST only when the service cannot have acted (a 429, or a
 * connection that failed before sending). The rules in full: docs/errors-and-retries.md.
 */
import { parseRetryAfter } from './retry-after.js';
import { now, runPhase, sleepWithin } from './timing.js';
import { safeCause, thrownName } from './redact.js';

/**
 * The longest `Retry-After` the SDK sleeps on by itself: one minute. A longer one ends the call with the
 * error, so a caller is never stuck behind a wait it did not choose.
 *
 * @example
 * ```ts
 * try { await client.orders.list(); }
 * catch (e) {
 *   if (RateLimitError.is(e) && (e.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) scheduleLater(e.retryAfterMs);
 * }
 * ```
 */
export const MAX_RETRY_AFTER_MS = 60_000;
export const BASE_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 8_000;

/**
 * The most retries a call may ask for: more would only hammer a service that keeps failing.
 *
 * @example
 * ```ts
 * new Client({ apiKey, baseUrl, maxRetries: MAX_RETRIES }); // 10, the most allowed
 * ```
 */
export const MAX_RETRIES = 10;

/** Methods that may be sent twice with the effect of once. */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Codes meaning the request was never sent, so even a POST is safe to send again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Node puts codes on the cause chain, or on each error of an `AggregateError`; browsers give none. */
export function networkErrorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (Array.isArray(errors)) for (const inner of errors) codes.push(...networkErrorCodes(inner));
    current = cause;
  }
  return codes;
}

export function failedBeforeSending(error: unknown): boolean {
  const codes = networkErrorCodes(error);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

/** How an attempt, or the call around it, ended without an HTTP response; the core turns each into the SDK's error. */
export type Failure =
  /** The transport rejected: no response came. */
  | { readonly kind: 'network'; readonly cause: unknown }
  /** The connection broke while the body was read. */
  | { readonly kind: 'body-read'; readonly cause: unknown }
  /** The attempt's `timeoutMs` ran out. */
  | { readonly kind: 'timeout' }
  /** The call's deadline ran out: nothing is retried after it. */
  | { readonly kind: 'deadline' }
  /** The caller's signal aborted. */
  | { readonly kind: 'abort'; readonly cause: unknown }
  /** `retry.shouldRetry` threw. */
  | { readonly kind: 'should-retry'; readonly cause: unknown };

/** Carries a {@link Failure} through the retry loop; it never leaves the core. */
export class AttemptFailure extends Error {
  readonly failure: Failure;

  constructor(failure: Failure) {
    super(failure.kind);
    this.failure = failure;
  }
}

/** A response's status and headers: what the retry rules read. */
export interface ResponseHead {
  status: number;
  headers: Headers;
}

/**
 * What `retry.shouldRetry` is asked about: one failed attempt.
 *
 * @example
 * ```ts
 * const shouldRetry = ({ method, status, mayHaveActed }: RetryContext) => (method === 'POST' && status === 503 && !mayHaveActed) || undefined;
 * ```
 */
export interface RetryContext {
  /** Upper case. */
  readonly method: string;
  /** The URL of the attempt, with secrets removed. */
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The response's status; `undefined` when there was none (a connection error or timeout). */
  readonly status: number | undefined;
  /** The error, when there was no response. */
  readonly error: unknown;
  /** True when a POST may have reached the service, so that sending it again could act twice. */
  readonly mayHaveActed: boolean;
}

/**
 * When a failed attempt is sent again. Every field is optional; the defaults are the rules in the README.
 *
 * @example
 * ```ts
 * new Client({ retry: { statuses: [429, 503], baseDelayMs: 200, maxDelayMs: 2_000 } });
 * ```
 */
export interface RetryOptions {
  /** Statuses retried (a POST only on 429, unless `shouldRetry` says so). Default: 408, 429 and 500 to 599. */
  statuses?: readonly number[] | undefined;
  /** The first backoff step; it doubles each retry, with equal jitter. Default 500. */
  baseDelayMs?: number | undefined;
  /** The largest backoff step. Default 8 000. */
  maxDelayMs?: number | undefined;
  /** The longest `Retry-After` slept on; a longer one ends the call with its error. Default 60 000. */
  maxRetryAfterMs?: number | undefined;
  /**
   * Asked after each failed attempt that `maxRetries` and the deadline leave room for: `true` retries, `false`
   * does not, `undefined` keeps the default rule. A POST that may have acted is retried only on `true`. It must
   * return synchronously; if it throws, the call fails with a `WfaError` naming it.
   */
  shouldRetry?: ((context: RetryContext) => boolean | undefined) | undefined;
}

export interface RetryPolicy {
  /** Upper case. */
  method: string;
  maxRetries: number;
  /** Per attempt, body included. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Shared by every hop of one call (redirects, the prefix fallback); on {@link now}'s clock. */
  deadline: number;
  retry?: RetryOptions | undefined;
  /** Removed from the error `shouldRetry` is shown. */
  secrets?: readonly string[] | undefined;
  /** A hook the attempt was waiting for when its time ran out: that error ends the call, not retried. */
  hookTimeout?: (() => Error | undefined) | undefined;
  /** For `shouldRetry`: the attempt's URL without secrets. */
  shownUrl?: string | undefined;
  onRetry?: ((retry: number, reason: number | string, waitMs: number) => void) | undefined;
  /** The `beforeRetry` hook: a returned promise is awaited within the signal and deadline. */
  beforeRetry?: ((status: number | undefined, error: string | undefined, delayMs: number) => Promise<void> | undefined) | undefined;
}

/** What hooks call an attempt's end: the SDK error it would become. */
const HOOK_ERROR_NAMES: Record<string, string> = { timeout: 'TimeoutError', 'body-read': 'ConnectionError' };

function hookErrorName(error: unknown): string {
  if (!(error instanceof AttemptFailure)) return error instanceof Error ? error.name : 'Error';
  const { failure } = error;
  return failure.kind === 'network' ? thrownName(failure.cause) : (HOOK_ERROR_NAMES[failure.kind] ?? 'Error');
}

function isDefaultStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The wait before retry number `retry` (1 for the first), or `undefined` when `outcome` is final. */
export function retryDelay(
  outcome: ResponseHead | { error: unknown },
  idempotent: boolean,
  retry: number,
  options: RetryOptions = {},
  ask?: (context: { status: number | undefined; error: unknown; mayHaveActed: boolean }) => boolean | undefined,
): number | undefined {
  const { statuses, baseDelayMs = BASE_BACKOFF_MS, maxDelayMs = MAX_BACKOFF_MS, maxRetryAfterMs = MAX_RETRY_AFTER_MS } = options;
  let retryable: boolean;
  let mayHaveActed: boolean;
  let retryAfter: number | undefined;
  if ('status' in outcome) {
    const { status } = outcome;
    // A 429 means the service did not act, so even a POST is sent again; another status only when idempotent.
    const listed = statuses ? statuses.includes(status) : isDefaultStatus(status);
    mayHaveActed = !idempotent && status !== 429;
    retryable = listed && !mayHaveActed;
    if (status >= 200 && status < 400) return undefined;
    retryAfter = parseRetryAfter(outcome.headers);
  } else {
    const { error } = outcome;
    // A POST may have acted already. Fetch rejects a network failure with a TypeError; anything else (our own
    // errors, bugs, a body too large) is never retried.
    const failure = error instanceof AttemptFailure ? error.failure : undefined;
    const network = failure?.kind === 'network' ? failure.cause instanceof TypeError : failure !== undefined;
    if (!network) return undefined;
    mayHaveActed = !idempotent && !(failure?.kind === 'network' && failedBeforeSending(failure.cause));
    retryable = !mayHaveActed;
  }
  const said = ask?.({
    status: 'status' in outcome ? outcome.status : undefined,
    error: 'error' in outcome ? causeOf(outcome.error) : undefined,
    mayHaveActed,
  });
  if (said !== undefined) retryable = said;
  if (!retryable) return undefined;
  if (retryAfter !== undefined) return retryAfter > maxRetryAfterMs ? undefined : retryAfter;
  // Backoff with equal jitter: half the step fixed, half random, so clients that failed together spread out.
  const step = Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs);
  return step / 2 + (Math.random() * step) / 2;
}

/** What `shouldRetry` is shown of a failure: what the transport threw, or a `TimeoutError`, not the core's wrapper. */
function causeOf(error: unknown): unknown {
  if (!(error instanceof AttemptFailure)) return error;
  const { failure } = error;
  if ('cause' in failure) return failure.cause;
  const timeout = new Error('The attempt timed out');
  timeout.name = 'TimeoutError';
  return timeout;
}

/** One attempt's time plus the longest backoff, for each attempt allowed. */
export function callDeadline(timeoutMs: number, maxRetries: number): number {
  return now() + (timeoutMs + MAX_BACKOFF_MS) * (maxRetries + 1);
}

/**
 * Resolves with the last HTTP response (an error status included, for the caller to turn into an error), or
 * rejects with what the last attempt threw.
 */
export async function withRetries<T extends ResponseHead>(attempt: (signal: AbortSignal) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const { method, maxRetries, timeoutMs, signal, deadline } = policy;
  const idempotent = IDEMPOTENT.has(method);
  for (let retry = 1; ; retry++) {
    const attemptEnd = now() + timeoutMs;
    const result = await runPhase(attempt, { signal, deadline: Math.min(attemptEnd, deadline) });
    if (result.type === 'aborted') throw new AttemptFailure({ kind: 'abort', cause: result.reason });
    // The call's deadline ends the call: nothing is retried after it.
    if (result.type === 'deadline' && deadline <= attemptEnd) throw new AttemptFailure({ kind: 'deadline' });
    const hookTimedOut = result.type === 'deadline' ? policy.hookTimeout?.() : undefined;
    if (hookTimedOut) throw hookTimedOut;
    const outcome =
      result.type === 'done'
        ? result.value
        : { error: result.type === 'deadline' ? new AttemptFailure({ kind: 'timeout' }) : result.error };
    const { shouldRetry } = policy.retry ?? {};
    const ask = shouldRetry
      ? (context: { status: number | undefined; error: unknown; mayHaveActed: boolean }) => {
          let said: unknown;
          try {
            const error = context.error === undefined ? undefined : safeCause(context.error, policy.secrets ?? []);
            said = shouldRetry({ method, url: policy.shownUrl ?? '', attempt: retry, ...context, error });
          } catch (error) {
            throw new AttemptFailure({ kind: 'should-retry', cause: error });
          }
          if (typeof (said as PromiseLike<unknown> | undefined)?.then === 'function') {
            (said as PromiseLike<unknown>).then(undefined, () => undefined);
          }
          return typeof said === 'boolean' ? said : undefined;
        }
      : undefined;
    const wait = retry > maxRetries || now() >= deadline ? undefined : retryDelay(outcome, idempotent, retry, policy.retry, ask);
    if (wait === undefined || now() + wait > deadline) {
      if ('error' in outcome) throw outcome.error;
      return outcome;
    }
    const failed = 'status' in outcome ? undefined : hookErrorName(outcome.error);
    policy.onRetry?.(retry, failed ?? (outcome as ResponseHead).status, wait);
    if (policy.beforeRetry) {
      const pending = policy.beforeRetry('status' in outcome ? outcome.status : undefined, failed, wait);
      if (pending) {
        const hooked = await runPhase(() => pending, { signal, deadline });
        if (hooked.type === 'aborted') throw new AttemptFailure({ kind: 'abort', cause: hooked.reason });
        if (hooked.type === 'deadline') throw new AttemptFailure({ kind: 'deadline' });
        if (hooked.type === 'failed') throw hooked.error;
      }
    }
    // An abort cuts the sleep short; the next phase then starts aborted and ends the loop.
    await sleepWithin(wait, { signal, deadline });
  }
}
