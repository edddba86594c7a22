/** `Retry-After` as the retry loop, build waits and `ApiError.retryAfterMs` read it. */
/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) and `retry-after-ms`; `undefined` when absent or
 * unreadable. Takes a `Headers` as it is (every successful build poll reads it: no copy of all headers) or a
 * record with lower-case names.
 */
export function parseRetryAfter(
  headers: Record<string, string> | { get(name: string): string | null },
  now = Date.now(),
): number | undefined {
  // Trimmed, so that a blank value counts as absent (`Number(' ')` would read it as 0).
  const read = (name: string): string | undefined =>
    (typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, string>)[name])?.trim();
  const ms = read('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = read('retry-after');
  if (!value) return undefined;
  // Plain seconds, or else an HTTP date (a date in the past means no wait); `NaN` when it is neither.
  const wait = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}
