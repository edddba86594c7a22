/**
 * A build wait's polling schedule: one attempt per poll at a fixed interval, backing off only while polls fail,
 * until a terminal state, the deadline or the signal. `hooks.onWait` hears its start, each poll and its end.
 */
import { AbortError, ApiError, ConnectionError, ResponseValidationError, WaitTimeoutError } from '../core/errors.js';
import type { CoreResponse, HttpCore, ResponseSpec } from '../core/http.js';
import { nextId, runHook, type Hook, type WaitEvent } from '../core/hooks.js';
import { thrownName } from '../core/redact.js';
import { MAX_RETRY_AFTER_MS } from '../core/retry.js';
import { parseRetryAfter } from '../core/retry-after.js';
import { idSegment } from '../core/schema.js';
import { MAX_TIMER_MS, now, runPhase, sleepWithin, type PhaseLimits } from '../core/timing.js';
import { isHttpUrl } from '../core/url.js';
import { BUILD_FAILURE_STATUSES, type Build, type CompletedBuild } from './build.js';

/** Only failed polls back off: a stalled build is polled at `intervalMs`, so its end is never seen late. */
const BACKOFF = 1.5;

/** A wait's options, checked, with their defaults. */
export interface Schedule {
  intervalMs: number;
  maxIntervalMs: number;
  timeoutMs: number;
  requestTimeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  headers: Record<string, string> | undefined;
  onProgress: ((build: Build) => void) | undefined;
}

/** Any case: `FAILED` is a failure. */
function ended(build: Build): 'completed' | 'failed' | undefined {
  const status = build.status.toLowerCase();
  if (status === 'completed') return 'completed';
  return BUILD_FAILURE_STATUSES.includes(status) ? 'failed' : undefined;
}

/**
 * Checked even with `validateResponses: false`: a wait needs a status, and a URL once completed in any case.
 * The core puts the call's URL on the error and redacts its body.
 */
function checkPolled(data: unknown): Build {
  const build = data as Build | null | undefined;
  let issue: [field: string, message: string] | undefined;
  if (typeof build?.status !== 'string') issue = ['status', 'must be a string'];
  // The webhook parser's rule: a download URL is http(s), so a `javascript:` URL never reaches a caller.
  else if (ended(build) === 'completed' && !(typeof build.download_url === 'string' && isHttpUrl(build.download_url)))
    issue = ['download_url', 'must be an http(s) URL on a completed build'];
  if (!issue) return build as Build;
  const [field, message] = issue;
  throw new ResponseValidationError({
    body: data,
    issues: [{ path: [field], message, code: 'invalid_type' }],
    method: 'GET',
    url: '',
    what: 'build',
  });
}

// One attempt per poll: the schedule owns the retrying.
const POLLED: ResponseSpec<Build> = { name: 'build', read: checkPolled };
const POLL = { method: 'GET', route: '/builds/{id}', response: POLLED, maxRetries: 0 } as const;

function isTransient(error: unknown): boolean {
  // ConnectionError includes TimeoutError; RateLimitError and InternalServerError are ApiErrors.
  return ConnectionError.is(error) || (ApiError.is(error) && (error.status === 408 || error.status === 429 || error.status >= 500));
}

/** Status and progress only, never walked into: a hostile `progress` may be nested past any stack. */
function stateKey(build: Build): string {
  const { progress } = build;
  const shown = typeof progress === 'number' || typeof progress === 'string' ? String(progress) : progress == null ? '' : typeof progress;
  return `${build.status}\u0000${shown}`;
}

/** An observer: whatever `onProgress` does (throw, reject, hang), the wait goes on. */
function notify(core: HttpCore, schedule: Schedule, build: Build, buildId: string): void {
  if (!schedule.onProgress) return;
  const report = (error: unknown) =>
    core.log.log('warn', `onProgress for build ${buildId} failed (${thrownName(error)}); the wait goes on`);
  try {
    const result: unknown = schedule.onProgress(build);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') (result as PromiseLike<unknown>).then(undefined, report);
  } catch (error) {
    report(error);
  }
}

type Stop = (step: 'deadline' | 'aborted') => Error;

/**
 * `hooks.onWait`, run like every hook: a throw or rejection fails the wait with the `WfaError` naming it, even
 * after the build completed, and a promise is awaited within the wait's deadline and signal. Past those, the
 * wait ends as a hung poll would, except that an `end` after a failure leaves that failure standing.
 */
function waitEvents(onWait: Hook<WaitEvent>, buildId: string, limits: PhaseLimits, stop: Stop) {
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

/** Yields each new state, ending after the terminal one; throws on the deadline, an abort, or a lasting error. */
export async function* pollBuild(core: HttpCore, buildId: string, schedule: Schedule): AsyncGenerator<Build, void, undefined> {
  const { signal, headers } = schedule;
  const path = `/builds/${idSegment(buildId, 'build id')}`;
  const limits = { signal, deadline: now() + schedule.timeoutMs };
  const requestTimeoutMs = schedule.requestTimeoutMs ?? core.settings.timeoutMs;
  let last: Build | undefined;
  let lastKey: string | undefined;
  let interval = schedule.intervalMs;
  const timedOut = () => new WaitTimeoutError(buildId, schedule.timeoutMs, last && core.redactSecrets(last));
  const aborted = (reason: unknown) => new AbortError(`Waiting for build ${buildId} was aborted`, { cause: reason });
  const onWait = core.settings.hooks?.onWait;
  const report = onWait && waitEvents(onWait, buildId, limits, (step) => (step === 'deadline' ? timedOut() : aborted(signal?.reason)));
  if (report) await report('start');
  let outcome: WaitEvent['outcome'] = 'stopped';
  let failure: string | undefined;
  try {
    for (;;) {
      let retryAfterMs: number | undefined;
      let response: CoreResponse<Build> | undefined;
      try {
        // Cut to the time left, so the deadline holds.
        const timeoutMs = Math.max(1, Math.floor(Math.min(requestTimeoutMs, limits.deadline - now(), MAX_TIMER_MS)));
        response = await core.request({ ...POLL, path, signal, timeoutMs, headers });
      } catch (error) {
        if (AbortError.is(error)) throw aborted(signal?.reason);
        if (report) await report('poll', last?.status, (error as Error).name);
        if (!isTransient(error)) throw error;
        if (now() >= limits.deadline) throw timedOut();
        retryAfterMs = ApiError.is(error) ? error.retryAfterMs : undefined;
        core.log.log('warn', `poll of build ${buildId} failed (${(error as Error).message}); polling on until the deadline`);
      }
      if (response) {
        const build = response.data;
        if (report) await report('poll', build.status);
        retryAfterMs = parseRetryAfter(response.response.headers);
        last = build;
        const key = stateKey(build);
        const changed = key !== lastKey;
        lastKey = key;
        const end = ended(build);
        // A wait resolves with `status: 'completed'` as typed, whatever case the service wrote it in.
        const state = end === 'completed' && build.status !== 'completed' ? ({ ...build, status: 'completed' } as CompletedBuild) : build;
        if (end) outcome = end;
        if (changed) {
          notify(core, schedule, state, buildId);
          yield state;
        }
        if (end) return;
      }
      // Progress says nothing about when a build ends, so a response (moving or not) keeps the interval fixed.
      interval = response ? schedule.intervalMs : Math.min(Math.round(interval * BACKOFF), schedule.maxIntervalMs);
      // A Retry-After is a floor for the next poll, but no longer than the SDK ever sleeps on one.
      const slept = await sleepWithin(Math.max(interval, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)), limits);
      if (slept === 'deadline') throw timedOut();
      if (slept !== 'slept') throw aborted(slept.aborted);
    }
  } catch (thrown) {
    outcome = 'error';
    failure = thrownName(thrown);
    throw thrown;
  } finally {
    if (report) await report('end', last?.status, failure, outcome);
  }
}
