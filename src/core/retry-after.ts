/** `Retry-After` as the retry loop, build waits and `ApiError.retryAfterMs` read it. */
/** Takes a `Headers` as it is (every build poll reads it: no copy) or a record with lower-case names. */
export function parseRetryAfter(
  headers: Record<string, string> | { get(name: string): string | null },
  now = Date.now(),
): number | undefined {
  // Trimmed: `Number(' ')` would read a blank value as 0.
  const read = (name: string): string | undefined =>
    (typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, string>)[name])?.trim();
  const ms = read('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = read('retry-after');
  if (!value) return undefined;
  // An HTTP date starts with its day's name; anything else (`1,5`, `+2`, `-1`) Date.parse may read as a past
  // date, an immediate retry: it counts as absent, so the default backoff applies.
  const wait = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : /^[a-z]{3}/i.test(value) ? Date.parse(value) - now : NaN;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}
