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

describe('an answer that cannot be read is a failing store', () => {
  const boom = (): never => {
    throw new Error('store tok_x');
  };
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  /** Thenables built without a `then` literal: the attack is the `then` itself. */
  const thenThrows = () => Object.defineProperty({}, 'then', { value: boom });
  const thenGetterThrows = () => Object.defineProperty({}, 'then', { get: boom });
  const odd: Record<string, () => unknown> = {
    'a thenable whose then throws': thenThrows,
    'a thenable whose then getter throws': thenGetterThrows,
    'a revoked Proxy': revoked,
    'an object whose valueOf throws': () => ({ valueOf: boom }),
    'a BigInt': () => 1n,
    'a Symbol': () => Symbol('x'),
    'a promise of a BigInt': () => Promise.resolve(1n),
    'a string': () => '4000000000000',
    NaN: () => Number.NaN,
  };

  for (const [label, answer] of Object.entries(odd)) {
    it(`book answering ${label}: the gate books alone, with one warning`, async () => {
      const store = { ...memoryRateStore(), book: answer } as unknown as RateStore;
      const { guard, lines } = guarded(store);
      const askedAt = Date.now();
      const booked = book(guard);
      await vi.advanceTimersByTimeAsync(1);
      expect(booked.value).toBe(askedAt);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[wfa\] rate store: book failed \(\w+\); pacing on this client alone/);
    });
  }

  const oddStates: Record<string, () => unknown> = {
    ...odd,
    null: () => null,
    'a closedUntil getter that throws': () => ({
      get closedUntil() {
        return boom();
      },
      pace: undefined,
    }),
    'a revoked pace': () => ({ closedUntil: 0, pace: revoked() }),
    'a promise of a BigInt closedUntil': () => Promise.resolve({ closedUntil: 0n, pace: undefined }),
    'a pace with a Symbol rate': () => ({ closedUntil: 0, pace: { rate: Symbol('r'), since: 0, growth: 0 } }),
  };

  for (const [label, answer] of Object.entries(oddStates)) {
    it(`read answering ${label}: no shared state, with one warning`, async () => {
      const store = { ...memoryRateStore(), read: answer } as unknown as RateStore;
      const { guard, lines } = guarded(store);
      const seen: { value: unknown } = { value: 'unset' };
      void Promise.resolve(guard.read()).then((state) => {
        seen.value = state;
      });
      await vi.advanceTimersByTimeAsync(1);
      expect(seen.value).toBeUndefined();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[wfa\] rate store: read failed/);
    });
  }

  it('a state read is a plain copy of its numbers', async () => {
    const pace = { rate: 5, since: 1, growth: 0.5 };
    const store: RateStore = { ...memoryRateStore(), read: () => Promise.resolve({ closedUntil: 7, pace }) };
    const { guard } = guarded(store);
    await expect(guard.read()).resolves.toEqual({ closedUntil: 7, pace });
  });

  it('tell: a store answering a revoked Proxy or a throwing then getter is a failing store, not a throw', async () => {
    const { guard, lines } = guarded({ ...memoryRateStore(), setPace: revoked } as unknown as RateStore);
    expect(() => guard.tell('setPace', (store, key) => store.setPace(key, { rate: 1, since: 0, growth: 0 }, undefined))).not.toThrow();
    const other = guarded({ ...memoryRateStore(), close: thenGetterThrows } as unknown as RateStore);
    expect(() => other.guard.tell('close', (store, key) => store.close(key, 0))).not.toThrow();
    await vi.advanceTimersByTimeAsync(1);
    expect(lines).toHaveLength(1);
    expect(other.lines).toHaveLength(1);
  });
});
