/**
 * One `abort` listener per signal, however many waits share it: a signal's `addEventListener` walks its list
 * (thousands of calls queued on one signal cost quadratic time) and Node warns past 10 listeners.
 */

type Listener = (reason: unknown) => void;

/** A signal's listeners: most signals have one (a call's own), so a `Set` is made only for a second. */
class Listeners {
  readonly #signal: AbortSignal;
  #one: Listener | undefined;
  #more: Set<Listener> | undefined;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
    bySignal.set(signal, this);
    signal.addEventListener('abort', this);
  }

  add(listener: Listener): void {
    if (this.#more) this.#more.add(listener);
    else if (this.#one === undefined) this.#one = listener;
    else {
      this.#more = new Set([this.#one, listener]);
      this.#one = undefined;
    }
  }

  /** Once the last is removed, so is the signal's listener. */
  remove(listener: Listener): void {
    if (this.#one === listener) this.#one = undefined;
    else this.#more?.delete(listener);
    if (this.#one !== undefined || this.#more?.size || bySignal.get(this.#signal) !== this) return;
    bySignal.delete(this.#signal);
    this.#signal.removeEventListener('abort', this);
  }

  /** The signal's one listener (an `EventListener` object, so no closure per signal). */
  handleEvent(): void {
    const signal = this.#signal;
    bySignal.delete(signal);
    signal.removeEventListener('abort', this);
    // A copy: a listener may remove itself, or another, while the abort is told.
    const called = this.#more ? [...this.#more] : this.#one ? [this.#one] : [];
    this.#one = undefined;
    this.#more = undefined;
    for (const listener of called) listener(signal.reason);
  }
}

/** Weak: a signal no one holds any more is collected with its entry. */
const bySignal = new WeakMap<AbortSignal, Listeners>();

/**
 * Calls `listener` once when `signal` aborts (never when it already has: check `aborted` first). The returned
 * function removes it; the signal's own listener goes with the last one removed, or with the abort.
 */
export function onAbort(signal: AbortSignal, listener: Listener): () => void {
  const listeners = bySignal.get(signal) ?? new Listeners(signal);
  listeners.add(listener);
  return () => listeners.remove(listener);
}
