/**
 * The values of `wfa mock`'s fault and timing options, read into the mock service's options. A value that
 * does not read is a usage error, with the usage line.
 */
import type { MockDurationRange, MockTokenBucket } from '../testing/index.js';
import { UsageError } from './errors.js';

const PER_UNIT_S: Record<string, number> = { s: 1, m: 60 };

/** `--rate-limit`: `20/s`, `600/m` or a bare `20` (per second). */
export function rateLimitOption(value: string | undefined, usage: string): MockTokenBucket | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(?:\/(s|m))?$/.exec(value.trim());
  const perSecond = match ? Number(match[1]) / (PER_UNIT_S[match[2] ?? 's'] ?? 1) : Number.NaN;
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
    throw new UsageError(`--rate-limit must be requests per second or minute greater than 0, such as 20/s or 600/m, got "${value}"`, usage);
  }
  return { requestsPerSecond: perSecond };
}

/** `--build-ms`: milliseconds (`3000`), or a range each build's duration is drawn from (`3000-10000`). */
export function buildMsOption(value: string | undefined, usage: string): number | MockDurationRange | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || !Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
    throw new UsageError(`--build-ms must be milliseconds (3000) or a range (3000-10000), got "${value}"`, usage);
  }
  return match[2] === undefined ? min : { min, max };
}
