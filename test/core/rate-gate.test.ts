/**
 * The rate gate's schedule, on a fake clock: what closes it and for how long, the order and pace waiting
 * sends leave in, what it learns, and what a waiting call that gives up leaves behind (nothing).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { LevelLogger } from '../../src/core/logger.js';
import { RateGate } from '../../src/core/rate-gate.js';
import { memoryRateStore, type RateStore } from '../../src/core/rate-store.js';
import type { RateLimitEvent } from '../../src/core/hooks.js';
import type { RateLimitOptions } from '../../src/core/options.js';
import { MAX_TIMER_MS, now } from '../../src/core/timing.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { captureLogger } from '../helpers/logger.js';

useFakeClock();

const head = (status: number, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers) });

function gate(options: RateLimitOptions = {}, hook?: (event: RateLimitEvent) => unknown) {
  const { lines, logger } = captureLogger();
  const events: RateLimitEvent[] = [];
  const onRateLimit = hook ?? ((event: RateLimitEvent) => void events.push(event));
  const log = new LevelLogger(logger, 'info');
  const made = new RateGate(options, { log, hook: onRateLimit as never, maxCloseMs: 60_000, apiKey: 'k_123456' });
  return { gate: made, lines, events };
}

/** Sends through the gate as the retry loop does: pass, or wait in line; resolves with the time it left. */
async function send(g: RateGate, limits: { signal?: AbortSignal; deadline?: number } = {}): Promise<number> {
  if (!g.pass()) {
    const result = await g.wait({ signal: limits.signal, deadline: limits.deadline ?? Infinity });
    if (result.type !== 'done') throw new Error(result.type);
  }
  return now();
}

/** `count` sends answered at once with `status`. */
function answered(g: RateGate, count: number, status = 200): void {
  for (let i = 0; i < count; i++) {
    expect(g.pass()).toBe(true);
    g.report(head(status), now(), 'GET /x');
  }
}

describe('closing', () => {
  it('a 429 closes the gate for its Retry-After, for every send', async () => {
    const { gate: g } = gate();
    expect(g.pass()).toBe(true);
    g.report(head(429, { 'retry-after': '2' }), now(), 'POST /v1/workflows');
    expect(g.pass()).toBe(false);
    const start = now();
    const left = await settle(send(g));
    expect(left).toMatchObject({ ok: true });
    expect((left as { value: number }).value - start).toBe(2000);
  });

  it('a 503 with Retry-After closes it; a 503 without one does not', async () => {
    const { gate: g } = gate();
    answered(g, 1, 503);
    expect(g.pass()).toBe(true);
    g.report(head(503, { 'retry-after-ms': '300' }), now(), 'GET /x');
    expect(g.closedForMs()).toBe(300);
  });

  it('a 429 without a usable Retry-After closes it for a second; one past maxRetryAfterMs for that bound', () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(429), now(), 'GET /x');
    expect(g.closedForMs()).toBe(1000);
    g.pass();
    const { gate: other } = gate();
    other.pass();
    other.report(head(429, { 'retry-after': '3600' }), now(), 'GET /x');
    expect(other.closedForMs()).toBe(60_000);
  });

  it('a success whose headers say nothing remains, without a rate, closes it until the reset', () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' }), now(), 'GET /x');
    expect(g.closedForMs()).toBe(4000);
  });

  it.each([
    ['X-RateLimit-Reset of a huge number of seconds', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '999999999' }],
    ['X-RateLimit-Reset an epoch in ms, years ahead', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 1e11) }],
    ['old RateLimit-Reset: 99999', { 'ratelimit-remaining': '0', 'ratelimit-reset': '99999' }],
    ['RateLimit t=99999', { ratelimit: '"default";r=0;t=99999' }],
  ])('a success whose headers say nothing remains closes it for maxRetryAfterMs at most: %s', (_, headers) => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(200, headers), now(), 'GET /x');
    expect(g.closedForMs()).toBe(60_000);
  });

  it('X-RateLimit-Reset past 1e12 is an epoch in milliseconds', () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 4000) }), now(), 'GET /x');
    expect(g.closedForMs()).toBe(4000);
  });
});

describe('reopening', () => {
  it('waiting sends leave in the order they came, at a pace, never at once', async () => {
    const { gate: g } = gate();
    answered(g, 10);
    g.pass();
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    const order: number[] = [];
    const sends = Array.from({ length: 5 }, (_, i) => send(g).then((at) => (order.push(i), at)));
    const times = (await settle(Promise.all(sends))) as { value: number[] };
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(times.value[0]).toBe(1000);
    // 10 accepted over the last second, cut to 8 a second: 125 ms apart, growing a little since.
    for (let i = 1; i < 5; i++) expect(times.value[i]! - times.value[i - 1]!).toBeGreaterThan(100);
  });

  it('a refusal of a send that left before the gate closed does not cut the pace again', async () => {
    const { gate: g, events } = gate();
    answered(g, 10);
    g.pass();
    g.pass();
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    await settle(send(g));
    // Cut once, to 8 a second (what was accepted, less a fifth), grown by a fiftieth of that for the second closed.
    expect(events.map((e) => [e.state, e.ratePerSecond])).toEqual([
      ['closed', 8],
      ['open', 8.16],
    ]);
  });

  it('a refusal after the gate reopened cuts the pace again, by a fifth', async () => {
    const { gate: g, events } = gate();
    answered(g, 10);
    g.pass();
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    await settle(send(g));
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    expect(events.map((e) => e.ratePerSecond)).toEqual([8, 8.16, 6.528]); // 8.16 less a fifth
  });
});

describe('the pace before anything is learned: a slow start', () => {
  it('a few sends in flight go unpaced; more leave 50 ms apart, sooner with each success', async () => {
    const { gate: g } = gate();
    for (let i = 0; i < 4; i++) expect(g.pass()).toBe(true);
    expect(g.pass()).toBe(false);
    const first = (await settle(Promise.all([send(g), send(g), send(g), send(g)]))) as { value: number[] };
    expect(first.value).toEqual([0, 50, 100, 150]);
    for (let i = 0; i < 8; i++) g.report(head(200), now(), 'GET /x');
    for (let i = 0; i < 4; i++) expect(g.pass()).toBe(true);
    // 20 a second, and 5 more per accepted response: 60 a second.
    const next = (await settle(Promise.all([send(g), send(g)]))) as { value: number[] };
    expect(next.value[1]! - next.value[0]!).toBeCloseTo(1000 / 60, 0);
  });

  it('once the service accepted enough, nothing is paced', () => {
    const { gate: g } = gate();
    answered(g, 2000);
    const passed = Array.from({ length: 64 }, () => g.pass());
    expect(passed.every(Boolean)).toBe(true);
  });
});

describe('the pace the service tells', () => {
  it.each([
    ['RateLimit-Policy (draft 8)', { 'ratelimit-policy': '"default";q=5;w=1', ratelimit: '"default";r=4;t=1' }],
    ['RateLimit-Policy (draft 7)', { 'ratelimit-policy': '10;w=2', ratelimit: 'limit=10, remaining=4, reset=1' }],
    ['RateLimit-Limit with a policy', { 'ratelimit-limit': '5, 5;w=1', 'ratelimit-remaining': '4', 'ratelimit-reset': '1' }],
    ['X-RateLimit-Remaining over -Reset', { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '1' }],
  ])('%s: sends leave 200 ms apart', async (_, headers) => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(200, headers), now(), 'GET /x');
    const times = (await settle(Promise.all([send(g), send(g), send(g)]))) as { value: number[] };
    expect(times.value[1]! - times.value[0]!).toBe(200);
    expect(times.value[2]! - times.value[1]!).toBe(200);
  });

  it('a told pace slower than one request per maxRetryAfterMs is held to that', async () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(200, { 'ratelimit-policy': '"default";q=1;w=100000' }), now(), 'GET /x');
    const times = (await settle(Promise.all([send(g), send(g)]))) as { value: number[] };
    expect(times.value[1]! - times.value[0]!).toBe(60_000);
  });

  it('with maxRetryAfterMs: 0, requestsPerSecond is still the ceiling', async () => {
    const log = new LevelLogger(captureLogger().logger, 'info');
    const g = new RateGate({ requestsPerSecond: 2 }, { log, hook: undefined, maxCloseMs: 0, apiKey: undefined });
    const times = (await settle(Promise.all([send(g), send(g)]))) as { value: number[] };
    expect(times.value[1]! - times.value[0]!).toBe(500);
  });

  it('requestsPerSecond is a ceiling from the first send', async () => {
    const { gate: g } = gate({ requestsPerSecond: 2 });
    const times = (await settle(Promise.all([send(g), send(g), send(g)]))) as { value: number[] };
    expect([times.value[1]! - times.value[0]!, times.value[2]! - times.value[1]!]).toEqual([500, 500]);
  });

  it('maxConcurrent holds a send until one in flight ends', async () => {
    const { gate: g } = gate({ maxConcurrent: 1 });
    expect(g.pass()).toBe(true);
    let left = false;
    const next = send(g).then(() => {
      left = true;
    });
    await settle(Promise.resolve());
    expect(left).toBe(false);
    g.report(head(200), now(), 'GET /x');
    await settle(next);
    expect(left).toBe(true);
  });
});

describe('a shared store', () => {
  it('books every send, the first ones too, so that a close another client wrote reaches the next send', async () => {
    const store = memoryRateStore();
    store.close('ci', Date.now() + 700);
    const { gate: g } = gate({ store, key: 'ci' });
    const times = (await settle(Promise.all([send(g), send(g), send(g)]))) as { value: number[] };
    expect(times.value).toEqual([700, 750, 800]);
  });

  it.each([
    ['books a slot a day away', { book: () => Date.now() + 86_400_000 }],
    ['says the budget is closed for a day', { read: () => ({ closedUntil: Date.now() + 86_400_000, pace: undefined }) }],
  ])('that %s holds a send no longer than a Retry-After would be: maxRetryAfterMs', async (_, lie) => {
    const store = { ...memoryRateStore(), ...lie } as RateStore;
    const { gate: g } = gate({ store, key: 'ci' });
    expect(await settle(send(g))).toMatchObject({ ok: true, value: 60_000 });
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('redis://:hunter2@cache:6379 refused'))],
    [
      'throws',
      () => {
        throw new Error('redis://:hunter2@cache:6379 refused');
      },
    ],
    ['never answers', () => new Promise<never>(() => undefined)],
  ])('that %s: the gate paces alone, with one warning that quotes no store message', async (_, fail) => {
    const failing = { ...memoryRateStore(), book: fail, read: fail, close: fail, setPace: fail } as unknown as RateStore;
    const { gate: g, lines } = gate({ store: failing, key: 'ci', requestsPerSecond: 10 });
    const times = (await settle(Promise.all([send(g), send(g), send(g)]))) as { value: number[] };
    expect(times.value[2]! - times.value[1]!).toBe(100);
    expect(lines.filter((line) => line.includes('rate store'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('hunter2');
  });
});

describe('leaving the line', () => {
  it('an aborted send leaves at once and holds nothing', async () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(429, { 'retry-after': '5' }), now(), 'GET /x');
    const controller = new AbortController();
    const waiting = [send(g), send(g, { signal: controller.signal }), send(g)];
    expect(g.waiting).toBe(3);
    controller.abort();
    const aborted = await settle(waiting[1]!);
    expect(aborted).toMatchObject({ ok: false, elapsedMs: 0 });
    expect(g.waiting).toBe(2);
    await settle(Promise.all([waiting[0], waiting[2]]));
  });

  it('a send whose deadline comes while it waits leaves then', async () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(429, { 'retry-after': '5' }), now(), 'GET /x');
    const settled = await settle(send(g, { deadline: now() + 1500 }));
    expect(settled).toMatchObject({ ok: false, elapsedMs: 1500 });
    expect(g.waiting).toBe(0);
  });

  it('a send that gives up leaves no timer behind when no one else waits', async () => {
    const { gate: g } = gate({ requestsPerSecond: 1 });
    g.pass();
    g.report(head(429, { 'retry-after': '60' }), now(), 'GET /x');
    await settle(send(g, { deadline: now() + 300 }));
    expect(vi.getTimerCount()).toBe(0);
    expect(g.closedForMs()).toBe(59_700);
  });

  // Armed for longer than MAX_TIMER_MS, a timer fires at once: the gate would spin re-arming it (the fake clock gives up).
  it('a close longer than a timer can hold is waited in steps of MAX_TIMER_MS', async () => {
    const made = new RateGate(
      {},
      { log: new LevelLogger(captureLogger().logger, 'info'), hook: undefined, maxCloseMs: 1e12, apiKey: undefined },
    );
    made.pass();
    made.report(head(429, { 'retry-after': '100000000' }), now(), 'GET /x');
    const waited = await settle(send(made, { deadline: now() + 3 * MAX_TIMER_MS }));
    expect(waited).toMatchObject({ ok: false, elapsedMs: 3 * MAX_TIMER_MS });
  });

  // At 100 000, with a heap check: test/reliability/rate-gate-memory.test.ts.
  it('waiting sends that give up, or pass, leave nothing in the line', async () => {
    const { gate: g } = gate({ maxConcurrent: 1, requestsPerSecond: 100_000 });
    expect(g.pass()).toBe(true);
    const controllers = Array.from({ length: 1000 }, () => new AbortController());
    const given = controllers.map((controller) => send(g, { signal: controller.signal }).catch(() => 0));
    expect(g.waiting).toBe(1000);
    for (const controller of controllers) controller.abort();
    await Promise.all(given);
    expect(g.waiting).toBe(0);
    const passing = Array.from({ length: 1000 }, () => send(g).then(() => g.report(head(200), now(), 'GET /x')));
    expect(g.waiting).toBe(1000);
    g.report(head(200), now(), 'GET /x');
    await Promise.all(passing);
    expect(g.waiting).toBe(0);
  });
});

describe('many waiting sends on one signal', () => {
  it('add one abort listener to it, not one each: Node warns of none with 1 000 waiting', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { gate: g } = gate();
      g.pass();
      g.report(head(429, { 'retry-after': '5' }), now(), 'GET /x');
      const controller = new AbortController();
      const waiting = Array.from({ length: 1000 }, () => send(g, { signal: controller.signal }).catch((e: Error) => e.message));
      expect(g.waiting).toBe(1000);
      controller.abort();
      expect(await Promise.all(waiting)).toEqual(Array(1000).fill('aborted'));
      await settle(Promise.resolve());
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an abort ends every one of them at once, each with the reason; the others wait on', async () => {
    const { gate: g } = gate();
    g.pass();
    g.report(head(429, { 'retry-after': '5' }), now(), 'GET /x');
    const controller = new AbortController();
    const results: unknown[] = [];
    const shared = Array.from({ length: 50 }, () => g.wait({ signal: controller.signal, deadline: Infinity }).then((r) => results.push(r)));
    const other = send(g);
    controller.abort();
    await Promise.all(shared);
    expect(results).toEqual(Array(50).fill({ type: 'aborted', reason: controller.signal.reason }));
    expect((controller.signal.reason as Error).name).toBe('AbortError');
    expect(g.waiting).toBe(1);
    expect(await settle(other)).toMatchObject({ ok: true, elapsedMs: 5000 });
  });

  it('a signal keeps one listener while sends wait on it, and none once the last has passed', async () => {
    const { gate: g } = gate({ maxConcurrent: 1, requestsPerSecond: 100_000 });
    const { signal } = new AbortController();
    expect(g.pass()).toBe(true);
    const passing = Array.from({ length: 100 }, () => send(g, { signal }).then(() => g.report(head(200), now(), 'GET /x')));
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    g.report(head(200), now(), 'GET /x');
    await Promise.all(passing);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('what it tells', () => {
  it('one warning when it closes and one line when it opens, with an event for each', async () => {
    const { gate: g, lines, events } = gate();
    g.pass();
    g.report(head(429, { 'retry-after': '2' }), now(), () => 'POST https://wfa.test/v1/workflows');
    g.pass();
    g.report(head(429, { 'retry-after': '2' }), now(), 'POST https://wfa.test/v1/workflows');
    await settle(send(g));
    expect(lines).toEqual([
      '[wfa] rate limit: 429 (refused) on POST https://wfa.test/v1/workflows; every call of this client waits 2000 ms',
      expect.stringMatching(/^\[wfa\] rate limit: open again after 2000 ms; calls waiting: 1, leaving at [\d.]+ requests a second$/),
    ]);
    expect(events).toEqual([
      { state: 'closed', waitMs: 2000, status: 429, request: 'POST https://wfa.test/v1/workflows', waiting: 0, ratePerSecond: 16 },
      { state: 'open', waitMs: 2000, status: undefined, request: undefined, waiting: 1, ratePerSecond: expect.any(Number) },
    ]);
  });

  it.each([
    ['hangs', () => new Promise(() => undefined)],
    [
      'throws',
      () => {
        throw new Error('hook');
      },
    ],
    ['rejects', () => Promise.reject(new Error('hook'))],
  ])('a hook that %s delays nothing', async (_, hook) => {
    const { gate: g } = gate({}, hook);
    g.pass();
    g.report(head(429, { 'retry-after': '1' }), now(), 'GET /x');
    const settled = await settle(send(g));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 1000 });
  });
});
