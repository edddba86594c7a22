/**
 * A shared `RateStore`, asked within a time bound: while it throws, rejects or is slow, the gate's own memory
 * store stands in for a while, with one warning per outage, so no call fails or waits because of the store.
 */
import type { LevelLogger } from './logger.js';
import { thrownName } from './redact.js';
import { sha256Hex } from './sha256.js';
import { memoryRateStore, type RatePace, type RateState, type RateStore } from './rate-store.js';
import { now } from './timing.js';

/** A store call unanswered this long (and one turn of the event loop more) is a failing store. */
const STORE_TIMEOUT_MS = 250;
/** After a store failed, the gate paces on its own at most this long before asking it again. */
const STORE_RETRY_MS = 5000;

/** A booked slot, or a throw: a store answering anything but a finite number is a failing store. */
function slotOf(answer: unknown): number {
  if (typeof answer !== 'number' || !Number.isFinite(answer)) throw new TypeError('the store answered no time');
  return answer;
}

/** A plain copy of the store's state, or a throw: a state that cannot be read is a failing store. */
function stateOf(answer: unknown): RateState {
  const { closedUntil, pace } = answer as RateState;
  if (pace == null) return { closedUntil: slotOf(closedUntil), pace: undefined };
  const { rate, since, growth }: RatePace = pace;
  return { closedUntil: slotOf(closedUntil), pace: { rate: slotOf(rate), since: slotOf(since), growth: slotOf(growth) } };
}

export const isThenable = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

export class GuardedStore {
  /** The given store; `undefined` for the default, the gate's own. */
  readonly shared: RateStore | undefined;
  readonly #local = memoryRateStore();
  readonly #log: LevelLogger;
  #key: string | undefined;
  #downUntil = 0;
  #failing = false;
  /** A late answer since the last answer in time already sent asks back to the store. */
  #resumed = false;

  constructor(shared: RateStore | undefined, key: string | undefined, apiKey: string | undefined, log: LevelLogger) {
    this.shared = shared;
    this.#key = key;
    this.#log = log;
    if (shared && key === undefined) void this.#hashKey(apiKey);
  }

  /** The epoch ms the next send may go at, booked in the shared store or, without one, in the gate's own. */
  book(nowMs: number, intervalMs: number): number | PromiseLike<number> {
    const local = () => this.#local.book('', nowMs, intervalMs, 1) as number;
    return this.#ask('book', (store, key) => store.book(key, nowMs, intervalMs, 1), slotOf, local);
  }

  /** Fire and forget: the gate's state already changed; the store tells the others. */
  tell(what: string, ask: (store: RateStore, key: string) => unknown): void {
    if (!this.shared) return;
    const ignore = () => undefined;
    const answer = this.#ask(what, ask, ignore, ignore);
    if (answer) void answer.then(undefined, ignore);
  }

  /** The shared state, or `undefined` without a working store. */
  read(): RateState | undefined | PromiseLike<RateState | undefined> {
    return this.#ask<RateState | undefined>(
      'read',
      (store, key) => store.read(key),
      stateOf,
      () => undefined,
    );
  }

  /**
   * Asks the shared store, or `fallback` while it is failing (or has no key yet). A throw, a rejection, an answer
   * `take` cannot read or no answer within {@link STORE_TIMEOUT_MS} falls back too; nothing here throws or rejects.
   */
  #ask<T>(what: string, ask: (store: RateStore, key: string) => unknown, take: (answer: unknown) => T, fallback: () => T): T | Promise<T> {
    const store = this.shared;
    const key = this.#key;
    if (!store || key === undefined || now() < this.#downUntil) return fallback();
    try {
      // Every touch of the answer is in here: a store may answer a revoked Proxy or a `then` getter that throws.
      const answer = ask(store, key);
      return isThenable(answer) ? this.#await(what, answer, take, fallback) : take(answer);
    } catch (error) {
      this.#failed(what, thrownName(error));
      return fallback();
    }
  }

  #await<T>(what: string, answer: PromiseLike<unknown>, take: (answer: unknown) => T, fallback: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      let state: 'asked' | 'answered' | 'late' = 'asked';
      const fail = (error: unknown) => {
        clearTimeout(timer);
        if (state === 'asked') {
          this.#failed(what, thrownName(error));
          resolve(fallback());
        }
        state = 'answered';
      };
      // A timer fires late when the event loop was busy, before the loop reads the reply the store sent in
      // time: one more turn (a zero delay runs after the loop's I/O) tells a busy process from a slow store.
      const timer = setTimeout(() => {
        setTimeout(() => {
          if (state !== 'asked') return;
          state = 'late';
          this.#failed(what, `no answer within ${STORE_TIMEOUT_MS} ms`);
          resolve(fallback());
        }, 0);
      }, STORE_TIMEOUT_MS);
      const answered = (value: unknown) => {
        if (state === 'answered') return;
        let taken: T;
        try {
          taken = take(value);
        } catch (error) {
          fail(error);
          return;
        }
        clearTimeout(timer);
        if (state === 'asked') {
          this.#answered();
          resolve(taken);
        } else if (!this.#resumed) {
          // A first late answer shows a working store, a loaded one: it is asked again at once. Late again
          // before an answer in time, it is slow: the gate paces alone until the retry.
          this.#resumed = true;
          this.#downUntil = 0;
        }
        state = 'answered';
      };
      try {
        answer.then(answered, fail);
      } catch (error) {
        fail(error);
      }
    });
  }

  /** An answer in time ends the outage, so a store late again and again warns once. */
  #answered(): void {
    this.#resumed = false;
    if (!this.#failing) return;
    this.#failing = false;
    this.#log.log('info', 'rate store: answering again; the budget is shared again');
  }

  /**
   * `reason`: the error's name only, since a store's message may quote its URL, password included. The store
   * is asked again after {@link STORE_RETRY_MS}, or at a first late answer.
   */
  #failed(what: string, reason: string): void {
    this.#downUntil = now() + STORE_RETRY_MS;
    if (this.#failing) return;
    this.#failing = true;
    this.#log.log(
      'warn',
      `rate store: ${what} failed (${reason}); pacing on this client alone until it answers (at most ${STORE_RETRY_MS} ms)`,
    );
  }

  /** A shared budget's default name: a hash of the API key, never the key itself. */
  async #hashKey(apiKey: string | undefined): Promise<void> {
    if (apiKey === undefined || !globalThis.crypto?.subtle) {
      this.#log.log(
        'warn',
        'rateLimit.store without rateLimit.key, and no string apiKey to name the budget by: pacing on this client alone',
      );
      return;
    }
    // A store puts its own prefix before it (`wfa:rate:` on Redis).
    this.#key = (await sha256Hex(new TextEncoder().encode(apiKey))).slice(0, 32);
  }
}
