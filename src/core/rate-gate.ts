/**
 * A client's rate gate: every send of every call passes it. A refusal (429, or 503 with `Retry-After`) closes it
 * for every call; waiting calls leave in order, at the pace `rate-pace.ts` learns, booked in the `RateStore`.
 * Open and unpaced, passing costs a few field reads. Why this design: docs/design.md ("The rate gate").
 */
import type { Hook, RateLimitEvent } from './hooks.js';
import { runHook } from './hooks.js';
import type { LevelLogger } from './logger.js';
import type { RateLimitOptions } from './options.js';
import { toldLimit } from './rate-limit-headers.js';
import { Pacer } from './rate-pace.js';
import type { RateState } from './rate-store.js';
import { GuardedStore, isThenable } from './rate-store-guard.js';
import { parseRetryAfter } from './retry-after.js';
import { isRefusal, MAX_RETRY_AFTER_MS, type ResponseHead, type SendGate } from './retry.js';
import type { ClientSettings } from './settings.js';
import { MAX_TIMER_MS, now, type PhaseLimits, type PhaseResult, runPhase } from './timing.js';

/** While starting, this many sends may be in flight unpaced: a lone caller is never held; a crowd is paced. */
const FREE_IN_FLIGHT = 4;
/** The pace is cut at most once in this long, however many refusals come back at once. */
const CUT_GAP_MS = 1000;
/** How long a refusal without `Retry-After` closes the gate. */
const DEFAULT_CLOSE_MS = 1000;
/** How often a shared store is read for what other clients learned. */
const SYNC_MS = 1000;

/** What the gate needs of its client. */
export interface GateContext {
  readonly log: LevelLogger;
  readonly hook: Hook<RateLimitEvent> | undefined;
  /** The longest the gate holds sends on anyone's word: `retry.maxRetryAfterMs`. */
  readonly maxCloseMs: number;
  /** The client's API key when it is a string: its hash names a shared budget. */
  readonly apiKey: string | undefined;
}

export class RateGate implements SendGate {
  readonly #pacer: Pacer;
  readonly #maxConcurrent: number;
  readonly #context: GateContext;
  readonly #store: GuardedStore;
  /** FIFO: a `Set` keeps insertion order and deletes a leaving waiter in O(1). */
  readonly #queue = new Set<() => void>();
  #inFlight = 0;
  #closed = false;
  /** Monotonic. */
  #closedUntil = 0;
  #closedAt = 0;
  /** When the pace was last cut, monotonic. */
  #cutAt = -Infinity;
  /** A booked slot no waiter has used yet, epoch ms. */
  #slot: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #booking = false;
  #syncAt = 0;

  constructor(options: RateLimitOptions, context: GateContext) {
    this.#pacer = new Pacer(options.requestsPerSecond, context.maxCloseMs);
    this.#maxConcurrent = options.maxConcurrent ?? Infinity;
    this.#context = context;
    this.#store = new GuardedStore(options.store, options.key, context.apiKey, context.log);
  }

  /** Calls waiting at the gate. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** True when a send may go now (it is then in flight until {@link report}); false: {@link wait} first. */
  pass(): boolean {
    if (this.#store.shared && now() >= this.#syncAt) this.#sync();
    if (this.#queue.size > 0 || this.#closed || this.#inFlight >= this.#maxConcurrent) return false;
    if (!(this.#free() || this.#pacer.intervalMs(Date.now()) === 0)) return false;
    this.#inFlight++;
    return true;
  }

  /**
   * While starting, a few sends in flight go without a slot. Not with a shared store: there every send books,
   * so that a close another client wrote reaches this one's next send at once.
   */
  #free(): boolean {
    return this.#pacer.starting && this.#inFlight < FREE_IN_FLIGHT && !this.#store.shared;
  }

  /** Waits in line, within the call's signal and deadline; on `done` the send is in flight until {@link report}. */
  async wait(limits: PhaseLimits): Promise<PhaseResult<void>> {
    let released = false;
    const result = await runPhase(
      (abort) =>
        new Promise<void>((resolve) => {
          const waiter = (): void => {
            released = true;
            resolve();
          };
          this.#queue.add(waiter);
          // Aborted or past the deadline: out of the line, and no timer left for an empty one.
          abort.addListener(() => {
            this.#queue.delete(waiter);
            this.#idle();
          });
          this.#pump();
        }),
      limits,
    );
    // Released at the moment the call gave up: the slot is handed back.
    if (result.type !== 'done' && released) this.report(undefined, 0, '');
    return result;
  }

  /** Each passed send ends here: with its response's head, or `undefined` when it got none. `what` names it for the log. */
  report(head: ResponseHead | undefined, sentAt: number, what: string | (() => string)): void {
    this.#inFlight--;
    if (head) {
      if (isRefusal(head)) this.#refused(head, sentAt, what);
      else {
        this.#pacer.accepted(now());
        const told = toldLimit(head.headers, Date.now());
        const closeMs = told && this.#pacer.tell(told);
        if (closeMs) this.#close(closeMs, head.status, what, 'no requests remain');
      }
    }
    if (this.#queue.size > 0) this.#pump();
  }

  /** Milliseconds until the gate reopens; 0 when open. */
  closedForMs(): number {
    return this.#closed ? Math.max(0, this.#closedUntil - now()) : 0;
  }

  #refused(head: ResponseHead, sentAt: number, what: string | (() => string)): void {
    const at = now();
    // A send that left before the last cut was refused at the pace that cut was for: one cut per round, as TCP's.
    if (sentAt >= this.#cutAt && at - this.#cutAt >= CUT_GAP_MS) {
      this.#cutAt = at;
      const basedOn = this.#pacer.pace?.since;
      const pace = this.#pacer.cut(at, Date.now());
      this.#pacer.pace = pace;
      this.#store.tell('setPace', (store, key) => store.setPace(key, pace, basedOn));
    }
    this.#close(parseRetryAfter(head.headers) ?? DEFAULT_CLOSE_MS, head.status, what, 'refused');
  }

  /** Whoever asks to hold sends (a `Retry-After`, a reset, a store) is heeded at most `maxCloseMs`. */
  #capped(ms: number): number {
    return Math.min(ms, this.#context.maxCloseMs);
  }

  #close(asked: number, status: number, what: string | (() => string), why: string): void {
    const ms = this.#capped(asked);
    const until = now() + ms;
    if (until > this.#closedUntil) this.#closedUntil = until;
    this.#store.tell('close', (store, key) => store.close(key, Date.now() + ms));
    if (this.#closed) return;
    this.#closed = true;
    this.#closedAt = now();
    const shown = typeof what === 'function' ? what() : what;
    this.#context.log.log('warn', `rate limit: ${status} (${why}) on ${shown}; every call of this client waits ${Math.round(ms)} ms`);
    this.#emit({ state: 'closed', waitMs: ms, status, request: shown, waiting: this.#queue.size, ratePerSecond: this.#rate() });
  }

  #open(): void {
    this.#closed = false;
    const closedMs = now() - this.#closedAt;
    const rate = this.#rate();
    const pace = rate === undefined ? 'unpaced' : `${Math.round(rate * 10) / 10} requests a second`;
    this.#context.log.log(
      'info',
      `rate limit: open again after ${Math.round(closedMs)} ms; calls waiting: ${this.#queue.size}, leaving at ${pace}`,
    );
    this.#emit({ state: 'open', waitMs: closedMs, status: undefined, request: undefined, waiting: this.#queue.size, ratePerSecond: rate });
  }

  /** The pace now, requests per second; `undefined` when unpaced. */
  #rate(): number | undefined {
    const interval = this.#pacer.intervalMs(Date.now());
    return interval === 0 ? undefined : 1000 / interval;
  }

  /** A hook only hears: its throw, rejection or hang never reaches a call. */
  #emit(event: RateLimitEvent): void {
    const { hook } = this.#context;
    if (!hook) return;
    try {
      runHook('onRateLimit', hook, event, [])?.catch(() => undefined);
    } catch {
      // Ignored, like a logger's failure.
    }
  }

  /** Releases waiters in order, each at its booked slot, while the gate is open and sends may be in flight. */
  #pump(): void {
    while (this.#timer === undefined && !this.#booking && this.#queue.size > 0) {
      if (this.#closed) {
        const left = this.#closedUntil - now();
        if (left > 0) {
          this.#arm(left);
          return;
        }
        this.#open();
      }
      if (this.#inFlight >= this.#maxConcurrent) return;
      if (this.#slot === undefined && !this.#free()) {
        const interval = this.#pacer.intervalMs(Date.now());
        if (interval > 0) {
          const booked = this.#store.book(Date.now(), interval);
          if (isThenable(booked)) {
            this.#booking = true;
            void booked.then((at) => {
              this.#booking = false;
              this.#slot = at;
              this.#pump();
            });
            return;
          }
          this.#slot = booked;
        }
      }
      if (this.#slot !== undefined) {
        // A store's slot is held to the cap, though never below the pace's own interval (`maxCloseMs` may be 0).
        const left = Math.min(this.#slot - Date.now(), Math.max(this.#context.maxCloseMs, this.#pacer.intervalMs(Date.now())));
        if (left > 0) {
          this.#slot = Date.now() + left;
          this.#arm(left);
          return;
        }
        this.#slot = undefined;
      }
      const [next] = this.#queue;
      this.#queue.delete(next!);
      this.#inFlight++;
      next!();
    }
  }

  /** In steps of at most `MAX_TIMER_MS`: each step's {@link pump} arms the next. */
  #arm(ms: number): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
  }

  /** With no one waiting, no timer holds the process: the close and the slot stay as data for the next wait. */
  #idle(): void {
    if (this.#queue.size > 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** What other clients sharing the store learned: a close, a pace. */
  #sync(): void {
    this.#syncAt = now() + SYNC_MS;
    const adopt = (state: RateState | undefined): void => {
      if (!state) return;
      const left = state.closedUntil - Date.now();
      if (left > 0 && now() + left > this.#closedUntil + 1) this.#close(left, 429, 'another client sharing the budget', 'refused');
      const { pace } = state;
      if (pace && pace.since > (this.#pacer.pace?.since ?? -1)) this.#pacer.pace = pace;
    };
    const answer = this.#store.read();
    if (isThenable(answer)) void answer.then(adopt);
    else adopt(answer);
  }
}

/** A client's own rate gate, from its settings; `undefined` with `rateLimit: false`. */
export function rateGateOf(settings: ClientSettings): RateGate | undefined {
  const { rateLimit, log, hooks, retry, apiKey } = settings;
  if (rateLimit === false) return undefined;
  const maxCloseMs = retry?.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  return new RateGate(rateLimit, { log, hook: hooks?.onRateLimit, maxCloseMs, apiKey: typeof apiKey === 'string' ? apiKey : undefined });
}
