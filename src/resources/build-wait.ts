/**
 * Waiting for a build (`builds.wait`, `builds.watch`): the options, checked before anything is sent, and the
 * polls, one attempt each at a fixed interval, backing off only while they fail, until a terminal state, the
 * deadline or the signal. `hooks.onWait` hears the start, each poll and the end. In full: docs/waiting-for-builds.md.
 */
import { AbortError, ApiError, BuildFailedError, ConnectionError, ValidationError, WaitTimeoutError } from '../core/errors.js';
import type { HttpCore, ResponseSpec } from '../core/http.js';
import { nextId, runHook, type Hook, type WaitEvent } from '../core/hooks.js';
import { observe } from '../core/observe.js';
import { thrownName } from '../core/redact.js';
import { backoff, MAX_RETRY_AFTER_MS, retriedByDefault } from '../core/retry.js';
import { parseRetryAfter } from '../core/retry-after.js';
import { ownFields } from '../core/readable.js';
import { checked, checkInput, idSegment, looseObject, optional, refine, type Schema } from '../core/schema.js';
import { checkRequestOptions, func, milliseconds } from '../core/settings.js';
import { MAX_TIMER_MS, now, runPhase, type PhaseLimits } from '../core/timing.js';
import { BUILD_MODELS, buildEnd, buildSchema, type Build, type CompletedBuild } from './build.js';
import { buildKey, scheduleOf, workflowKey } from './poll-schedule.js';
import { requestOf } from './resource.js';

const DEFAULT_INTERVAL_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_CAP_MS = 10_000;
/** Only failed polls back off: a stalled build is polled at `intervalMs`, so its end is never seen late. */
const BACKOFF = 1.5;

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

// Loose: a caller's own fields pass. The rules are the client's options' (`timeoutMs` may also be `Infinity`);
// `signal` and `headers` are checked as a call's. Built on first use, as the models are.
let waitOptions: Schema<WaitForBuildOptions> | undefined;
const waitOptionsSchema = () =>
  (waitOptions ??= looseObject({
    intervalMs: optional(milliseconds()),
    maxIntervalMs: optional(milliseconds()),
    timeoutMs: optional(checked<number>('a number of milliseconds > 0, or Infinity', (value) => typeof value === 'number' && value > 0)),
    requestTimeoutMs: optional(milliseconds()),
    onProgress: optional(func<(build: Build) => void>()),
  }).check(
    refine(
      (options: WaitForBuildOptions) => (options.maxIntervalMs ?? Infinity) >= (options.intervalMs ?? DEFAULT_INTERVAL_MS),
      'must not be less than intervalMs',
      ['maxIntervalMs'],
    ),
  ));

/** A wait's options, checked, with their defaults. */
export type WaitSettings = WaitForBuildOptions & { intervalMs: number; maxIntervalMs: number; timeoutMs: number };

/** Separate from the wait, so `createAndWait` can check before it creates. */
export function checkWaitOptions(options: WaitForBuildOptions | null | undefined, caller: string): WaitSettings {
  const what = `options of ${caller}`;
  // Read once: what is checked is what is used.
  const given = ownFields(options ?? {}, what);
  const parsed = checkInput(waitOptionsSchema(), given, what);
  const { signal, headers } = given;
  checkRequestOptions({ signal, headers }, what);
  const { intervalMs = DEFAULT_INTERVAL_MS, timeoutMs = DEFAULT_TIMEOUT_MS, requestTimeoutMs, onProgress } = parsed;
  const maxIntervalMs = parsed.maxIntervalMs ?? Math.min(intervalMs * 5, Math.max(intervalMs, DEFAULT_CAP_MS));
  return { intervalMs, maxIntervalMs, timeoutMs, requestTimeoutMs, signal, headers, onProgress };
}

/** The build a wait follows, and its workflow when the caller passed one (deliveries name workflows). */
export interface Target {
  buildId: string;
  workflowId?: string | undefined;
}

/** Checks a target before anything is sent. */
export function targetOf(target: BuildTarget, caller: string): Target {
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
  return { buildId: id, workflowId: isObject && typeof target.id === 'string' ? target.id : undefined };
}

function isTransient(error: unknown): boolean {
  // ConnectionError includes TimeoutError; RateLimitError and InternalServerError are ApiErrors.
  return ConnectionError.is(error) || (ApiError.is(error) && retriedByDefault(error.status));
}

/**
 * `hooks.onWait`, run like every hook: a throw or rejection fails the wait, even after the build completed, and
 * a promise is awaited within the wait's deadline and signal, past which the wait ends as a hung poll would
 * (an `end` after a failure leaves that failure standing).
 */
function waitEvents(onWait: Hook<WaitEvent>, buildId: string, limits: PhaseLimits, stop: (step: 'deadline' | 'aborted') => Error) {
  const waitId = nextId();
  const started = now();
  let poll = 0;
  return async (type: WaitEvent['type'], status?: string, error?: string, outcome?: WaitEvent['outcome']): Promise<void> => {
    if (type === 'poll') poll++;
    const pending = runHook('onWait', onWait, { type, waitId, buildId, poll, elapsedMs: now() - started, status, error, outcome }, []);
    if (!pending) return;
    pending.catch(() => undefined);
    const result = await runPhase(() => pending, limits);
    if (result.type === 'failed') throw result.error;
    if (result.type !== 'done' && outcome !== 'error' && outcome !== 'failed') throw stop(result.type);
  };
}

/**
 * What a wait has seen: its last build, and what removes the secrets its poll's call hid (the key it sent, a
 * per-call key header too), for the errors that quote it.
 */
interface Seen {
  build?: Build | undefined;
  redact?: (<V>(value: V) => V) | undefined;
}

/** Yields each new state, ending after the terminal one; throws on the deadline, an abort, or a lasting error. */
async function* pollBuild(core: HttpCore, target: Target, settings: WaitSettings, seen: Seen = {}): AsyncGenerator<Build, void, undefined> {
  const { buildId } = target;
  const { signal, headers, intervalMs, onProgress } = settings;
  // Wholly checked even with `validateResponses: false`: a wait cannot go on without a status, nor end without a URL.
  const polled: ResponseSpec<Build> = { name: 'build', schema: buildSchema(), always: buildSchema() };
  const request = { ...requestOf('builds.get', BUILD_MODELS, { id: buildId, options: { signal, headers } }), response: polled };
  const limits = { signal, deadline: now() + settings.timeoutMs };
  const stop = (step: 'deadline' | 'aborted') =>
    step === 'deadline'
      ? new WaitTimeoutError(buildId, settings.timeoutMs, seen.build && seen.redact!(seen.build))
      : new AbortError(`Waiting for build ${buildId} was aborted`, { cause: signal?.reason });
  const onWait = core.settings.hooks?.onWait;
  const report = onWait && waitEvents(onWait, buildId, limits, stop);
  if (report) await report('start');
  const polls = scheduleOf(core)!;
  // Filed under the build, and its workflow when known, for deliveries (`builds.notify`) to find.
  const keys = [buildKey(buildId), ...(target.workflowId ? [workflowKey(target.workflowId)] : [])];
  const place = polls.join(...keys);
  let outcome: WaitEvent['outcome'] = 'stopped';
  let failure: string | undefined;
  let lastKey: string | undefined;
  /** Polls failed in a row: each backs the next off. */
  let failed = 0;
  let dueAt = now();
  try {
    for (;;) {
      const turn = await polls.turn(place, dueAt, limits);
      if (turn !== 'go') throw stop(turn === 'deadline' ? 'deadline' : 'aborted');
      // One attempt per poll, its timeout cut to the time left: the schedule owns the retrying and the deadline.
      // The call's deadline is the wait's too, so time held at the client's rate gate cannot outlast the wait.
      const left = Math.max(1, Math.floor(Math.min(limits.deadline - now(), MAX_TIMER_MS)));
      const timeoutMs = Math.max(1, Math.floor(Math.min(settings.requestTimeoutMs ?? core.settings.timeoutMs, left)));
      const polled = await core
        .requestRedacting({ ...request, timeoutMs, deadlineMs: left, maxRetries: 0 })
        .catch((error: unknown) => ({ error }))
        .finally(() => polls.done(place));
      let retryAfterMs: number | undefined;
      if ('error' in polled) {
        const { error } = polled;
        if (AbortError.is(error)) throw stop('aborted');
        if (report) await report('poll', seen.build?.status, (error as Error).name);
        if (!isTransient(error)) throw error;
        if (now() >= limits.deadline) throw stop('deadline');
        core.log.log('warn', `poll of build ${buildId} failed (${(error as Error).message}); polling on until the deadline`);
        retryAfterMs = ApiError.is(error) ? error.retryAfterMs : undefined;
        failed++;
      } else {
        const build = polled.data;
        const workflow = typeof build['workflow_id'] === 'string' && workflowKey(build['workflow_id']);
        if (workflow && !keys.includes(workflow)) keys.push(workflow);
        if (report) await report('poll', build.status);
        seen.build = build;
        seen.redact = polled.redact;
        const end = buildEnd(build.status);
        if (end) outcome = end;
        // Status and progress only: the rest may be nested past any stack.
        const key = `${build.status}\u0000${build.progress ?? ''}`;
        if (key !== lastKey) {
          lastKey = key;
          // A wait resolves with `status: 'completed'` as typed, whatever case the service wrote it in.
          const state = end === 'completed' ? ({ ...build, status: 'completed' } as CompletedBuild) : build;
          // Whatever `onProgress` does (throw, reject, hang), the wait goes on.
          if (onProgress) {
            const failed = (error: unknown) =>
              core.log.log('warn', `onProgress for build ${buildId} failed (${thrownName(error)}); the wait goes on`);
            observe(() => onProgress(state), failed);
          }
          // Out of the schedule while the caller's loop body runs: a `watch` left unfinished holds nothing there.
          polls.leave(place);
          yield state;
          polls.index(place, ...keys);
        }
        if (end) return;
        retryAfterMs = parseRetryAfter(polled.response.headers);
        // Progress says nothing about when a build ends, so a response (moving or not) keeps the interval fixed.
        failed = 0;
      }
      // A Retry-After is a floor for the next poll, but no longer than the SDK ever sleeps on one.
      const interval = backoff(failed, intervalMs, settings.maxIntervalMs, BACKOFF);
      dueAt = now() + Math.max(interval, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
    }
  } catch (thrown) {
    outcome = 'error';
    failure = thrownName(thrown);
    throw thrown;
  } finally {
    polls.leave(place);
    if (report) await report('end', seen.build?.status, failure, outcome);
  }
}

/** `builds.watch`: target and options are checked outside the generator, so bad ones throw where the call is made. */
export function watchBuild(core: HttpCore, target: BuildTarget, options: WatchBuildOptions | null | undefined) {
  return pollBuild(core, targetOf(target, 'builds.watch'), checkWaitOptions(options, 'builds.watch'));
}

/** `builds.wait`: the completed build, or `BuildFailedError` once the build ends in a failure status. */
export async function waitForBuild(core: HttpCore, target: BuildTarget, options: WaitForBuildOptions | null | undefined) {
  return waitChecked(core, targetOf(target, 'waitForBuild'), checkWaitOptions(options, 'waitForBuild'));
}

/** A wait whose target and options are checked already (`builds.waitForAll` checks them all before any wait starts). */
export async function waitChecked(core: HttpCore, target: Target, settings: WaitSettings): Promise<CompletedBuild> {
  let last: Build | undefined;
  const seen: Seen = {};
  for await (last of pollBuild(core, target, settings, seen));
  // The polls end only after yielding a terminal state, a completed one as `completed` whatever its case.
  const build = last!;
  if (build.status === 'completed') return build;
  throw new BuildFailedError(target.buildId, seen.redact!(build));
}
