/**
 * The options of every command that waits for a build (`wait-build`, `workflows create --wait`), read the
 * same way by both.
 */
import { BuildFailedError, WaitTimeoutError } from '../core/errors.js';
import type { WaitForBuildOptions } from '../index.js';
import { durationOption } from './args.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { createProgressDisplay, type ProgressDisplay } from './progress.js';

export const WAIT_OPTIONS = {
  timeout: { type: 'string' },
  interval: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export const WAIT_HELP = [
  '  --timeout <duration>   give up after this long (default 10m)',
  '  --interval <duration>  time from each response to the next poll, whatever the progress (default 2s)',
  '  -q, --quiet            no progress on stderr',
  '',
  '  Durations: a number of seconds (90), or with a unit: 500ms, 30s, 5m, 1h.',
].join('\n');

export const WAIT_EXIT_CODES_HELP = `Exit codes:\n${EXIT_CODES_HELP}`;

/**
 * The waiting options of a command that waits only with `--wait` (`workflows create`, `builds download`):
 * without it, `--timeout` and `--interval` would be ignored, so they are a usage error, whatever their value.
 */
export function waitSettingsIfAsked(
  values: Parameters<typeof waitSettings>[0] & { wait?: boolean | undefined },
  context: Context,
  buildId: string | (() => string),
  usage: string,
): ReturnType<typeof waitSettings> | undefined {
  if (values.wait) return waitSettings(values, context, buildId);
  if (values.timeout !== undefined || values.interval !== undefined) {
    throw new UsageError('--timeout and --interval only apply with --wait', usage);
  }
  return undefined;
}

/** What the waiting options ask for, as SDK wait options plus a progress display on stderr. */
export function waitSettings(
  values: { timeout?: string | undefined; interval?: string | undefined; quiet?: boolean | undefined },
  context: Context,
  buildId: string | (() => string),
): { options: WaitForBuildOptions; display: ProgressDisplay } {
  const timeoutMs = durationOption(values.timeout, '--timeout');
  const intervalMs = durationOption(values.interval, '--interval');
  // A "dumb" terminal cannot erase a line, so it gets the plain lines a log gets.
  const mode = context.env['TERM'] === 'dumb' ? 'lines' : 'auto';
  const display: ProgressDisplay = values.quiet
    ? { update() {}, finish() {} }
    : createProgressDisplay(context.stderr, { label: buildId, mode });
  return {
    options: { timeoutMs, intervalMs, signal: context.signal, onProgress: (build) => display.update(build) },
    display,
  };
}

/**
 * The last state of the build a failed or timed-out wait saw, if any. JSON output prints it even then, so
 * that a script has the build's `error` and `logs` to hand; the exit code says how the wait ended.
 */
export function lastBuildOf(error: unknown): { readonly status: string; readonly [key: string]: unknown } | undefined {
  if (BuildFailedError.is(error) || WaitTimeoutError.is(error)) return error.build;
  return undefined;
}
