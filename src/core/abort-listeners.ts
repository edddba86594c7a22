/**
 * One `abort` listener per signal, however many waits share it: a signal's `addEventListener` walks its list
 * (thousands of calls queued on one signal cost quadratic time) and Node warns past 10 listeners.
 */

interface Listeners {
  readonly each: Set<(reason: unknown) => void>;
  readonly onAbort: () => void;
}

/** Weak: a signal no one holds any more is collected with its entry. */
const bySignal = new WeakMap<AbortSignal, Listeners>();

/**
 * Calls `listener` once when `signal` aborts (never when it already has: check `aborted` first). The returned
 * function removes it; the signal's own listener goes with the last one removed, or with the abort.
 */
export function onAbort(signal: AbortSignal, listener: (reason: unknown) => void): () => void {
  const listeners = bySignal.get(signal) ?? listen(signal);
  listeners.each.add(listener);
  return () => {
    if (!listeners.each.delete(listener) || listeners.each.size > 0 || bySignal.get(signal) !== listeners) return;
    bySignal.delete(signal);
    signal.removeEventListener('abort', listeners.onAbort);
  };
}

function listen(signal: AbortSignal): Listeners {
  const each = new Set<(reason: unknown) => void>();
  const onAbort = (): void => {
    bySignal.delete(signal);
    // A copy: a listener may remove itself, or another, while the abort is told.
    for (const listener of [...each]) listener(signal.reason);
    each.clear();
  };
  const listeners = { each, onAbort };
  bySignal.set(signal, listeners);
  signal.addEventListener('abort', onAbort, { once: true });
  return listeners;
}
