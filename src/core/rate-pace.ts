/**
 * How fast a rate gate releases sends, learned: a slow start clocked by accepted responses until a limit is
 * met, then additive increase and multiplicative decrease on refusals; or the rate the service's headers tell.
 * The reasons and figures: docs/design.md ("The rate gate").
 */
import type { ToldLimit } from './rate-limit-headers.js';
import type { RatePace } from './rate-store.js';

/** The slow start's first rate, in requests per second. */
const START_RATE = 20;
/** Added per accepted response during the slow start: the rate doubles about every 140 ms of sending, clocked by answers as TCP's window. */
const START_STEP = 5;
/** At or above this rate nothing is paced: the gate only watches. */
export const UNPACED_RATE = 10_000;
/** A refusal cuts the rate to this share of what the service was accepting. */
const DECREASE = 0.8;
/** After a cut the rate grows by this share of the cut rate each second (additive increase). */
const GROWTH_SHARE = 0.02;
/** Below this no pace goes: a service that slow says so with `Retry-After`, which closes the gate instead. */
const MIN_RATE = 0.1;
/** What a refusal's cut compares the pace with: the responses accepted over this long. */
const WINDOW_MS = 1000;

/** The rate of a pace at `nowMs`. */
export function rateAt(pace: RatePace, nowMs: number): number {
  return pace.rate + (pace.growth * Math.max(0, nowMs - pace.since)) / 1000;
}

export class Pacer {
  /** The user's `requestsPerSecond`, or `Infinity`. */
  readonly #ceiling: number;
  #slowStart = START_RATE;
  /** Learned from refusals, here or by a client sharing the store. */
  pace: RatePace | undefined;
  /** Told by the service's headers: it wins over what was learned. */
  #told: number | undefined;
  // Accepted responses in the current and the previous window, for a sliding count.
  #windowStart = 0;
  #thisWindow = 0;
  #lastWindow = 0;

  /** The longest interval, the gate's longest close: no pace told holds a send longer than a refusal could. */
  readonly #maxIntervalMs: number;

  constructor(requestsPerSecond: number | undefined, maxIntervalMs: number) {
    this.#ceiling = requestsPerSecond ?? Infinity;
    this.#maxIntervalMs = maxIntervalMs;
  }

  /** Before anything is learned or told: the slow start, which leaves a few sends in flight unpaced. */
  get starting(): boolean {
    return this.pace === undefined && this.#told === undefined && this.#ceiling === Infinity;
  }

  /** Requests per second allowed now (`nowMs` epoch); at or above {@link UNPACED_RATE}, unpaced. */
  rate(nowMs: number): number {
    if (this.#told !== undefined) return Math.min(this.#ceiling, this.#told);
    if (this.pace) return Math.min(this.#ceiling, rateAt(this.pace, nowMs));
    // A quota the user gave is the pace from the first send: no slow start under it.
    return this.starting ? this.#slowStart : this.#ceiling;
  }

  /** Milliseconds between sends now; 0 when unpaced. */
  intervalMs(nowMs: number): number {
    const rate = this.rate(nowMs);
    // A small `maxIntervalMs` (even 0) never undoes the user's ceiling nor a learned pace (at least MIN_RATE).
    return rate >= UNPACED_RATE ? 0 : Math.min(1000 / rate, Math.max(this.#maxIntervalMs, 1000 / this.#ceiling, 1000 / MIN_RATE));
  }

  /** A response the service did not refuse, at `at` on the monotonic clock. */
  accepted(at: number): void {
    if (this.starting) this.#slowStart += START_STEP;
    if (at - this.#windowStart >= WINDOW_MS) {
      this.#lastWindow = at - this.#windowStart < 2 * WINDOW_MS ? this.#thisWindow : 0;
      this.#thisWindow = 0;
      this.#windowStart = at;
    }
    this.#thisWindow++;
  }

  /** Responses accepted over the last {@link WINDOW_MS}, the previous window weighted by its overlap with it. */
  #acceptedLately(at: number): number {
    const age = at - this.#windowStart;
    if (age >= 2 * WINDOW_MS) return 0;
    if (age >= WINDOW_MS) return this.#thisWindow * (2 - age / WINDOW_MS);
    return this.#thisWindow + this.#lastWindow * (1 - age / WINDOW_MS);
  }

  /**
   * The pace after a refusal. Without a pace yet, the cut starts from what was accepted over the last second
   * (the slow start's rate overshot it); after, from the pace itself, so clients sharing it cut the same pace.
   */
  cut(at: number, nowMs: number): RatePace {
    const current = this.rate(nowMs);
    const accepted = this.#acceptedLately(at);
    const from = this.pace === undefined && accepted > 0 ? Math.min(current, accepted) : current;
    const rate = Math.max(MIN_RATE, from * DECREASE);
    return { rate, since: nowMs, growth: Math.max(MIN_RATE, rate * GROWTH_SHARE) };
  }

  /**
   * What the service's headers say: a policy's rate, else what remains spread until the reset. Returns how
   * long to close when nothing remains and no rate says when the next request may go.
   */
  tell(limit: ToldLimit): number | undefined {
    const { rate, remaining, resetMs } = limit;
    if (rate !== undefined && rate > 0) this.#told = rate;
    else if (remaining !== undefined && resetMs !== undefined && resetMs > 0) {
      if (remaining === 0) return resetMs;
      this.#told = remaining / (resetMs / 1000);
    }
    return undefined;
  }
}
