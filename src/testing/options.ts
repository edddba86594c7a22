/**
 * The checks of `createMockService`'s options: a wrong value is a `RangeError` naming the option, when the
 * mock is created rather than on the first request.
 */

import { checkArtifactOptions } from './artifacts.js';
import type { MockServiceOptions } from './types.js';

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(`createMockService: ${message}`);
}

const isDuration = (ms: unknown): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;

function checkRateLimit({ rateLimit, rateLimitHeaders }: MockServiceOptions): void {
  if (rateLimit && 'requestsPerSecond' in rateLimit) {
    const { requestsPerSecond, burst = 1 } = rateLimit;
    check(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0, 'rateLimit.requestsPerSecond must be a number > 0');
    check(Number.isInteger(burst) && burst >= 1, 'rateLimit.burst must be an integer >= 1');
  } else {
    if (rateLimit) check(Number.isInteger(rateLimit.every) && rateLimit.every >= 1, 'rateLimit.every must be an integer >= 1');
    check(!rateLimitHeaders, 'rateLimitHeaders needs a token-bucket rateLimit ({ requestsPerSecond })');
  }
}

export function checkOptions(options: MockServiceOptions): void {
  const { buildDurationMs = 0, latencyMs = 0, errorRate = 0, ordersPerUser = 0 } = options;
  if (typeof buildDurationMs === 'object') {
    const { min, max } = buildDurationMs;
    check(isDuration(min) && isDuration(max) && min <= max, 'buildDurationMs must be { min, max } with 0 <= min <= max');
  } else check(isDuration(buildDurationMs), 'buildDurationMs must be a number >= 0');
  check(isDuration(latencyMs), 'latencyMs must be a number >= 0');
  check(errorRate >= 0 && errorRate <= 1, 'errorRate must be between 0 and 1');
  const { failBuilds } = options;
  if (typeof failBuilds === 'number')
    check(failBuilds >= 0 && failBuilds <= 1, 'failBuilds must be true, false, a function or between 0 and 1');
  check(Number.isInteger(ordersPerUser) && ordersPerUser >= 0, 'ordersPerUser must be an integer >= 0');
  checkArtifactOptions(options.artifacts ?? {}, check);
  checkRateLimit(options);
  const { webhookRetryDelaysMs = [] } = options;
  check(webhookRetryDelaysMs.every(isDuration), 'webhookRetryDelaysMs must be a list of numbers >= 0');
}
