import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMockService, type MockService, type MockServiceOptions, type MockWebhookDelivery } from '../../src/testing/index.js';
import { fakeClockInThisTest } from '../helpers/clock.js';
import { reply, startReceiver, WORKFLOW } from './helpers.js';

const services: MockService[] = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/** Creates a workflow on the mock, which starts its build. */
function createWorkflow(service: MockService): Promise<Response> {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  return service.handle(new Request('http://mock.test/v1/workflows', { method: 'POST', headers, body: JSON.stringify(WORKFLOW) }));
}

/** A mock on fake timers whose webhook receiver answers each POST with the next of `answers` (then 200). */
async function delivering(answers: (number | 'drop')[], options: MockServiceOptions = {}) {
  fakeClockInThisTest();
  const posts: { at: number; id: string | null; body: string }[] = [];
  const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    posts.push({ at: Date.now(), id: headers.get('webhook-id'), body: String(init?.body) });
    const answer = answers.shift() ?? 200;
    if (answer === 'drop') throw new TypeError('fetch failed');
    return new Response(null, { status: answer });
  });
  const service = createMockService({ buildDurationMs: 0, webhookUrl: 'https://hooks.example.test/in', fetch, ...options });
  services.push(service);
  const workflow = (await reply(await createWorkflow(service))).body;
  await service.flush();
  const start = Date.now();
  return { service, posts, workflow, sinceStart: () => posts.map((post) => post.at - start) };
}

describe('webhook retries', () => {
  test('a failed delivery is retried after 1, 2, 4 and 8 s, five attempts in all, then given up', async () => {
    const { posts, sinceStart } = await delivering([500, 503, 'drop', 429, 502, 500]);

    await vi.advanceTimersByTimeAsync(60_000);

    expect(sinceStart()).toEqual([0, 1000, 3000, 7000, 15_000]);
    expect(posts).toHaveLength(5);
  });

  test('each attempt sends the same body and the same webhook-id, so a receiver can dedupe the retries', async () => {
    const { posts, workflow } = await delivering([500, 'drop']);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((post) => post.id))).toEqual(new Set([`evt_${workflow.build_id}`]));
    expect(new Set(posts.map((post) => post.body)).size).toBe(1);
  });

  test('a 2xx ends the retries', async () => {
    const { posts } = await delivering([500, 204]);
    await vi.advanceTimersByTimeAsync(60_000);

    expect(posts).toHaveLength(2);
  });

  test('each attempt is a record: its number, its outcome, and the wait before the next', async () => {
    const seen: MockWebhookDelivery[] = [];
    const { service } = await delivering([500, 'drop'], { onWebhookDelivery: (delivery) => seen.push(delivery) });
    await vi.advanceTimersByTimeAsync(10_000);

    const outcomes = service.webhookDeliveries().map(({ attempt, status, error, retryInMs }) => ({ attempt, status, error, retryInMs }));
    expect(outcomes).toEqual([
      { attempt: 1, status: 500, error: undefined, retryInMs: 1000 },
      { attempt: 2, status: undefined, error: 'fetch failed', retryInMs: 2000 },
      { attempt: 3, status: 200, error: undefined, retryInMs: undefined },
    ]);
    expect(seen).toEqual(service.webhookDeliveries());
  });

  test('webhookRetryDelaysMs sets the waits; [] sends once', async () => {
    const custom = await delivering([500, 500, 500], { webhookRetryDelaysMs: [10, 20] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(custom.sinceStart()).toEqual([0, 10, 30]);

    const once = await delivering([500], { webhookRetryDelaysMs: [] });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(once.posts).toHaveLength(1);
  });

  test('reset() and close() cancel the retries not yet made', async () => {
    const reset = await delivering([500]);
    reset.service.reset();
    const closed = await delivering([500]);
    closed.service.close();
    await vi.advanceTimersByTimeAsync(60_000);

    expect(reset.posts).toHaveLength(1);
    expect(closed.posts).toHaveLength(1);
  });

  test('an observer that throws changes nothing', async () => {
    const { posts } = await delivering([500], {
      onWebhookDelivery: () => {
        throw new Error('observer broke');
      },
    });
    await vi.advanceTimersByTimeAsync(10_000);

    expect(posts).toHaveLength(2);
  });

  test('an observer that rejects changes nothing, and its rejection is never unhandled', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { posts } = await delivering([500], { onWebhookDelivery: async () => Promise.reject(new Error('observer broke')) });
      await vi.advanceTimersByTimeAsync(10_000);
      await new Promise((resolve) => setImmediate(resolve));

      expect(posts).toHaveLength(2);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('invalid waits are refused when the mock is created', () => {
    expect(() => createMockService({ webhookRetryDelaysMs: [-1] })).toThrow(/webhookRetryDelaysMs/);
  });
});

describe("the receiver's answer", () => {
  test('at most 64 KiB of it is read: an endless answer is cut off and the delivery ends with its status', async () => {
    fakeClockInThisTest();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const service = createMockService({
      buildDurationMs: 0,
      webhookUrl: 'https://hooks.example.test/in',
      fetch: async () => new Response(endless, { status: 200 }),
    });
    services.push(service);
    await createWorkflow(service);
    await service.flush();

    expect(service.webhookDeliveries().map((delivery) => delivery.status)).toEqual([200]);
    expect(pulled).toBeLessThan(10);
  });
});

describe('redirects', () => {
  test.each([301, 302, 303, 307, 308])(
    'a %d is a failed delivery, retried, and never followed (here to another origin, over real sockets)',
    async (status) => {
      const elsewhere = await startReceiver(200);
      const redirecting = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(status, { location: elsewhere.url }).end());
      });
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      const { port } = redirecting.address() as AddressInfo;
      const seen: MockWebhookDelivery[] = [];
      let twice = (): void => {};
      const both = new Promise<void>((resolve) => {
        twice = resolve;
      });
      const service = createMockService({
        buildDurationMs: 0,
        webhookUrl: `http://127.0.0.1:${port}/in`,
        webhookRetryDelaysMs: [1],
        onWebhookDelivery: (delivery) => {
          seen.push(delivery);
          if (seen.length === 2) twice();
        },
      });
      services.push(service);
      try {
        await createWorkflow(service);
        await service.flush();
        expect(seen.map((delivery) => [delivery.status, delivery.retryInMs])).toEqual([[status, 1]]);
        await both;

        expect(seen.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
          [1, status],
          [2, status],
        ]);
        expect(elsewhere.received).toEqual([]);
      } finally {
        await elsewhere.close();
        await new Promise<void>((resolve) => {
          redirecting.close(() => resolve());
          redirecting.closeAllConnections();
        });
      }
    },
  );
});
