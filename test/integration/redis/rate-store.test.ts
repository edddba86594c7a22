/**
 * `redisRateStore` on a real redis-server, through ioredis and node-redis, held to the `RateStore` contract
 * beside `memoryRateStore`: the same calls give the same answers. The clock is the caller's (`nowMs`), so
 * every figure is exact. Then what only Redis has: its keys, their expiry, and a client that is not connected.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryRateStore, type RateStore } from '../../../src/index.js';
import { redisRateStore } from '../../../src/redis/index.js';
import { startRedis, type RedisServer } from '../../helpers/redis.js';

const connectNodeRedis = (url: string) => createClient({ url }).connect();
let redis: RedisServer;
let io: Redis;
let node: Awaited<ReturnType<typeof connectNodeRedis>>;
beforeAll(async () => {
  redis = await startRedis();
  io = new Redis(redis.url, { lazyConnect: true });
  await io.connect();
  node = await connectNodeRedis(redis.url);
});
afterAll(async () => {
  await io?.quit();
  await node?.quit();
  await redis?.stop();
});

/** The contract's fields of a state (a store may hold more). */
const stateOf = async (store: RateStore, key: string) => {
  const { closedUntil, pace } = await store.read(key);
  return { closedUntil, pace };
};

const T = 1_764_250_000_000; // an epoch millisecond: the store's times are Date.now()'s
let keys = 0;
const freshKey = () => `budget-${++keys}`;

const stores: [string, () => RateStore][] = [
  ['memoryRateStore', () => memoryRateStore()],
  ['redisRateStore over ioredis', () => redisRateStore(io)],
  ['redisRateStore over node-redis', () => redisRateStore(node)],
];

describe.each(stores)('%s keeps the RateStore contract', (_name, makeStore) => {
  test('a key never written reads as never closed, with no pace', async () => {
    expect(await stateOf(makeStore(), freshKey())).toEqual({ closedUntil: 0, pace: undefined });
  });

  test('book: a burst at once, then one slot per interval; after a quiet spell, a burst again', async () => {
    const store = makeStore();
    const key = freshKey();
    const ats: number[] = [];
    for (let i = 0; i < 5; i++) ats.push(await store.book(key, T, 100, 3));
    expect(ats).toEqual([T, T, T, T + 100, T + 200]);
    expect(await store.book(key, T + 10_000, 100, 3)).toBe(T + 10_000);
  });

  test('close: no slot before the close ends, and a shorter close does not shorten it', async () => {
    const store = makeStore();
    const key = freshKey();
    await store.close(key, T + 5_000);
    await store.close(key, T + 1_000);
    expect(await stateOf(store, key)).toEqual({ closedUntil: T + 5_000, pace: undefined });
    expect(await store.book(key, T, 100, 1)).toBe(T + 5_000);
    expect(await store.book(key, T, 100, 1)).toBe(T + 5_100);
  });

  test('setPace: set only while the stored since is the one the caller read', async () => {
    const store = makeStore();
    const key = freshKey();
    const first = { rate: 17.3, since: T + 0.25, growth: 0.5 };
    const second = { rate: 8.65, since: T + 1_000.125, growth: 0 };
    expect(await store.setPace(key, first, undefined)).toBe(true);
    expect(await store.setPace(key, second, undefined)).toBe(false);
    expect(await store.setPace(key, second, T)).toBe(false);
    expect((await store.read(key)).pace).toEqual(first);
    expect(await store.setPace(key, second, first.since)).toBe(true);
    expect(await stateOf(store, key)).toEqual({ closedUntil: 0, pace: second });
  });

  test('200 bookings at once, half through each of two stores: 200 distinct slots, one interval apart', async () => {
    const [a, b] = [makeStore(), makeStore()];
    const key = freshKey();
    const ats = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).book(key, T, 50, 1)));
    // Two memory stores share nothing: only a shared store can give each booking its own slot.
    const shared = _name !== 'memoryRateStore';
    if (shared) expect([...ats].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => T + 50 * i));
  });
});

test('over 1000 bookings at a fractional interval, with closes, Redis gives exactly what memory gives', async () => {
  const memory = memoryRateStore();
  const shared = redisRateStore(io);
  const key = freshKey();
  const interval = 1000 / 17.3;
  for (let i = 0; i < 1000; i++) {
    const now = T + i * 37.5;
    if (i % 250 === 100) await Promise.all([memory.close(key, now + 999.5), shared.close(key, now + 999.5)]);
    expect(await shared.book(key, now, interval, 4)).toBe(await memory.book(key, now, interval, 4));
  }
});

describe('only on Redis', () => {
  test("one hash per budget, named the prefix and the gate's key", async () => {
    const store = redisRateStore(io, { prefix: 'named-test:' });
    await store.book('ci', T, 50, 1);
    await store.setPace('ci', { rate: 20, since: T, growth: 0 }, undefined);
    expect(await io.keys('named-test:*')).toEqual(['named-test:ci']);
    expect(await io.hgetall('named-test:ci')).toEqual({ tat: String(T + 50), rate: '20', since: String(T), growth: '0' });
  });

  test('a budget expires 10 minutes after its last slot, close or pace', async () => {
    const store = redisRateStore(io, { prefix: 'ttl-test:' });
    await store.close('k', Date.now() + 60_000);
    const [key] = await io.keys('ttl-test:*');
    const pttl = await io.pttl(key!);
    expect(pttl).toBeGreaterThan(600_000);
    expect(pttl).toBeLessThanOrEqual(660_000);
  });

  test('a client that is not connected fails each call at once, and nothing is queued for later', async () => {
    const lazy = new Redis(redis.url, { lazyConnect: true });
    const store = redisRateStore(lazy, { prefix: 'lazy-test:' });
    await expect(store.book('k', T, 50, 1)).rejects.toThrow('Redis client is not connected');
    await expect(store.read('k')).rejects.toThrow('Redis client is not connected');
    await lazy.connect();
    expect(await store.book('k', T, 50, 1)).toBe(T);
    // Had the refused call been queued, this slot would be the second.
    expect(await store.book('k', T, 50, 1)).toBe(T + 50);
    await lazy.quit();
  });

  test('refuses a client of neither kind, and a prefix that is not a string', () => {
    expect(() => redisRateStore({} as never)).toThrow(/node-redis client \(with sendCommand\) or an ioredis client \(with call\)/);
    expect(() => redisRateStore(io, { prefix: 1 as never })).toThrow(/prefix: must be a string/);
  });
});
