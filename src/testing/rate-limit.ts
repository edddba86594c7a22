/**
 * The per-key rate limit: a token bucket per API key, on the service's clock. The service asks only for keys
 * it issued, so made-up keys cannot grow the map.
 */

import type { MockTokenBucket } from './types.js';

/** What the bucket decided for one request. */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a token is free, at least 1; set when refused. */
  retryAfterSeconds?: number;
  /** The rate-limit headers to send, when the service was asked to send them. */
  headers: Record<string, string>;
}

export interface RateLimiter {
  take(key: string): RateDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The advertised policy: `quota` requests per `windowSeconds` whole seconds (a window of 1 unless under 1/s). */
function policy(perSecond: number): { quota: number; windowSeconds: number } {
  const windowSeconds = perSecond >= 1 ? 1 : Math.ceil(1 / perSecond);
  return { quota: Math.max(1, Math.floor(perSecond * windowSeconds)), windowSeconds };
}

export function createRateLimiter(limit: MockTokenBucket, options: { now: () => number; headers: boolean }): RateLimiter {
  const perMs = limit.requestsPerSecond / 1000;
  const capacity = limit.burst ?? Math.max(1, limit.requestsPerSecond);
  const { quota, windowSeconds } = policy(limit.requestsPerSecond);
  const buckets = new Map<string, Bucket>();

  const refill = (bucket: Bucket, at: number): void => {
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, at - bucket.at) * perMs);
    bucket.at = at;
  };

  const headers = (remaining: number, resetSeconds: number): Record<string, string> => {
    if (!options.headers) return {};
    return {
      'ratelimit-policy': `"default";q=${quota};w=${windowSeconds}`,
      ratelimit: `"default";r=${remaining};t=${resetSeconds}`,
      'x-ratelimit-limit': String(quota),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetSeconds),
    };
  };

  return {
    take(key) {
      const at = options.now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: capacity, at };
        buckets.set(key, bucket);
      }
      refill(bucket, at);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        // Until the bucket is full again: when a client may send a whole burst.
        const reset = Math.ceil((capacity - bucket.tokens) / perMs / 1000);
        return { allowed: true, headers: headers(Math.floor(bucket.tokens), reset) };
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
      return { allowed: false, retryAfterSeconds, headers: headers(0, retryAfterSeconds) };
    },
  };
}
