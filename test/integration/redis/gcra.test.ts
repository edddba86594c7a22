/**
 * The shared gate's Lua scripts (src/redis/gcra.ts) on a real redis-server, through node-redis and ioredis:
 * the pace, the burst, the horizon a caller can wait, the close for everyone, and keys that do not outlive
 * their meaning. Redis's clock runs in real time here: each bound allows for the time the calls themselves took.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commandSender, type SendCommand } from '../../../src/redis/command.js';
import { close, take } from '../../../src/redis/gcra.js';
import { startRedis, type RedisServer } from '../../helpers/redis.js';

let redis: RedisServer;
const clients: Record<string, { send: SendCommand; quit: () => Promise<unknown> }> = {};
beforeAll(async () => {
  redis = await startRedis();
  const io = new Redis(redis.url);
  const node = await createClient({ url: redis.url }).connect();
  clients['ioredis'] = { send: commandSender(io, 'test'), quit: () => io.quit() };
  clients['node-redis'] = { send: commandSender(node, 'test'), quit: () => node.quit() };
});
afterAll(async () => {
  for (const client of Object.values(clients)) await client.quit();
  await redis?.stop();
});

let keys = 0;
const freshKey = () => `test:gcra:${++keys}`;

/** Runs `steps` in order and returns their waits, with the time they took: a wait may be short by that much. */
async function timed<T>(steps: () => Promise<T>): Promise<{ value: T; tookMs: number }> {
  const started = performance.now();
  const value = await steps();
  return { value, tookMs: performance.now() - started + 2 };
}

describe.each(['ioredis', 'node-redis'])('through %s', (which) => {
  const send = (args: string[]) => clients[which]!.send(args);
  const pace = { intervalMs: 100, burst: 2, maxWaitMs: 60_000 };

  test('a burst goes at once, then one slot per interval', async () => {
    const key = freshKey();
    const { value: waits, tookMs } = await timed(async () => {
      const waits: number[] = [];
      for (let i = 0; i < 5; i++) waits.push((await take(send, key, pace)).waitMs);
      return waits;
    });
    [0, 0, 100, 200, 300].forEach((expected, i) => {
      expect(waits[i]).toBeLessThanOrEqual(expected);
      expect(waits[i]).toBeGreaterThanOrEqual(expected - tookMs);
    });
  });

  test('200 concurrent takes from both clients get 200 distinct slots, one interval apart', async () => {
    const key = freshKey();
    const both = (i: number) => (args: string[]) => clients[i % 2 ? 'ioredis' : 'node-redis']!.send(args);
    const fast = { intervalMs: 10, burst: 1, maxWaitMs: 60_000 };
    const { value: slots, tookMs } = await timed(() =>
      Promise.all(Array.from({ length: 200 }, (_, i) => take(both(i), key, fast).then(({ waitMs }) => performance.now() + waitMs))),
    );
    expect(slots).toHaveLength(200);
    // The last slot is 199 intervals after the first: none was given twice.
    const span = Math.max(...slots) - Math.min(...slots);
    expect(span).toBeGreaterThanOrEqual(1990 - tookMs);
    expect(span).toBeLessThanOrEqual(1990 + tookMs);
  });

  test('a slot beyond maxWaitMs is not reserved, and takes nothing from the callers after', async () => {
    const key = freshKey();
    const { value, tookMs } = await timed(async () => {
      for (let i = 0; i < 4; i++) await take(send, key, pace); // slots at 0, 0, 100, 200: the next is 300 away
      const refused = await take(send, key, { ...pace, maxWaitMs: 250 });
      const next = await take(send, key, pace);
      return { refused, next };
    });
    expect(value.refused.reserved).toBe(false);
    expect(value.refused.waitMs).toBeGreaterThan(250 - tookMs);
    expect(value.next.reserved).toBe(true);
    expect(value.next.waitMs).toBeLessThanOrEqual(300);
    expect(value.next.waitMs).toBeGreaterThanOrEqual(300 - tookMs);
  });

  test('a close holds every slot until it ends, then paces from there (no burst at the reopening)', async () => {
    const key = freshKey();
    const { value, tookMs } = await timed(async () => {
      const closedMs = await close(send, key, 1_000, pace);
      const waits: number[] = [];
      for (let i = 0; i < 3; i++) waits.push((await take(send, key, pace)).waitMs);
      return { closedMs, waits };
    });
    expect(value.closedMs).toBe(1_000);
    [1_000, 1_100, 1_200].forEach((expected, i) => {
      expect(value.waits[i]).toBeLessThanOrEqual(expected);
      expect(value.waits[i]).toBeGreaterThanOrEqual(expected - tookMs);
    });
  });

  test('a shorter close does not shorten a longer one', async () => {
    const key = freshKey();
    const { value, tookMs } = await timed(async () => [await close(send, key, 2_000, pace), await close(send, key, 500, pace)]);
    expect(value[0]).toBe(2_000);
    expect(value[1]).toBeGreaterThanOrEqual(2_000 - tookMs);
  });

  test('the key expires once its slots and its close are past', async () => {
    const key = freshKey();
    await close(send, key, 300, pace);
    const pttl = Number(await send(['PTTL', key]));
    // Closed for 300 ms, the burst held back 100 ms more, and a second of margin.
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(1_400);
  });
});
