/**
 * The values of `wfa mock`'s fault and timing options, read into the mock service's options. A value that
 * does not read is a usage error (the command adds its usage line).
 */
import type { MockDurationRange, MockTokenBucket, MockWorkflow } from '../testing/index.js';
import { UsageError } from './errors.js';

const PER_UNIT_S: Record<string, number> = { s: 1, m: 60 };

/** `--rate-limit`: `20/s`, `600/m` or a bare `20` (per second). */
export function rateLimitOption(value: string | undefined): MockTokenBucket | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(?:\/(s|m))?$/.exec(value.trim());
  const perSecond = match ? Number(match[1]) / (PER_UNIT_S[match[2] ?? 's'] ?? 1) : Number.NaN;
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
    throw new UsageError(`--rate-limit must be requests per second or minute greater than 0, such as 20/s or 600/m, got "${value}"`);
  }
  return { requestsPerSecond: perSecond };
}

/** `--build-ms`: milliseconds (`3000`), or a range each build's duration is drawn from (`3000-10000`). */
export function buildMsOption(value: string | undefined): number | MockDurationRange | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || !Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
    throw new UsageError(`--build-ms must be milliseconds (3000) or a range (3000-10000), got "${value}"`);
  }
  return match[2] === undefined ? min : { min, max };
}

/** `--error-rate`: the share of requests, from 0 to 1, answered 500, 502 or 503. */
export function errorRateOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = /^\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new UsageError(`--error-rate must be a number from 0 to 1, such as 0.05, got "${value}"`);
  return rate;
}

/**
 * `--fail-builds`: `all`, a share from 0 to 1 (`0.2`), or a pattern the workflow's whole name must match,
 * where `*` is any text (`*nightly*`).
 */
export function failBuildsOption(value: string | undefined): boolean | number | ((workflow: MockWorkflow) => boolean) {
  if (value === undefined) return false;
  const text = value.trim();
  if (text === 'all') return true;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const share = Number(text);
    if (share <= 1) return share;
  } else if (text !== '') {
    return (workflow) => matchesGlob(text, workflow.name);
  }
  throw new UsageError(`--fail-builds must be all, a share from 0 to 1 (0.2) or a workflow name pattern (*nightly*), got "${value}"`);
}

/**
 * Whether the whole of `text` is `pattern`, where each `*` is any text. Each piece between stars is searched
 * once, leftmost first, which is enough for `*` alone: no backtracking, so a name sent by any client cannot
 * stall the mock (a regular expression of many `.*` can).
 */
export function matchesGlob(pattern: string, text: string): boolean {
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1] ?? '';
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
