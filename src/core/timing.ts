/**
 * The monotonic clock, and phases (a request, a hook, a sleep) bound by a deadline and a signal, each releasing
 * its timer and abort listener the moment it settles, so a Node process can exit as soon as the work ends.
 * A phase tells its work to stop through an {@link AbortSource}, not an `AbortController`, which costs far more.
 */
import { onAbort } from './abort-listeners.js';

/** The longest delay `setTimeout` honours; a longer one fires at once, so long waits are armed in steps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Monotonic, so a wall-clock change (NTP, DST) neither ends a wait early nor stretches it. */
export function now(): number {
  return performance.now();
}

/**
 * Calls `expired` once {@link now} reaches `deadline` (at once for a NaN one, never for `Infinity`), armed in
 * steps of at most {@link MAX_TIMER_MS}; returns what disarms it. Every time bound of the package is this timer.
 */
export function atDeadline(deadline: number, expired: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const left = deadline - now();
    if (!(left > 0)) expired();
    else if (left !== Infinity) timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * What a phase's work is told to stop by: `aborted`, `reason` and listeners, as an `AbortSignal` has, without
 * one's cost per phase. A real `AbortSignal` (for `fetch`, or anything that wants one) is made only when asked for.
 */
export class AbortSource {
  /** This and `reason` are set by {@link abort} alone. */
  aborted = false;
  reason: unknown;
  readonly #listeners = new Set<(reason: unknown) => void>();
  #controller: AbortController | undefined;

  /** Made on first use, already aborted if this source is, and aborted with it afterwards. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Called once, on abort; as with an `AbortSignal`, never when added after it. */
  addListener(listener: (reason: unknown) => void): void {
    if (!this.aborted) this.#listeners.add(listener);
  }

  removeListener(listener: (reason: unknown) => void): void {
    this.#listeners.delete(listener);
  }

  /** The first abort wins; without a reason it is an `AbortError`, as `AbortController.abort()` gives. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of this.#listeners) listener(reason);
    this.#listeners.clear();
    this.#controller?.abort(reason);
  }
}

export interface PhaseLimits {
  readonly signal?: AbortSignal | undefined;
  /** On {@link now}'s clock; `Infinity` for none. */
  readonly deadline: number;
}

/** Phases never reject: the caller decides what each ending means. */
export type PhaseResult<T> =
  | { readonly type: 'done'; readonly value: T }
  | { readonly type: 'failed'; readonly error: unknown }
  | { readonly type: 'aborted'; readonly reason: unknown }
  | { readonly type: 'deadline' };

/** Settles on abort, deadline or `work`'s end without waiting for `work` to notice: a `fetch` that ignores its signal holds no wait. */
export function runPhase<T>(work: (abort: AbortSource) => Promise<T>, limits: PhaseLimits): Promise<PhaseResult<T>> {
  const { signal, deadline } = limits;
  if (signal?.aborted) return Promise.resolve({ type: 'aborted', reason: signal.reason });

  return new Promise<PhaseResult<T>>((resolve) => {
    const inner = new AbortSource();
    let disarm: (() => void) | undefined;
    let unhear: (() => void) | undefined;
    let settled = false;

    const settle = (result: PhaseResult<T>): void => {
      if (settled) return;
      settled = true;
      disarm?.();
      unhear?.();
      resolve(result);
      // Only running work is aborted (an abort costs an Error and an event), and last, so that work which
      // rejects synchronously on abort finds the phase settled.
      if (result.type === 'aborted') inner.abort(result.reason);
      else if (result.type === 'deadline') inner.abort(new DOMException('Deadline reached', 'TimeoutError'));
    };
    // One listener on the signal however many phases share it (thousands of calls queued on one signal).
    unhear = signal && onAbort(signal, (reason) => settle({ type: 'aborted', reason }));
    // A deadline already past (or NaN: no phase waits forever on one) settles here, before `work` starts.
    disarm = atDeadline(deadline, () => settle({ type: 'deadline' }));
    if (settled) return;
    let running: Promise<T>;
    try {
      running = work(inner);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => settle({ type: 'done', value }),
      (error: unknown) => settle({ type: 'failed', error }),
    );
  });
}

/** Sleeps `ms`, cut short by the caller's signal or the deadline. */
export async function sleepWithin(ms: number, limits: PhaseLimits): Promise<'slept' | 'deadline' | { aborted: unknown }> {
  const wakeAt = now() + ms;
  // A phase whose work never settles: its own timer is the sleep's, cleared like any phase's.
  const result = await runPhase(() => new Promise<never>(() => undefined), { ...limits, deadline: Math.min(wakeAt, limits.deadline) });
  if (result.type === 'aborted') return { aborted: result.reason };
  // Waking at the deadline itself leaves no time for what the sleep was for.
  return wakeAt >= limits.deadline ? 'deadline' : 'slept';
}
