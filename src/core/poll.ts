/**
 * The abortable, deadline-bound building blocks of polling loops.
 *
 * A poller alternates two kinds of step: a request and a sleep. Each step here is a *phase* that owns
 * everything it starts (one timer for the deadline, one abort listener on the caller's signal, one inner
 * `AbortController` handed to the work) and releases all of it the moment the phase settles, whichever way it
 * settles. Between phases a poller holds nothing: a suspended async generator, or a caller that abandons a
 * wait, keeps no timer and no listener alive. That is what lets a Node process exit as soon as a wait ends.
 *
 * Timers are deliberately *not* `unref()`'d: a sleeping wait in a script with nothing else to do must keep the
 * process alive until the wait ends, and correctness comes from clearing timers, not from unref.
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

/** Why the inner signal of a phase was aborted when the deadline, not the caller, ended it. */
export class DeadlineReached extends Error {
  constructor() {
    super('The deadline was reached');
    this.name = 'DeadlineReached';
  }
}

/**
 * Runs `work` with an inner signal that aborts when the caller's signal aborts or the deadline passes, and
 * settles as soon as any of the three happens, without waiting for `work` to notice (a custom `fetch` that
 * ignores its signal cannot hold a wait past its deadline). On settling, the timer is cleared and the listener
 * removed; when the phase ended before `work` did, the inner signal is aborted so that `work` stops too.
 */
export function runPhase<T>(work: (signal: AbortSignal) => Promise<T>, limits: PhaseLimits): Promise<PhaseResult<T>> {
  const { signal, deadline } = limits;
  if (signal?.aborted) return Promise.resolve({ type: 'aborted', reason: signal.reason });
  if (deadline - now() <= 0) return Promise.resolve({ type: 'deadline' });

  return new Promise<PhaseResult<T>>((resolve) => {
    const inner = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;

    const settle = (result: PhaseResult<T>): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
      // Only work that is still running is stopped: after 'done' or 'failed' it has finished, and aborting
      // would cost an Error with its stack and an event on every successful request. Last, so that work which
      // rejects synchronously on abort finds the phase already settled.
      if (result.type === 'aborted') inner.abort(result.reason);
      else if (result.type === 'deadline') inner.abort(new DeadlineReached());
    };
    const onAbort = (): void => settle({ type: 'aborted', reason: signal?.reason });
    const arm = (): void => {
      timer = undefined;
      const left = deadline - now();
      if (left <= 0) settle({ type: 'deadline' });
      else if (left !== Infinity) timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };

    signal?.addEventListener('abort', onAbort, { once: true });
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
 * Resolves after `ms`, or at once when `signal` aborts (it never rejects: the phase around it reports the
 * abort). The timer is cleared and the listener removed either way.
 */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const stop = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Sleeps `ms`, cut short by the caller's signal or the deadline.
 *
 * @returns `'slept'` when the full time passed, else how the phase ended.
 */
export async function sleepWithin(ms: number, limits: PhaseLimits): Promise<'slept' | 'deadline' | { aborted: unknown }> {
  const result = await runPhase((inner) => delay(ms, inner), limits);
  if (result.type === 'aborted') return { aborted: result.reason };
  if (result.type === 'deadline') return 'deadline';
  return 'slept';
}
