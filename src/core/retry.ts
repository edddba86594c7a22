/**
 * When a failed attempt is tried again, expressed as ky retry options: ky does the waiting, the backoff, the
 * jitter and the reading of `Retry-After`; this file decides *whether*.
 *
 * The rules (API.md section 4):
 * - GET, PUT, DELETE (idempotent): retried on connection errors, timeouts, 408, 429 and 5xx.
 * - POST (not idempotent; the spec has no idempotency key): retried only when the service cannot have acted:
 *   a 429, or a connection that failed before the request was sent (refused, DNS, unreachable).
 * - A `Retry-After` longer than {@link MAX_RETRY_AFTER_MS} is not slept on: the call fails with
 *   `RateLimitError` (or the status's error) carrying `retryAfterMs`, and the caller decides.
 * - No retry starts when its wait would end past the call's deadline, `(timeoutMs + 8 s) × (maxRetries + 1)`
 *   after the call began: one attempt's time plus the longest backoff, for each attempt allowed.
 */
import { HTTPError, TimeoutError as KyTimeoutError, type RetryOptions } from 'ky';
import { parseRetryAfter } from './errors.js';

/** The longest `Retry-After` the SDK sleeps on by itself: one minute. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** First backoff step; doubles each retry, with jitter, up to {@link MAX_BACKOFF_MS}. */
export const BASE_BACKOFF_MS = 500;
/** The longest backoff between two attempts when the service gives no `Retry-After`. */
export const MAX_BACKOFF_MS = 8_000;

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** 408, 429 and every 5xx. */
const RETRY_STATUSES: number[] = [408, 429];
for (let status = 500; status <= 599; status++) RETRY_STATUSES.push(status);

/**
 * Error codes meaning the connection never carried the request, so even a POST is safe to send again.
 * Node reports them on `error.cause.code` (or on each error of an `AggregateError` when several addresses
 * were tried).
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The network error codes found on a failed fetch's cause chain (Node/undici). Browsers give none. */
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

/** True when the request certainly never reached the service. */
export function failedBeforeSending(error: unknown): boolean {
  const codes = networkErrorCodes(error);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

/** A rejection of `fetch` itself: the Fetch standard says network failures are `TypeError`s. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/** Equal jitter: half the step fixed, half random, so clients that failed together spread out. */
function jitter(delay: number): number {
  return delay / 2 + (Math.random() * delay) / 2;
}

/**
 * The ky `retry` option for one call.
 *
 * @param method - upper-case HTTP method
 * @param maxRetries - retries allowed after the first attempt
 * @param deadline - epoch ms after which no retry starts
 */
export function retryOptions(method: string, maxRetries: number, deadline: number): RetryOptions {
  const idempotent = IDEMPOTENT.has(method);
  return {
    limit: maxRetries,
    methods: [method.toLowerCase()],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    backoffLimit: MAX_BACKOFF_MS,
    retryOnTimeout: idempotent,
    delay: (attempt) => BASE_BACKOFF_MS * 2 ** (attempt - 1),
    jitter,
    shouldRetry: ({ error, retryCount }) => {
      let wait = Math.min(BASE_BACKOFF_MS * 2 ** (retryCount - 1), MAX_BACKOFF_MS) / 2;
      if (error instanceof HTTPError) {
        const status = error.response.status;
        if (!idempotent && status !== 429) return false;
        const retryAfter = parseRetryAfter(headerRecord(error.response.headers));
        if (retryAfter !== undefined) {
          if (retryAfter > MAX_RETRY_AFTER_MS) return false;
          wait = retryAfter;
        }
      } else if (error instanceof KyTimeoutError) {
        if (!idempotent) return false;
      } else if (isNetworkError(error)) {
        if (!idempotent && !failedBeforeSending(error)) return false;
      } else {
        // Aborts, our own errors, bugs: never retried.
        return false;
      }
      if (Date.now() + wait > deadline) return false;
      // `undefined` lets ky apply its status list and Retry-After handling.
      return undefined;
    },
  };
}

/** Response headers as a plain object with lower-case names. */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}
