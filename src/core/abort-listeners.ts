/**
 * One `abort` listener per signal, however many waits share it: a signal's `addEventListener` walks its list
 * (thousands of calls queued on one signal cost quadratic time) and Node warns past 10 listeners.
 */

type Listener = (reason: unknown) => void;

/** A signal's listeners; weak, so a signal no one holds any more is collected with its entry. */
const bySignal = new WeakMap<AbortSignal, { each: Set<Listener>; heard: () => void }>();

/**
 * Calls `listener` once when `signal` aborts (never when it already has: check `aborted` first). The returned
 * function removes it; the signal's own listener goes with the last one removed, or with the abort.
 */
export function onAbort(signal: AbortSignal, listener: Listener): () => void {
  let entry = bySignal.get(signal);
  if (!entry) {
    const each = new Set<Listener>();
    const heard = (): void => {
      bySignal.delete(signal);
      // A copy: a listener may remove another while the abort is told; each still hears it.
      for (const told of [...each]) told(signal.reason);
    };
    entry = { each, heard };
    bySignal.set(signal, entry);
    signal.addEventListener('abort', heard, { once: true });
  }
  const { each, heard } = entry;
  each.add(listener);
  return () => {
    if (each.delete(listener) && !each.size && bySignal.get(signal)?.each === each) {
      bySignal.delete(signal);
      signal.removeEventListener('abort', heard);
    }
  };
}
