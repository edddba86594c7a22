/** `Retry-After` as the retry loop, build waits and `ApiError.retryAfterMs` read it, and the request id. */

/** A `Headers` as it is (every build poll reads one: no copy), or a record with lower-case names. */
type HeaderSource = Record<string, string> | { get(name: string): string | null };

/** A header's value, trimmed: `Number(' ')` would read a blank `Retry-After` as 0. */
function headerOf(headers: HeaderSource, name: string): string | undefined {
  return (typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, string>)[name])?.trim();
}

/** The service's request id, for support tickets: `x-request-id`, else `request-id`. */
export function requestIdOf(headers: HeaderSource): string | undefined {
  return headerOf(headers, 'x-request-id') ?? headerOf(headers, 'request-id');
}

/** The wait a response asks for, in milliseconds: `retry-after-ms`, else `Retry-After` (seconds or an HTTP date). */
export function parseRetryAfter(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = headerOf(headers, 'retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headerOf(headers, 'retry-after');
  if (!value) return undefined;
  // An HTTP date starts with its day's name; anything else (`1,5`, `+2`, `-1`) Date.parse may read as a past
  // date, an immediate retry: it counts as absent, so the default backoff applies.
  const wait = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : /^[a-z]{3}/i.test(value) ? Date.parse(value) - now : NaN;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}
