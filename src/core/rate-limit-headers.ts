/**
 * What a response says of its rate limit: the IETF httpapi draft's `RateLimit-Policy` and `RateLimit` (as of
 * draft 8, `"name";q=..;w=..` and `"name";r=..;t=..`; draft 7's `limit=, remaining=, reset=`; the older
 * `RateLimit-Limit/-Remaining/-Reset`), and the common `X-RateLimit-Limit/-Remaining/-Reset`.
 */

/** A response's word on its budget; each field `undefined` when not said. */
export interface ToldLimit {
  /** Requests per second the policy allows (its quota over its window). */
  readonly rate: number | undefined;
  /** Requests left before the service refuses. */
  readonly remaining: number | undefined;
  /** Milliseconds until `remaining` is back to the quota. */
  readonly resetMs: number | undefined;
}

type HeadersLike = { get(name: string): string | null };

// `X-RateLimit-Reset` past 1e9 is an epoch (2001 on), not seconds from now: in seconds up to 1e12 (year 33658),
// in milliseconds past it (1e12 ms is 2001 again), as some services send it.
const EPOCH_SECONDS = 1e9;
const EPOCH_MS = 1e12;

/** The number after `name=` in a header's parameters (`q=20`, `remaining=5`), or `undefined`. */
function param(value: string | null, names: RegExp): number | undefined {
  const found = value === null ? null : names.exec(value);
  return found ? Number(found[1]) : undefined;
}

const count = (value: string | null): number | undefined => {
  const number = value === null ? undefined : Number.parseFloat(value);
  return number !== undefined && Number.isFinite(number) && number >= 0 ? number : undefined;
};

/** The most restrictive policy of a `RateLimit-Policy` (or an old `RateLimit-Limit: 10, 10;w=1`), in requests per second. */
function policyRate(value: string | null): number | undefined {
  if (value === null) return undefined;
  let rate: number | undefined;
  for (const policy of value.split(',')) {
    const quota = param(policy, /(?:^|;)\s*q=(\d+(?:\.\d+)?)/) ?? count(policy.replace(/^\s*"[^"]*"/, ''));
    const window = param(policy, /;\s*w=(\d+(?:\.\d+)?)/);
    if (quota !== undefined && window !== undefined && window > 0) rate = Math.min(rate ?? Infinity, quota / window);
  }
  return rate;
}

/** Reads the rate-limit headers of a response; `undefined` when it has none (most responses of most services). */
export function toldLimit(headers: HeadersLike, nowMs: number): ToldLimit | undefined {
  const current = headers.get('ratelimit');
  const policy = headers.get('ratelimit-policy');
  const remainingOld = headers.get('ratelimit-remaining');
  const remainingX = headers.get('x-ratelimit-remaining');
  if (current === null && policy === null && remainingOld === null && remainingX === null) return undefined;
  const rate = policyRate(policy) ?? policyRate(headers.get('ratelimit-limit'));
  let remaining: number | undefined;
  let reset: number | undefined;
  if (current !== null) {
    remaining = param(current, /(?:^|[;,\s])(?:r|remaining)=(\d+)/);
    reset = param(current, /(?:^|[;,\s])(?:t|reset)=(\d+(?:\.\d+)?)/);
  } else if (remainingOld !== null) {
    remaining = count(remainingOld);
    reset = count(headers.get('ratelimit-reset'));
  } else {
    remaining = count(remainingX);
    reset = count(headers.get('x-ratelimit-reset'));
    if (reset !== undefined && reset > EPOCH_SECONDS) reset = Math.max(0, (reset > EPOCH_MS ? reset / 1000 : reset) - nowMs / 1000);
  }
  return { rate, remaining, resetMs: reset === undefined ? undefined : reset * 1000 };
}
