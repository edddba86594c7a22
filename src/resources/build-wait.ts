/**
 * `builds.wait` and `builds.watch`: what they take, checked before anything is sent, and how a wait ends. The
 * schedule is in `build-poll.ts`; in full: docs/waiting-for-builds.md.
 */
import { BuildFailedError, ValidationError } from '../core/errors.js';
import type { HttpCore } from '../core/http.js';
import { checkRequestOptions } from '../core/settings.js';
import { checked, checkInput, idSegment, looseObject, optional, refine } from '../core/schema.js';
import type { Build, CompletedBuild } from './build.js';
import { pollBuild, type Schedule } from './build-poll.js';

const DEFAULT_INTERVAL_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_CAP_MS = 10_000;

/**
 * What `builds.watch` takes.
 */
export interface WatchBuildOptions {
  /** Milliseconds from each response to the next poll, whatever the progress. Default 2000; a `Retry-After` may lengthen it. */
  intervalMs?: number | undefined;
  /** The longest the interval grows to while polls fail (1.5x per failed poll). Default: 5x `intervalMs`, at most 10 000 unless `intervalMs` is longer. */
  maxIntervalMs?: number | undefined;
  /** The whole wait's deadline in milliseconds. Default 600 000 (10 minutes); `Infinity` for none. */
  timeoutMs?: number | undefined;
  /** Time allowed for each poll request. Default: the client's `timeoutMs`. Always cut to the time left. */
  requestTimeoutMs?: number | undefined;
  /** Ends the wait with `AbortError` (the signal's reason as `cause`), at once, whatever it is doing. */
  signal?: AbortSignal | undefined;
  /** Extra headers sent with each poll. */
  headers?: Record<string, string> | undefined;
}

/**
 * What `client.waitForBuild` and `builds.wait` take.
 */
export interface WaitForBuildOptions extends WatchBuildOptions {
  /** Called for each new `status` or `progress`, the final one included. If it throws or rejects, the logger gets a `warn` line and the wait goes on. */
  onProgress?: ((build: Build) => void) | undefined;
}

/**
 * What a wait accepts: a build id, or a workflow (anything with a `build_id`, as `workflows.create` returns).
 */
export type BuildTarget =
  | string
  | {
      /** Named in the error when `build_id` is missing, so it says which workflow has no build to follow. */
      readonly id?: string | undefined;
      /** The build to wait for. */
      readonly build_id?: string | null | undefined;
    };

// The client's options' words for the same kind of value.
const MS = 'a number of milliseconds > 0';
const positive = (value: unknown): value is number => typeof value === 'number' && value > 0;
// Marked, like the literal (not template) messages, so that a bundle without waits drops the schema and zod.
/* @__NO_SIDE_EFFECTS__ */
function milliseconds() {
  return optional(checked<number>(MS, (value) => positive(value) && Number.isFinite(value)));
}

// Loose: a caller's own fields pass; `signal` and `headers` are the per-call options' and checked by their rules.
const WaitOptionsSchema = looseObject({
  intervalMs: milliseconds(),
  maxIntervalMs: milliseconds(),
  timeoutMs: optional(checked<number>('a number of milliseconds > 0, or Infinity', positive)),
  requestTimeoutMs: milliseconds(),
  onProgress: optional(checked<(build: Build) => void>('a function', (value) => typeof value === 'function')),
}).check(
  refine(
    (options: WatchBuildOptions) => (options.maxIntervalMs ?? Infinity) >= (options.intervalMs ?? DEFAULT_INTERVAL_MS),
    'must not be less than intervalMs',
    ['maxIntervalMs'],
  ),
);

/** Separate from the wait, so `createAndWait` can check before it creates. */
export function checkWaitOptions(options: WaitForBuildOptions | null | undefined, caller: string): Schedule {
  const what = `options of ${caller}`;
  const parsed = checkInput(WaitOptionsSchema, options ?? {}, what);
  const { signal, headers } = options ?? {};
  checkRequestOptions({ signal, headers }, what);
  const { intervalMs = DEFAULT_INTERVAL_MS, timeoutMs = DEFAULT_TIMEOUT_MS, requestTimeoutMs, onProgress } = parsed;
  const maxIntervalMs = parsed.maxIntervalMs ?? Math.min(intervalMs * 5, Math.max(intervalMs, DEFAULT_CAP_MS));
  return { intervalMs, maxIntervalMs, timeoutMs, requestTimeoutMs, signal, headers, onProgress };
}

function buildIdOf(target: BuildTarget, caller: string): string {
  const isObject = typeof target === 'object' && target !== null;
  const id: unknown = isObject ? target.build_id : target;
  if (isObject && (typeof id !== 'string' || id.trim() === '')) {
    const which = typeof target.id === 'string' ? ` ${target.id}` : '';
    const message = `is ${id == null ? 'missing' : 'not a non-empty string'}, so there is no build to wait for`;
    throw new ValidationError(`workflow${which} passed to ${caller}`, [{ path: ['build_id'], message, code: 'invalid_type' }]);
  }
  if (typeof id !== 'string') {
    throw new ValidationError(`argument of ${caller}`, [{ path: [], message: 'must be a build id or a workflow', code: 'invalid_type' }]);
  }
  idSegment(id, `build id passed to ${caller}`);
  return id;
}

/** Checks target and options outside the generator, so bad ones throw where the call is made. */
export function watchBuild(core: HttpCore, target: BuildTarget, options: WatchBuildOptions | null | undefined, caller: string) {
  return pollBuild(core, buildIdOf(target, caller), checkWaitOptions(options, caller));
}

/** `builds.wait`: the completed build, or `BuildFailedError` once the build ends in a failure status. */
export async function waitForBuild(
  core: HttpCore,
  target: BuildTarget,
  options: WaitForBuildOptions | null | undefined,
  caller: string,
): Promise<CompletedBuild> {
  const buildId = buildIdOf(target, caller);
  let last: Build | undefined;
  for await (last of pollBuild(core, buildId, checkWaitOptions(options, caller)));
  // The poll ends only after yielding a terminal state, a completed one as `completed` whatever its case.
  const build = last!;
  if (build.status === 'completed') return build;
  throw new BuildFailedError(buildId, core.redactSecrets(build));
}
