/**
 * The abortable, deadline-bound steps of polling loops: each phase (a request or a sleep) owns its timer and
 * its abort listener and releases both the moment it settles, so a poller holds nothing between phases and a
 * Node process can exit as soon as a wait ends.
 */
/**
 * The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days); longer delays fire at once, so
 * longer waits are armed in steps of this size.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The clock deadlines are measured on: monotonic, so a wall-clock change (NTP, DST, a user setting the time)
 * neither ends a wait early nor stretches it.
 */
export function now(): number {
  return performance.now();
}

/** What bounds a phase: the caller's signal and an absolute deadline (on {@link now}'s clock, `Infinity` for none). */
export interface PhaseLimits {
  /** The caller's signal; aborting it ends the phase at once. */
  readonly signal?: AbortSignal | undefined;
  /** The {@link now} value at which the phase ends with `'deadline'`. */
  readonly deadline: number;
}

/** How a phase ended. Phases never reject: the poller decides what each ending means. */
export type PhaseResult<T> =
  | { readonly type: 'done'; readonly value: T }
  | { readonly type: 'failed'; readonly error: unknown }
  | { readonly type: 'aborted'; readonly reason: unknown }
  | { readonly type: 'deadline' };

/**
 * Runs `work` with an inner signal that aborts when the caller's signal aborts or the deadline passes, and
 * settles as soon as any of the three happens, without waiting for `work` to notice (a custom `fetch` that
 * ignores its signal cannot hold a wait past its deadline). On settling, the timer is cleared and the listener
 * removed; when the phase ended before `work` did, the inner signal is aborted so that `work` stops too.
 */
export function runPhase<T>(work: (signal: AbortSignal) => Promise<T>, limits: PhaseLimits): Promise<PhaseResult<T>> {
  const { signal, deadline } = limits;
  if (signal?.aborted) return Promise.resolve({ type: 'aborted', reason: signal.reason });

  return new Promise<PhaseResult<T>>((resolve) => {
    const inner = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;

    const settle = (result: PhaseResult<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
      // Only work that is still running is stopped: after 'done' or 'failed' it has finished, and aborting
      // would cost an Error with its stack and an event on every successful request. Last, so that work which
      // rejects synchronously on abort finds the phase already settled. A deadline aborts with the reason
      // `AbortSignal.timeout()` uses.
      if (result.type === 'aborted') inner.abort(result.reason);
      else if (result.type === 'deadline') inner.abort(new DOMException('Deadline reached', 'TimeoutError'));
    };
    const onAbort = (): void => settle({ type: 'aborted', reason: signal?.reason });
    const arm = (): void => {
      const left = deadline - now();
      // Not `left <= 0`: a NaN deadline counts as passed, so that no phase waits forever on one.
      if (!(left > 0)) settle({ type: 'deadline' });
      else if (left !== Infinity) timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };

    // Not `once`: settling removes the listener whichever way the phase ends.
    signal?.addEventListener('abort', onAbort);
    // A deadline already past settles here, before `work` starts.
    arm();
    if (settled) return;
    let running: Promise<T>;
    try {
      running = work(inner.signal);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => settle({ type: 'done', value }),
      (error: unknown) => settle({ type: 'failed', error }),
    );
  });
}

/**
 * Sleeps `ms`, cut short by the caller's signal or the deadline.
 *
 * @returns `'slept'` when the full time passed, else how the phase ended.
 */
export async function sleepWithin(ms: number, limits: PhaseLimits): Promise<'slept' | 'deadline' | { aborted: unknown }> {
  const wakeAt = now() + ms;
  // A phase with no work to do (it never settles), so it ends at the earlier of the wake-up time and the
  // deadline, or on an abort; its own timer is the sleep's, and is cleared like any phase's.
  const nothing = (): Promise<never> => new Promise(() => undefined);
  const result = await runPhase(nothing, { ...limits, deadline: Math.min(wakeAt, limits.deadline) });
  if (result.type === 'aborted') return { aborted: result.reason };
  return wakeAt > limits.deadline ? 'deadline' : 'slept';
}
