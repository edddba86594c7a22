/**
 * `dedupe` with `redisStore` against a real redis-server: two receiver processes share it, and each gets the same
 * 200 concurrent deliveries, some of them twice. Every delivery's handler runs exactly once overall.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookBody } from '../../src/webhooks/index.js';
import { startScript, type Running } from '../cli/process.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const DELIVERIES = 200;

/** Delivery i: a workflow of its own; even ones carry a delivery-id header, odd ones are keyed by their body's hash. */
function delivery(i: number): { body: string; headers: Record<string, string> } {
  const body = createWebhookBody({ workflow_id: `wf_${i}`, data: { download_url: `https://downloads.example.com/${i}.zip` } });
  return { body, headers: { 'content-type': 'application/json', ...(i % 2 === 0 ? { 'webhook-id': `msg_${i}` } : {}) } };
}

/** Posts until the answer is final, as a retrying sender would: a 503 (the same delivery is running) is tried again. */
async function deliver(port: number, i: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body, headers } = delivery(i);
    const response = await fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', body, headers });
    await response.arrayBuffer();
    if (response.status !== 503) return response.status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`delivery ${i} was still answered 503 after 200 attempts`);
}

describe.each(['node-redis', 'ioredis'])('dedupe on redis-server through %s', (client) => {
  test('two processes, 200 concurrent deliveries each, some twice: each handler runs exactly once', { timeout: 60_000 }, async () => {
    const counter = new Redis(redis.url);
    const receivers: Running[] = [];
    try {
      await counter.flushall();
      for (let n = 0; n < 2; n++) {
        receivers.push(
          startScript('test/integration/fixtures/dedupe-receiver.ts', [], {
            env: { REDIS_URL: redis.url, REDIS_CLIENT: client },
            timeoutMs: 55_000,
          }),
        );
      }
      const ports = await Promise.all(
        receivers.map(async (receiver) => Number((await receiver.waitFor(/listening on (\d+)/, { ms: 20_000 }))[1])),
      );

      // Every delivery to both receivers at once; every third one twice more.
      const sends: Promise<number>[] = [];
      for (let i = 0; i < DELIVERIES; i++) {
        for (const port of ports) {
          sends.push(deliver(port, i));
          if (i % 3 === 0) sends.push(deliver(port, i));
        }
      }
      const statuses = await Promise.all(sends);

      expect(new Set(statuses)).toEqual(new Set([200]));
      const runs = await counter.mget(Array.from({ length: DELIVERIES }, (_, i) => `runs:wf_${i}`));
      expect(runs.filter((count) => count !== '1').length, 'deliveries not run exactly once').toBe(0);
      expect(runs).toHaveLength(DELIVERIES);
      for (const receiver of receivers) expect(receiver.stderr()).toBe('');
    } finally {
      for (const receiver of receivers) receiver.child.kill('SIGTERM');
      await Promise.all(receivers.map((receiver) => receiver.finished));
      counter.disconnect();
    }
  });
});
