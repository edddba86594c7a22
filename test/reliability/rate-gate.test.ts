/**
 * The rate gate over real sockets: 200 creates at once through one client, against a service that allows 20
 * requests a second, all succeed with few 429s and no workflow created twice; with the service's `RateLimit`
 * headers, paced to them without a 429. A call past its deadline at the gate ends with the 429 it got, or a
 * TimeoutError when it got none. And 100 000 calls waiting at the gate, on a signal each or one shared, hold
 * nothing once they settle.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LevelLogger } from '../../src/core/logger.js';
import { RateGate } from '../../src/core/rate-gate.js';
import { now } from '../../src/core/timing.js';
import { Client, RateLimitError, TimeoutError } from '../../src/index.js';
import { startFaultServer, faults } from './fault-server.js';
import { gc } from './gc.js';
import { startRateLimitServer } from './rate-limit-server.js';
import { activeHandles, count, figure, openHandlesSince, recordOpenHandles } from './summary.js';

let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('rate-gate.test.ts', await openHandlesSince(baseline));
});

const API_KEY = 'wfa_live_gate_Qm4vT7';
const CREATES = 200;
const input = (i: number) => ({ name: `w${i}`, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });

/** 200 creates at once through one client; what the service saw. */
async function createAll(rate: number, headers: boolean) {
  const server = await startRateLimitServer({ rate, headers });
  try {
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' });
    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: CREATES }, (_, i) => client.workflows.create(input(i))));
    const wallMs = performance.now() - started;
    const failed = results.filter((r) => r.status === 'rejected').length;
    const duplicates = server.created.length - new Set(server.created).size;
    count('requests', server.received);
    count('duplicates', duplicates);
    return { failed, duplicates, received: server.received, refused: server.refused, created: new Set(server.created).size, wallMs };
  } finally {
    await server.close();
  }
}

describe('200 creates at once against 20 requests a second', () => {
  it('learned: every create succeeds, once, with at most 4% of requests refused', async () => {
    const run = await createAll(20, false);
    figure({
      name: 'rate gate, learned: share of 429s (per mille)',
      value: Math.round((run.refused / run.received) * 1000),
      unit: 'count',
      bound: 40,
    });
    figure({ name: 'rate gate, learned: 200 creates at 20/s (lower bound 9 s)', value: Math.round(run.wallMs), unit: 'ms' });
    expect(run).toMatchObject({ failed: 0, duplicates: 0, created: CREATES });
    expect(run.refused / run.received).toBeLessThanOrEqual(0.04);
  });

  it('told by RateLimit headers: every create succeeds with at most 2 refused', async () => {
    const run = await createAll(20, true);
    figure({ name: 'rate gate, told: 429s', value: run.refused, unit: 'count', bound: 2 });
    expect(run).toMatchObject({ failed: 0, duplicates: 0, created: CREATES });
    expect(run.refused).toBeLessThanOrEqual(2);
  });
});

describe('a call past its deadline at the gate', () => {
  it("after 429s of its own: the service's RateLimitError, saying how long it waited; with none: the deadline's TimeoutError", async () => {
    const refusal = faults.status(
      429,
      { error: { code: 'rate_limited', message: 'slow down' } },
      { 'retry-after': '1', 'x-request-id': 'req_42' },
    );
    const server = await startFaultServer({ otherwise: (request) => (request.path.includes('hang') ? faults.stall() : refusal) });
    try {
      const options = { baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' };
      const refused = await new Client(options).request({ method: 'GET', path: '/a', deadlineMs: 2_500 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RateLimitError);
      expect(refused).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_42', retryAfterMs: 1_000 });
      expect((refused as Error).message).toMatch(/^429 slow down; it waited \d+ ms at the client's rate gate, until the call's deadline /);

      const queued = new Client({ ...options, maxRetries: 0, rateLimit: { maxConcurrent: 1 } });
      const holder = queued.request({ method: 'GET', path: '/hang', timeoutMs: 1_500 }).catch(() => undefined);
      const held = await queued.request({ method: 'GET', path: '/b', deadlineMs: 300 }).catch((e: unknown) => e);
      expect(held).toBeInstanceOf(TimeoutError);
      expect(held).not.toBeInstanceOf(RateLimitError);
      expect(held).toMatchObject({ reason: 'deadline', message: expect.stringMatching(/; it waited \d+ ms at the client's rate gate$/) });
      await holder;
    } finally {
      await server.close();
    }
  });
});

describe('memory', () => {
  it('100 000 calls waiting at the gate hold O(1) each, and nothing once they settle (aborted or passed)', async () => {
    const log = new LevelLogger(undefined, 'off');
    const gate = new RateGate(
      { maxConcurrent: 1, requestsPerSecond: 100_000 },
      { log, hook: undefined, maxCloseMs: 60_000, apiKey: undefined },
    );
    const head = { status: 200, headers: new Headers() };
    // Held by the test throughout, as a server's shutdown signal is by its process.
    const longLived = new AbortController();
    expect(gate.pass()).toBe(true);
    /** `calls` wait and give up, then `calls` pass; the same on one shared signal; returns the heap per waiting call. */
    const round = async (calls: number): Promise<number> => {
      const start = process.memoryUsage().heapUsed;
      const controllers = Array.from({ length: calls }, () => new AbortController());
      const aborted = controllers.map((controller) => gate.wait({ signal: controller.signal, deadline: Infinity }));
      gc();
      const perWaiting = (process.memoryUsage().heapUsed - start) / calls;
      for (const controller of controllers) controller.abort();
      await Promise.all(aborted);
      const passed = Array.from({ length: calls }, () => gate.wait({ deadline: Infinity }).then(() => gate.report(head, now(), '')));
      gate.report(head, now(), '');
      await Promise.all(passed);
      // One signal shared by every call: its one listener must not keep what passed, nor what its abort ended.
      const sharedAbort = new AbortController();
      const abortedTogether = Array.from({ length: calls }, () => gate.wait({ signal: sharedAbort.signal, deadline: Infinity }));
      sharedAbort.abort();
      await Promise.all(abortedTogether);
      const passedShared = Array.from({ length: calls }, () =>
        gate.wait({ signal: longLived.signal, deadline: Infinity }).then(() => gate.report(head, now(), '')),
      );
      gate.report(head, now(), '');
      await Promise.all(passedShared);
      expect(gate.pass()).toBe(true);
      return perWaiting;
    };
    // A first round warms up what any first run allocates once (compiled code, the queue's table).
    await round(10_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    const perWaiting = await round(100_000);
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    figure({
      name: 'rate gate: heap per waiting call (its AbortController included)',
      value: Math.round(perWaiting),
      unit: 'bytes/call',
      bound: 4096,
    });
    // Node itself keeps about 15 bytes per AbortSignal aborted (seen without the SDK, in a bare loop); a waiting
    // call holds about 2.7 KB, so a waiter left behind would show as 100 times this bound.
    const perSettled = growth / 100_000;
    expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(0);
    figure({
      name: 'rate gate: heap left per call after 400 000 waits settled',
      value: Math.round(perSettled),
      unit: 'bytes/call',
      bound: 64,
    });
    expect(gate.waiting).toBe(0);
    expect(perWaiting).toBeLessThan(4096);
    expect(perSettled).toBeLessThan(64);
  }, 120_000);
});
