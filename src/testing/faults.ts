/**
 * Failures on demand, for testing retries and error handling: queued failures (`failNext`), a 429 on every
 * Nth request, and a share of 500s, 502s and 503s drawn from a seeded random stream so a test sees the same failures on
 * every run. The per-key token bucket is `rate-limit.ts`.
 */

import type { Random } from './random.js';
import type { FailNextOptions, MockEveryNth } from './types.js';

/**
 * Thrown by `handle()` for a request that `failNext(n, 'network')` marked: the faces turn it into a dropped
 * connection (msw's `HttpResponse.error()`, a destroyed socket on the HTTP server), which a client sees as a
 * network error rather than an HTTP status.
 *
 * @example
 * ```ts
 * service.failNext(1, 'network');
 * await expect(service.handle(request)).rejects.toBeInstanceOf(MockNetworkError);
 * ```
 */
export class MockNetworkError extends Error {
  constructor() {
    super('The mock service dropped the connection (failNext with "network")');
    this.name = 'MockNetworkError';
  }
}

const ERROR_RATE_STATUSES = [500, 502, 503] as const;

/** What to do instead of the usual response. */
export type Fault = { kind: 'network' } | { kind: 'status'; status: number; message: string; retryAfterSeconds?: number };

export interface Faults {
  failNext(count: number, status: number | 'network', options: FailNextOptions): void;
  /** The fault for the request being handled, if any; counts the request. */
  next(): Fault | undefined;
}

export function createFaults(config: { errorRate?: number; rateLimit?: MockEveryNth | undefined; random: Random }): Faults {
  const queue: Fault[] = [];
  let requests = 0;
  return {
    failNext(count, status, options) {
      if (!Number.isInteger(count) || count < 0) throw new RangeError('failNext: count must be an integer >= 0');
      if (status !== 'network' && (!Number.isInteger(status) || status < 400 || status > 599)) {
        throw new RangeError('failNext: status must be an HTTP error status (400-599) or "network"');
      }
      const fault: Fault =
        status === 'network'
          ? { kind: 'network' }
          : {
              kind: 'status',
              status,
              message: options.message ?? `Failure injected by the mock service (status ${status})`,
              retryAfterSeconds: options.retryAfterSeconds ?? (status === 429 ? 1 : undefined),
            };
      for (let i = 0; i < count; i++) queue.push(fault);
    },
    next() {
      requests += 1;
      // Drawn for every request, so whether request N fails depends only on N and the seed.
      const draw = config.random.next();
      const queued = queue.shift();
      if (queued) return queued;
      const { rateLimit, errorRate = 0 } = config;
      if (rateLimit && rateLimit.every > 0 && requests % rateLimit.every === 0) {
        return {
          kind: 'status',
          status: 429,
          message: 'Too many requests',
          retryAfterSeconds: rateLimit.retryAfterSeconds ?? 1,
        };
      }
      if (draw < errorRate) {
        // The same draw picks the status, evenly among the three a service and its gateway send most.
        const status = ERROR_RATE_STATUSES[Math.floor((draw / errorRate) * ERROR_RATE_STATUSES.length)] ?? 500;
        return { kind: 'status', status, message: `Failure injected by errorRate (status ${status})` };
      }
      return undefined;
    },
  };
}
