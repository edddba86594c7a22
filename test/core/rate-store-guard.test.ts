/**
 * A shared rate store asked within a bound, on a fake clock: what counts as the store being slow (not the
 * event loop being busy), how long the gate paces alone after it failed, and the one warning per outage.
 */
import { describe, expect, it, vi } from 'vitest';
import { LevelLogger } from '../../src/core/logger.js';
import { memoryRateStore, type RateStore } from '../../src/core/rate-store.js';
import { GuardedStore } from '../../src/core/rate-store-guard.js';
import { useFakeClock } from '../helpers/clock.js';
import { captureLogger } from '../helpers/logger.js';

useFakeClock();

/** A store whose bookings the test answers, one by one, as a socket's replies would arrive. */
function heldStore() {
  const asked: ((at: number) => void)[] = [];
  const store: RateStore = {
    ...memoryRateStore(),
    book: () => new Promise<number>((resolve) => asked.push(resolve)),
  };
  return { store, asked };
}

function guarded(store: RateStore) {
  const { lines, logger } = captureLogger();
  const guard = new GuardedStore(store, 'ci', undefined, new LevelLogger(logger, 'info'));
  return { guard, lines };
}

/** The booking's answer as the gate sees it. */
function book(guard: GuardedStore): { value: number | undefined } {
  const seen: { value: number | undefined } = { value: undefined };
  void Promise.resolve(guard.book(Date.now(), 100)).then((at) => {
    seen.value = at;
  });
  return seen;
}

const SHARED_SLOT = 4_000_000_000_000;

describe('what counts as a slow store', () => {
  it('not a busy event loop: an answer that was in by the time the bound fired is taken', async () => {
    const { store, asked } = heldStore();
    const { guard, lines } = guarded(store);
    const booked = book(guard);
    // The loop was busy past the bound: its timers run first, then the reply Redis sent in time is read.
    vi.advanceTimersByTime(250);
    asked[0]!(SHARED_SLOT);
    await vi.advanceTimersByTimeAsync(1);
    expect(booked.value).toBe(SHARED_SLOT);
    expect(lines).toEqual([]);
  });

  it('a store that has not answered by the bound and one more turn of the loop is slow: the gate books alone', async () => {
    const { store, asked } = heldStore();
    const { guard, lines } = guarded(store);
    const askedAt = Date.now();
    const booked = book(guard);
    await vi.advanceTimersByTimeAsync(251);
    expect(booked.value).toBe(askedAt);
    asked[0]!(SHARED_SLOT);
    expect(lines).toEqual([
      '[wfa] rate store: book failed (no answer within 250 ms); pacing on this client alone until it answers (at most 5000 ms)',
    ]);
  });
});

describe('pacing alone after the store failed', () => {
  it('a slow store that answers late is asked again at once: loaded but healthy, it stays shared', async () => {
    const { store, asked } = heldStore();
    const { guard, lines } = guarded(store);
    book(guard);
    await vi.advanceTimersByTimeAsync(300);
    book(guard);
    expect(asked).toHaveLength(1);
    asked[0]!(SHARED_SLOT);
    await vi.advanceTimersByTimeAsync(100);
    const again = book(guard);
    expect(asked).toHaveLength(2);
    asked[1]!(SHARED_SLOT + 100);
    await vi.advanceTimersByTimeAsync(1);
    expect(again.value).toBe(SHARED_SLOT + 100);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('[wfa] rate store: answering again; the budget is shared again');
  });

  it('a store late twice in a row is slow: the gate paces alone until the retry, with one warning', async () => {
    const { store, asked } = heldStore();
    const { guard, lines } = guarded(store);
    for (let i = 0; i < 3; i++) {
      book(guard);
      await vi.advanceTimersByTimeAsync(300);
      asked[i]?.(SHARED_SLOT);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5_000);
    book(guard);
    expect(asked).toHaveLength(3);
    expect(lines).toHaveLength(1);
  });

  it('late, then in time, then late: each late answer sends asks back to the store', async () => {
    const { store, asked } = heldStore();
    const { guard } = guarded(store);
    for (const lateMs of [300, 10, 300, 10]) {
      book(guard);
      await vi.advanceTimersByTimeAsync(lateMs);
      asked.at(-1)!(SHARED_SLOT);
      await vi.advanceTimersByTimeAsync(1);
    }
    book(guard);
    expect(asked).toHaveLength(5);
  });

  it('a store that never answers is asked again after 5 s, with no second warning', async () => {
    const { store, asked } = heldStore();
    const { guard, lines } = guarded(store);
    book(guard);
    await vi.advanceTimersByTimeAsync(4_000);
    book(guard);
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_300);
    book(guard);
    expect(asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(300);
    expect(lines).toHaveLength(1);
  });

  it('a store that rejects (down) is asked again after 5 s, and its late answers are none', async () => {
    let calls = 0;
    const store: RateStore = {
      ...memoryRateStore(),
      book: () => {
        calls++;
        return Promise.reject(new Error('ECONNREFUSED'));
      },
    };
    const { guard, lines } = guarded(store);
    book(guard);
    await vi.advanceTimersByTimeAsync(4_999);
    book(guard);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(2);
    book(guard);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(lines).toEqual(['[wfa] rate store: book failed (Error); pacing on this client alone until it answers (at most 5000 ms)']);
  });
});
