/**
 * Where a rate gate keeps the state it may share with other clients and processes: the booked send slots, the
 * time the budget is closed until, and the learned pace. The learning itself is the gate's (`rate-gate.ts`).
 * Times here are epoch milliseconds (`Date.now()`), the only clock processes share.
 */

/** A budget's pace: what every client sharing it computes the same interval between sends from. */
export interface RatePace {
  /** Requests per second allowed at `since`. */
  readonly rate: number;
  /** When the rate was set, in epoch milliseconds. */
  readonly since: number;
  /** Requests per second added each second after `since` (additive increase); 0 for a rate the service told. */
  readonly growth: number;
}

/** What a store holds for one budget. */
export interface RateState {
  /** No send may go before this time, in epoch milliseconds; 0 when the budget was never closed. */
  readonly closedUntil: number;
  /** The learned pace, or `undefined` until a client sharing the budget learns one. */
  readonly pace: RatePace | undefined;
}

/**
 * Where a client's rate gate keeps a budget's shared state: in this process's memory ({@link memoryRateStore},
 * the default) or across processes (Redis). Each method must be atomic against every client sharing the store.
 * A method may answer synchronously or with a promise; one that rejects, throws, is slow or answers what cannot be
 * read (`book` not a finite number, `read` not a state of finite numbers) never fails a call:
 * the gate then paces on its own for a while and logs one warning.
 *
 * @example
 * ```ts
 * const store = memoryRateStore();
 * new Client({ rateLimit: { store, key: 'ci' } }); // clients given one store and one key share one budget
 * ```
 */
export interface RateStore {
  /**
   * Books the next send slot of `key` and returns when it may go, in epoch milliseconds (at most `nowMs`: at
   * once). Slots are `intervalMs` apart, up to `burst` of them at once after a quiet spell, and none before the
   * key's `closedUntil` (GCRA: the theoretical arrival time moves on by `intervalMs` per booking). A booked
   * slot is spent even if no request uses it.
   */
  book(key: string, nowMs: number, intervalMs: number, burst: number): number | PromiseLike<number>;
  /** The key's state; `{ closedUntil: 0, pace: undefined }` for a key never written. */
  read(key: string): RateState | PromiseLike<RateState>;
  /** Closes `key` until `untilMs`, unless it is already closed until later; the next slot is not before it. */
  close(key: string, untilMs: number): void | PromiseLike<void>;
  /**
   * Sets the key's pace only if the stored pace's `since` is still `basedOn` (`undefined`: none stored), so two
   * clients cutting the same pace for the same refusal cut it once. True when set.
   */
  setPace(key: string, pace: RatePace, basedOn: number | undefined): boolean | PromiseLike<boolean>;
}

interface Budget {
  /** GCRA's theoretical arrival time of the next send. */
  tat: number;
  closedUntil: number;
  pace: RatePace | undefined;
}

const NEVER_WRITTEN: RateState = { closedUntil: 0, pace: undefined };

/** Budgets one memory store keeps; past it, the least recently booked is forgotten (keys are few: one per API key). */
const MAX_KEYS = 1000;

/**
 * A {@link RateStore} in this process's memory, answering synchronously. Each client has its own by default;
 * give one to several clients (with the same `key`) to share a budget within the process.
 */
export function memoryRateStore(): RateStore {
  const budgets = new Map<string, Budget>();
  const budget = (key: string): Budget => {
    let found = budgets.get(key);
    if (!found) {
      if (budgets.size >= MAX_KEYS) budgets.delete(budgets.keys().next().value!);
      found = { tat: 0, closedUntil: 0, pace: undefined };
      budgets.set(key, found);
    }
    return found;
  };
  return {
    book(key, nowMs, intervalMs, burst) {
      const b = budget(key);
      const start = Math.max(nowMs, b.closedUntil);
      const at = Math.max(start, b.tat - (burst - 1) * intervalMs);
      b.tat = Math.max(b.tat, start) + intervalMs;
      return at;
    },
    read: (key) => budgets.get(key) ?? NEVER_WRITTEN,
    close(key, untilMs) {
      const b = budget(key);
      b.closedUntil = Math.max(b.closedUntil, untilMs);
    },
    setPace(key, pace, basedOn) {
      const b = budget(key);
      if (b.pace?.since !== basedOn) return false;
      b.pace = pace;
      return true;
    },
  };
}
