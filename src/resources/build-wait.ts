/**
 * Waiting for a build: the polling schedule, what ends a wait, and what only delays it. Each poll is one
 * attempt, since the schedule owns the retrying. In full: docs/waiting-for-builds.md.
 */ import {
  AbortError,
  ApiError,
  BuildFailedError,
  ConnectionError,
  ResponseValidationError,
  ValidationError,
  WaitTimeoutError,
} from '../core/errors.js';
import { thrownName } from '../core/redact.js';
import { parseRetryAfter } from '../core/retry-after.js';
import type { CoreResponse, HttpCore, ResponseSpec } from '../core/http.js';
import { checkRequestOptions } from '../core/options.js';
import { checked, checkInput, idSegment, looseObject, optional, refine } from '../core/schema.js';
import { MAX_TIMER_MS, now, runPhase, sleepWithin } from '../core/poll.js';
import { nextId, runHook, type Hook, type WaitEvent } from '../core/hooks.js';
import { MAX_RETRY_AFTER_MS } from '../core/retry.js';
import { isHttpUrl } from '../core/url.js';
import { BuildSchema, type Build, type CompletedBuild } from './build.js';

export const DEFAULT_BUILD_POLL_INTERVAL_MS = 2_000;
export const DEFAULT_BUILD_WAIT_TIMEOUT_MS = 600_000;
/** Only failed polls back off: a stalled build is polled at `intervalMs`, so its end is never seen late. */
export const BUILD_POLL_BACKOFF = 1.5;
const DEFAULT_CAP_MS = 10_000;

export const BUILD_FAILURE_STATUSES: readonly string[] = ['failed', 'error', 'cancelled', 'canceled'];

/**
 * What `builds.watch` takes.
 *
 * @example
 * ```ts
 * const options: WatchBuildOptions = { intervalMs: 1000, timeoutMs: 120_000, signal: AbortSignal.timeout(130_000) };
 * for await (const build of client.builds.watch('bld_1', options)) console.log(build.status, build.progress);
 * ```
 */
export interface WatchBuildOptions {
  /**
   * Time from each answer to the next poll, in milliseconds, whatever the progress does, so a finished build is
   * seen at most this long after it finishes. Default 2000. A `Retry-After` from the service may lengthen it.
   */
  intervalMs?: number | undefined;
  /**
   * The longest the interval grows to while polls fail (connection errors, timeouts, 408, 429, 5xx): 1.5x per
   * failed poll, back to `intervalMs` at the next answer. Default: 5x `intervalMs`, at most 10 000 unless
   * `intervalMs` is longer. A `Retry-After` may exceed it. (It no longer applies to a build that stalls.)
   */
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
 *
 * @example
 * ```ts
 * const build = await client.waitForBuild(workflow, {
 *   intervalMs: 2000,
 *   timeoutMs: 600_000,
 *   onProgress: (b) => console.log(`${b.status} ${b.progress ?? ''}`),
 * });
 * ```
 */
export interface WaitForBuildOptions extends WatchBuildOptions {
  /**
   * Called for each new `status` or `progress`, the final state included. It only observes: if it throws or
   * rejects, the logger gets a `warn` line and the wait goes on.
   */
  onProgress?: ((build: Build) => void) | undefined;
}

/**
 * What a wait accepts: a build id, or a workflow (anything with a `build_id`, as `workflows.create` returns).
 *
 * @example
 * ```ts
 * const target: BuildTarget = await client.workflows.create(input); // or 'bld_123'
 * await client.waitForBuild(target);
 * ```
 */
export type BuildTarget =
  | string
  | {
      /** Named in the error when `build_id` is missing, so it says which workflow has no build to follow. */
      readonly id?: string | undefined;
      /** The build to wait for. */
      readonly build_id?: string | null | undefined;
    };

/* @__NO_SIDE_EFFECTS__ */
function positiveMs() {
  return optional(checked<number>('a number greater than 0', (value) => typeof value === 'number' && value > 0 && Number.isFinite(value)));
}

// Loose: `signal`, `headers` and a caller's own options are checked elsewhere or not at all.
const WaitOptionsSchema = looseObject({
  intervalMs: positiveMs(),
  maxIntervalMs: positiveMs(),
  timeoutMs: optional(checked<number>('a number greater than 0 (or Infinity)', (value) => typeof value === 'number' && value > 0)),
  requestTimeoutMs: positiveMs(),
  onProgress: optional(checked<(build: Build) => void>('a function', (value) => typeof value === 'function')),
}).check(
  refine(
    (options: WatchBuildOptions) => (options.maxIntervalMs ?? Infinity) >= (options.intervalMs ?? DEFAULT_BUILD_POLL_INTERVAL_MS),
    'must not be less than intervalMs',
    ['maxIntervalMs'],
  ),
);

interface Schedule {
  intervalMs: number;
  maxIntervalMs: number;
  timeoutMs: number;
  requestTimeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  headers: Record<string, string> | undefined;
  onProgress: ((build: Build) => void) | undefined;
}

export function buildIdOf(target: BuildTarget, caller: string): string {
  let id: unknown = target;
  if (typeof target === 'object' && target !== null) {
    id = target.build_id;
    if (typeof id !== 'string' || id.trim() === '') {
      const which = typeof target.id === 'string' ? ` ${target.id}` : '';
      throw new ValidationError(`workflow${which} passed to ${caller}`, [
        {
          path: ['build_id'],
          message: `is ${id == null ? 'missing' : 'not a non-empty string'}, so there is no build to wait for`,
          code: 'invalid_type',
        },
      ]);
    }
  } else if (typeof target !== 'string') {
    throw new ValidationError(`argument of ${caller}`, [{ path: [], message: 'must be a build id or a workflow', code: 'invalid_type' }]);
  }
  idSegment(id, `build id passed to ${caller}`);
  return id as string;
}

/** Separate from the wait, so `createAndWait` can check before it creates. */
export function checkWaitOptions(options: WaitForBuildOptions | null | undefined, caller: string): Schedule {
  const what = `options of ${caller}`;
  const {
    intervalMs = DEFAULT_BUILD_POLL_INTERVAL_MS,
    maxIntervalMs,
    timeoutMs,
    requestTimeoutMs,
    onProgress,
  } = checkInput(WaitOptionsSchema, options ?? {}, what);
  const { signal, headers } = options ?? {};
  checkRequestOptions({ signal, headers }, what);
  return {
    intervalMs,
    maxIntervalMs: maxIntervalMs ?? Math.min(intervalMs * 5, Math.max(intervalMs, DEFAULT_CAP_MS)),
    timeoutMs: timeoutMs ?? DEFAULT_BUILD_WAIT_TIMEOUT_MS,
    requestTimeoutMs,
    signal,
    headers,
    onProgress,
  };
}

function isTransient(error: unknown): boolean {
  // ConnectionError includes TimeoutError; RateLimitError and InternalServerError are ApiErrors.
  return ConnectionError.is(error) || (ApiError.is(error) && (error.status === 408 || error.status === 429 || error.status >= 500));
}

/**
 * Checked even with `validateResponses: false`: a wait needs a status, and a URL once completed. Run by the
 * core, which puts the call's URL on the error and redacts its body.
 */
function checkPolled(data: unknown): Build {
  const build = data as Build | null | undefined;
  if (typeof build?.status !== 'string') throw pollIssue(data, 'status', 'must be a string');
  // The webhook parser's rule: a download URL is http(s), so a `javascript:` URL never reaches a caller.
  if (ended(build) === 'completed' && !(typeof build.download_url === 'string' && isHttpUrl(build.download_url))) {
    throw pollIssue(data, 'download_url', 'must be an http(s) URL on a completed build');
  }
  return build;
}

const POLLED: ResponseSpec<Build> = { name: 'build', schema: BuildSchema, read: checkPolled };

function pollIssue(body: unknown, field: string, message: string): ResponseValidationError {
  return new ResponseValidationError({
    body,
    issues: [{ path: [field], message, code: 'invalid_type' }],
    method: 'GET',
    url: '',
    what: 'build',
  });
}

/** Any case: `FAILED` is a failure. */
function ended(build: Build): 'completed' | 'failed' | undefined {
  const status = build.status.toLowerCase();
  if (status === 'completed') return 'completed';
  return BUILD_FAILURE_STATUSES.includes(status) ? 'failed' : undefined;
}

/** Status and progress only, never walked into: a hostile `progress` may be nested past any stack. */
function stateKey(build: Build): string {
  const { progress } = build;
  const shown = typeof progress === 'number' || typeof progress === 'string' ? String(progress) : progress == null ? '' : typeof progress;
  return `${build.status}\u0000${shown}`;
}

/** An observer: whatever `onProgress` does (throw, reject, hang), the wait goes on. */
function notify(core: HttpCore, onProgress: ((build: Build) => void) | undefined, build: Build, buildId: string): void {
  if (!onProgress) return;
  const report = (error: unknown) =>
    core.log.log('warn', `onProgress for build ${buildId} failed (${thrownName(error)}); the wait goes on`);
  try {
    const result: unknown = onProgress(build);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') (result as PromiseLike<unknown>).then(undefined, report);
  } catch (error) {
    report(error);
  }
}

function aborted(buildId: string, reason: unknown): AbortError {
  return new AbortError(`Waiting for build ${buildId} was aborted`, { cause: reason });
}

/** Checks target and options outside the generator, so bad ones throw where the call is made. */
export function watchBuild(
  core: HttpCore,
  target: BuildTarget,
  options: WatchBuildOptions | null | undefined,
  caller: string,
): AsyncGenerator<Build, void, undefined> {
  return poll(core, buildIdOf(target, caller), checkWaitOptions(options, caller));
}

/** `hooks.onWait`: a throw ends the wait with the `WfaError` naming it; a promise is awaited within the wait's bounds. */
async function emit(onWait: Hook<WaitEvent>, event: WaitEvent, limits: { signal: AbortSignal | undefined; deadline: number }) {
  const pending = runHook('onWait', onWait, event, []);
  if (!pending) return 'done';
  pending.catch(() => undefined);
  const result = await runPhase(() => pending, limits);
  if (result.type === 'failed') throw result.error;
  return result.type;
}

async function* poll(core: HttpCore, buildId: string, schedule: Schedule): AsyncGenerator<Build, void, undefined> {
  const onWait = core.hooks?.onWait;
  if (!onWait) return yield* polls(core, buildId, schedule, undefined);
  const started = now();
  const wait = { waitId: nextId(), buildId, started, polls: 0 };
  const event = (type: WaitEvent['type'], status?: string, error?: string, outcome?: WaitEvent['outcome']): WaitEvent => ({
    type,
    waitId: wait.waitId,
    buildId,
    poll: wait.polls,
    elapsedMs: now() - started,
    status,
    error,
    outcome,
  });
  let outcome: WaitEvent['outcome'] = 'stopped';
  let status: string | undefined;
  let error: string | undefined;
  const limits = { signal: schedule.signal, deadline: started + schedule.timeoutMs };
  const stopped = (step: string) =>
    step === 'deadline' ? new WaitTimeoutError(buildId, schedule.timeoutMs, undefined) : aborted(buildId, schedule.signal?.reason);
  const step = await emit(onWait, event('start'), limits);
  if (step !== 'done') throw stopped(step);
  try {
    for await (const build of polls(core, buildId, schedule, async (polled, failed) => {
      wait.polls++;
      status = polled?.status ?? status;
      const step = await emit(onWait, event('poll', status, failed), limits);
      if (step !== 'done') throw stopped(step);
    })) {
      const end = ended(build);
      if (end) outcome = end;
      yield build;
    }
  } catch (thrown) {
    outcome = 'error';
    error = thrownName(thrown);
    throw thrown;
  } finally {
    // Not awaited: the wait has ended, and its end must not wait on a hook.
    runHook('onWait', onWait, event('end', status, error, outcome), [])?.catch(() => undefined);
  }
}

async function* polls(
  core: HttpCore,
  buildId: string,
  schedule: Schedule,
  onPoll: ((build: Build | undefined, error: string | undefined) => Promise<void>) | undefined,
): AsyncGenerator<Build, void, undefined> {
  const { signal, headers } = schedule;
  const path = `/builds/${idSegment(buildId, 'build id')}`;
  const deadline = now() + schedule.timeoutMs;
  const limits = { signal, deadline };
  let last: Build | undefined;
  let lastKey: string | undefined;
  let interval = schedule.intervalMs;
  const requestTimeoutMs = schedule.requestTimeoutMs ?? core.timeoutMs;

  const timedOut = () => new WaitTimeoutError(buildId, schedule.timeoutMs, last && core.redactSecrets(last));

  for (;;) {
    let retryAfterMs: number | undefined;
    let response: CoreResponse<Build> | undefined;
    try {
      // One attempt per poll: the schedule owns the retrying. Cut to the time left, so the deadline holds.
      const timeoutMs = Math.max(1, Math.floor(Math.min(requestTimeoutMs, deadline - now(), MAX_TIMER_MS)));
      response = await core.request({
        method: 'GET',
        path,
        route: '/builds/{id}',
        response: POLLED,
        signal,
        timeoutMs,
        headers,
        maxRetries: 0,
      });
    } catch (error) {
      if (AbortError.is(error)) throw aborted(buildId, signal?.reason);
      if (onPoll) await onPoll(undefined, (error as Error).name);
      if (!isTransient(error)) throw error;
      if (now() >= deadline) throw timedOut();
      retryAfterMs = ApiError.is(error) ? error.retryAfterMs : undefined;
      core.log.log('warn', `poll of build ${buildId} failed (${(error as Error).message}); polling on until the deadline`);
    }
    if (response) {
      const build = response.data;
      if (onPoll) await onPoll(build, undefined);
      retryAfterMs = parseRetryAfter(response.response.headers);
      last = build;
      const key = stateKey(build);
      const changed = key !== lastKey;
      lastKey = key;
      const end = ended(build);
      // A wait resolves with `status: 'completed'` as typed, whatever case the service wrote it in.
      const state = end === 'completed' && build.status !== 'completed' ? { ...build, status: 'completed' } : build;
      if (changed) {
        notify(core, schedule.onProgress, state, buildId);
        yield state;
      }
      if (end) return;
    }

    // Progress says nothing about when a build ends, so an answer (moving or not) keeps the interval fixed.
    interval = response ? schedule.intervalMs : Math.min(Math.round(interval * BUILD_POLL_BACKOFF), schedule.maxIntervalMs);
    // A Retry-After is a floor for the next poll, but no longer than the SDK ever sleeps on one.
    const slept = await sleepWithin(Math.max(interval, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)), limits);
    if (slept === 'deadline') throw timedOut();
    if (slept !== 'slept') throw aborted(buildId, slept.aborted);
  }
}

export async function waitForBuild(
  core: HttpCore,
  target: BuildTarget,
  options: WaitForBuildOptions | null | undefined,
  caller: string,
): Promise<CompletedBuild> {
  const buildId = buildIdOf(target, caller);
  let last: Build | undefined;
  for await (last of poll(core, buildId, checkWaitOptions(options, caller)));
  // The poll ends only after yielding a terminal state.
  if (ended(last!) === 'completed') return last as CompletedBuild;
  throw new BuildFailedError(buildId, core.redactSecrets(last!));
}
