/**
 * One client's build polls, shared by all its waits: the next due poll first, at most a few in flight, one timer
 * for the lot (none while no wait is queued). A delivery (`builds.notify`) makes the waits it names due at once.
 * Why few in flight, and how that meets a rate gate: docs/design.md, "Many waits, one poll schedule".
 */
import type { HttpCore } from '../core/http.js';
import { MAX_TIMER_MS, now, runPhase, type PhaseLimits } from '../core/timing.js';

/** Polls of one client in flight at once: enough for one poll per round trip to keep up, few enough to queue at a gate. */
export const MAX_POLLS_IN_FLIGHT = 8;

/** One wait's place: when its next poll is due, and whether a delivery already bought it an early one. */
export interface Place {
  dueAt: number;
  seq: number;
  /** In the queue (the heap's index), or -1. */
  index: number;
  /** Set while the wait waits for its turn; `undefined` while it polls, sleeps past its deadline or runs its caller's code. */
  grant: (() => void) | undefined;
  /** Its poll holds one of the slots in flight. */
  holds: boolean;
  /** `pending`: the next poll is due at once; `used`: one was, and further deliveries wait for a scheduled poll. */
  poke: 'none' | 'pending' | 'used';
  readonly keys: Set<string>;
}

/** What a turn ends in: the wait's poll may go, or its deadline or signal came first. */
export type Turn = 'go' | 'deadline' | { aborted: unknown };

const schedules = new WeakMap<HttpCore, PollSchedule>();

/** The client's schedule, made by its first wait. */
export function scheduleOf(core: HttpCore, create = true): PollSchedule | undefined {
  const schedule = schedules.get(core);
  if (schedule || !create) return schedule;
  const made = new PollSchedule();
  schedules.set(core, made);
  return made;
}

/** Keys of the delivery index: a build's id and its workflow's, apart, so neither can name the other. */
export const buildKey = (id: string) => `b:${id}`;
export const workflowKey = (id: string) => `w:${id}`;

export class PollSchedule {
  readonly #heap: Place[] = [];
  readonly #waits = new Map<string, Set<Place>>();
  #inFlight = 0;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(readonly maxInFlight = MAX_POLLS_IN_FLIGHT) {}

  /** A new place, found by deliveries under `keys` until {@link leave}. */
  join(...keys: string[]): Place {
    const place: Place = { dueAt: 0, seq: 0, index: -1, grant: undefined, holds: false, poke: 'none', keys: new Set() };
    this.index(place, ...keys);
    return place;
  }

  /** Files `place` under more keys (a workflow id learnt from a poll). */
  index(place: Place, ...keys: string[]): void {
    for (const key of keys) {
      place.keys.add(key);
      const places = this.#waits.get(key) ?? new Set();
      this.#waits.set(key, places.add(place));
    }
  }

  /** Out of the queue and the index, its slot freed: the wait holds nothing here until it joins again. */
  leave(place: Place): void {
    this.#remove(place);
    this.done(place);
    for (const key of place.keys) {
      const places = this.#waits.get(key);
      places?.delete(place);
      if (places?.size === 0) this.#waits.delete(key);
    }
    place.keys.clear();
  }

  /**
   * Waits for `place`'s turn: `dueAt` passed (at once after a delivery) and a slot free, the most overdue first.
   * After `go`, the wait holds a slot until {@link done}.
   */
  async turn(place: Place, dueAt: number, limits: PhaseLimits): Promise<Turn> {
    const result = await runPhase((abort) => {
      abort.addListener(() => this.#remove(place));
      return new Promise<void>((resolve) => {
        place.grant = resolve;
        place.dueAt = place.poke === 'pending' ? -Infinity : dueAt;
        // A poll due past the deadline is never sent: the wait only listens for a delivery until then.
        if (place.dueAt < limits.deadline) this.#queue(place);
      });
    }, limits);
    place.grant = undefined;
    // No poll is sent at the deadline itself, even when a crowded schedule grants it that late.
    if (result.type === 'done' && now() < limits.deadline) return 'go';
    this.done(place);
    return result.type === 'aborted' ? { aborted: result.reason } : 'deadline';
  }

  /** The wait's poll is answered (or failed): its slot goes to the next due. */
  done(place: Place): void {
    if (!place.holds) return;
    place.holds = false;
    this.#inFlight--;
    this.#pump();
  }

  /**
   * Makes every wait filed under `key` due first, except one whose last poll a delivery already bought: a
   * flood of deliveries, forged or repeated, costs a wait at most one extra poll per scheduled one.
   */
  poke(key: string): number {
    let woken = 0;
    for (const place of this.#waits.get(key) ?? []) {
      if (place.poke === 'used') continue;
      woken++;
      place.poke = 'pending';
      if (!place.grant) continue;
      this.#unqueue(place);
      // Ahead of every poll due, so a delivery is checked at the next free slot, however crowded the schedule.
      place.dueAt = -Infinity;
      this.#queue(place);
    }
    return woken;
  }

  #queue(place: Place): void {
    place.seq = ++this.#seq;
    place.index = this.#heap.length;
    this.#heap.push(place);
    this.#up(place.index);
    this.#pump();
  }

  #remove(place: Place): void {
    this.#unqueue(place);
    this.#pump();
  }

  #unqueue(place: Place): void {
    const i = place.index;
    if (i < 0) return;
    place.index = -1;
    const last = this.#heap.pop()!;
    if (i < this.#heap.length) {
      this.#heap[i] = last;
      last.index = i;
      this.#down(i);
      this.#up(last.index);
    }
  }

  /** Grants every due place a free slot allows, then arms the one timer for the next due, or none. */
  #pump(): void {
    const heap = this.#heap;
    while (this.#inFlight < this.maxInFlight && heap.length > 0 && heap[0]!.dueAt <= now()) {
      const place = heap[0]!;
      this.#unqueue(place);
      this.#inFlight++;
      place.holds = true;
      place.poke = place.poke === 'pending' ? 'used' : 'none';
      place.grant?.();
    }
    const at = this.#inFlight < this.maxInFlight && heap.length > 0 ? heap[0]!.dueAt : Infinity;
    if (at === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = at;
    if (at === Infinity) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.#pump();
      },
      Math.min(Math.max(0, at - now()), MAX_TIMER_MS),
    );
  }

  #less(a: Place, b: Place): boolean {
    return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
  }

  #swap(i: number, j: number): void {
    const heap = this.#heap;
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
    heap[i]!.index = i;
    heap[j]!.index = j;
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(this.#heap[i]!, this.#heap[parent]!)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      let least = i;
      if (left < this.#heap.length && this.#less(this.#heap[left]!, this.#heap[least]!)) least = left;
      if (left + 1 < this.#heap.length && this.#less(this.#heap[left + 1]!, this.#heap[least]!)) least = left + 1;
      if (least === i) return;
      this.#swap(i, least);
      i = least;
    }
  }
}
