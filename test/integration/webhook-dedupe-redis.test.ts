/**
 * `dedupe` with `redisStore` against a real redis-server: two receiver processes share it, and each gets the same
 * 200 concurrent deliveries, some of them twice. Every delivery's handler runs exactly once overall, a handler
 * slower than lockMs too, and a Redis outage leaves no reservation behind.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  redisStore,
  toNodeHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
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

/** A redisStore on its own client; `ready` is what the client says of its connection. */
async function connectStore(kind: string, url: string) {
  if (kind === 'ioredis') {
    const client = new Redis(url, { lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { store: redisStore(client), ready: () => client.status === 'ready', close: () => client.disconnect() };
  }
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return { store: redisStore(client), ready: () => client.isReady, close: () => client.destroy() };
}

/** A receiver on 127.0.0.1 whose build.completed handler counts its runs, and how many ran at once. */
async function receiver(options: Omit<WebhookHandlerOptions, 'on'>, work: () => Promise<void>) {
  const counts = { runs: 0, running: 0, most: 0 };
  const handler = createWebhookHandler({
    ...options,
    on: {
      'build.completed': async () => {
        counts.runs++;
        counts.most = Math.max(counts.most, ++counts.running);
        try {
          await work();
        } finally {
          counts.running--;
        }
      },
    },
  });
  const server: Server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const body = createWebhookBody({ workflow_id: `wf_${Math.random().toString(36).slice(2)}` });
  const send = async (text = body) => {
    const response = await fetch(url, { method: 'POST', body: text });
    return { status: response.status, body: await response.json() };
  };
  return { counts, send, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.each(['node-redis', 'ioredis'])('dedupe on redis-server through %s, over real sockets', (kind) => {
  test('a 1.5 s handler with a 0.5 s lock, the same delivery at 0, 0.7 and 1.0 s: it runs once (the reservation is renewed)', async () => {
    const { store, close } = await connectStore(kind, redis.url);
    // lockMs = handlerTimeoutMs + confirmTimeoutMs = 500 ms, renewed every third of it.
    const {
      counts,
      send,
      close: stop,
    } = await receiver({ handlerTimeoutMs: 300, confirmTimeoutMs: 200, dedupe: { store }, onError: () => {} }, () => sleep(1_500));
    try {
      const sent = [send()];
      await sleep(700);
      sent.push(send());
      await sleep(300);
      sent.push(send());
      // Each is refused while the first runs (503), or, on a slow machine, found done (200, duplicate).
      for (const { status, body } of await Promise.all(sent)) {
        expect(status === 503 || body.duplicate === true, JSON.stringify({ status, body })).toBe(true);
      }
      await vi.waitFor(() => expect(counts.running).toBe(0), { timeout: 10_000 });
      await vi.waitFor(async () => expect((await send()).body).toEqual({ received: true, duplicate: true }), { timeout: 10_000 });
      expect(counts.runs).toBe(1);
      expect(counts.most).toBe(1);
    } finally {
      await stop();
      await close();
    }
  });

  test('events told apart only by an integer past 2^53 are two deliveries: each, sent twice, runs once', async () => {
    const { store, close } = await connectStore(kind, redis.url);
    const { counts, send, close: stop } = await receiver({ dedupe: { store } }, async () => {});
    try {
      const workflow = `wf_${Math.random().toString(36).slice(2)}`;
      // Both parse to the same double: a key on the parsed event would make them one.
      const bodies = ['9007199254740992', '9007199254740993'].map(
        (id) => `{"id":${id},"event":"build.completed","workflow_id":"${workflow}","data":{"download_url":"https://x.example.com/a.zip"}}`,
      );
      const answers = [];
      for (const body of [...bodies, ...bodies]) answers.push((await send(body)).body);

      expect(answers).toEqual([
        { received: true },
        { received: true },
        { received: true, duplicate: true },
        { received: true, duplicate: true },
      ]);
      expect(counts.runs).toBe(2);
    } finally {
      await stop();
      await close();
    }
  });

  test('during a Redis outage a delivery gets 503 and nothing is reserved: its retry after the reconnection runs at once', async () => {
    const own = await startRedis();
    const port = Number(new URL(own.url).port);
    const { store, ready, close } = await connectStore(kind, own.url);
    const errors: unknown[] = [];
    const {
      counts,
      send,
      close: stop,
    } = await receiver({ handlerTimeoutMs: 1_000, dedupe: { store }, onError: (error) => void errors.push(error) }, async () => {});
    let restarted: RedisServer | undefined;
    try {
      await own.stop();
      await vi.waitFor(() => expect(ready()).toBe(false), { timeout: 10_000 });
      expect((await send()).status).toBe(503);
      expect(counts.runs).toBe(0);
      restarted = await startRedis(port);
      await vi.waitFor(() => expect(ready()).toBe(true), { timeout: 20_000 });
      // lockMs is 11 s here: a reservation queued during the outage would still refuse this retry.
      expect(await send()).toEqual({ status: 200, body: { received: true } });
      expect(counts.runs).toBe(1);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await stop();
      await close();
      await restarted?.stop();
    }
  });
});
