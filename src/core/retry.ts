/**
 * When a failed attempt is tried again, and the loop that does it. GET, PUT and DELETE are retried on
 * connection errors, timeouts, 408, 429 and 5xx; a POST only when the service cannot have acted (a 429, or a
 * connection that failed before sending). The rules in full: docs/errors-and-retries.md.
 */
import { parseRetryAfter } from './retry-after.js';
import { now, runPhase, sleepWithin } from './poll.js';

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

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

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

/**
 * How an attempt ended without an HTTP answer, named like a `DOMException`; the core turns each into the SDK's
 * error. One class rather than three: none leaves the core, and every class costs browser bundle bytes.
 */
export class AttemptFailure extends Error {
  declare readonly name: 'AttemptTimeout' | 'BodyReadError' | 'CallerAbort';

  constructor(name: AttemptFailure['name'], cause?: unknown) {
    super(name, { cause });
    this.name = name;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
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
  onRetry?: ((retry: number, reason: number | string, waitMs: number) => void) | undefined;
}

/** The wait before retry number `retry` (1 for the first), or `undefined` when `outcome` is final. */
export function retryDelay(outcome: Answer | { error: unknown }, idempotent: boolean, retry: number): number | undefined {
  if ('status' in outcome) {
    const { status } = outcome;
    // A 429 means the service did not act, so even a POST is sent again; a 408 or a 5xx only when idempotent.
    if (status !== 429 && !(idempotent && (status === 408 || (status >= 500 && status <= 599)))) return undefined;
    const retryAfter = parseRetryAfter(outcome.headers);
    if (retryAfter !== undefined) return retryAfter > MAX_RETRY_AFTER_MS ? undefined : retryAfter;
  } else {
    const { error } = outcome;
    // A POST may have acted already. Fetch rejects a network failure with a TypeError; anything else (our own
    // errors, bugs, a body too large) is never retried.
    const retryable =
      error instanceof AttemptFailure ? idempotent : error instanceof TypeError && (idempotent || failedBeforeSending(error));
    if (!retryable) return undefined;
  }
  // Backoff with equal jitter: half the step fixed, half random, so clients that failed together spread out.
  const step = Math.min(BASE_BACKOFF_MS * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return step / 2 + (Math.random() * step) / 2;
}

/** One attempt's time plus the longest backoff, for each attempt allowed. */
export function callDeadline(timeoutMs: number, maxRetries: number): number {
  return now() + (timeoutMs + MAX_BACKOFF_MS) * (maxRetries + 1);
}

/**
 * Resolves with the last HTTP answer (an error status included, for the caller to turn into an error), or
 * rejects with what the last attempt threw.
 */
export async function withRetries<T extends Answer>(attempt: (signal: AbortSignal) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const { method, maxRetries, timeoutMs, signal, deadline } = policy;
  const idempotent = IDEMPOTENT.has(method);
  for (let retry = 1; ; retry++) {
    const result = await runPhase(attempt, { signal, deadline: Math.min(now() + timeoutMs, deadline) });
    if (result.type === 'aborted') throw new AttemptFailure('CallerAbort', result.reason);
    const outcome =
      result.type === 'done' ? result.value : { error: result.type === 'deadline' ? new AttemptFailure('AttemptTimeout') : result.error };
    const wait = retry > maxRetries ? undefined : retryDelay(outcome, idempotent, retry);
    if (wait === undefined || now() + wait > deadline) {
      if ('error' in outcome) throw outcome.error;
      return outcome;
    }
    policy.onRetry?.(retry, 'status' in outcome ? outcome.status : (outcome.error as Error).name, wait);
    // An abort cuts the sleep short; the next phase then starts aborted and ends the loop.
    await sleepWithin(wait, { signal, deadline });
  }
}
