/**
 * Waiting for a build on the real clock, with short intervals: the same resolution paths as the fake-clock
 * suite, checked against real timers, real promise scheduling and msw's real request handling, plus the
 * process's own count of live timers before and after each wait. In the reliability suite, not `npm test`:
 * it runs on real time. The network is msw's, in process: what is checked is the scheduling.
 */
import { getEventListeners } from 'node:events';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, BuildFailedError, Client, NotFoundError, WaitTimeoutError, type Build } from '../../src/index.js';

const BASE_URL = 'https://wfa.test';
const DOWNLOAD_URL = 'https://downloads.example.com/bld_1.zip';
/**
 * Real timers fire late on a busy machine; lateness up to this much is not a failure. Wide, so that only a
 * wait that overruns by seconds (a leaked sleep, a missed deadline) fails, never a slow machine.
 */
const SLACK_MS = 2_000;

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new Client({ baseUrl: BASE_URL, apiKey: 'wfa_test_key_real_time', apiPrefix: '/v1' });

const building = (progress: number) => ({ status: 'building', progress });
const completed = { status: 'completed', download_url: DOWNLOAD_URL };
const hang: HttpResponseResolver = () => new Promise<never>(() => undefined);

/** Serves the build from a script (last step repeats) and records when each poll arrived. */
function serveBuild(...steps: (object | HttpResponseResolver)[]) {
  const start = performance.now();
  const polls: number[] = [];
  server.use(
    http.get(`${BASE_URL}/v1/builds/:id`, (info) => {
      const step = steps[Math.min(polls.length, steps.length - 1)]!;
      polls.push(performance.now() - start);
      return typeof step === 'function' ? (step as HttpResponseResolver)(info) : HttpResponse.json(step);
    }),
  );
  return { polls, gaps: () => polls.slice(1).map((t, i) => t - polls[i]!) };
}

/**
 * Counts the timers set while it is installed that have neither fired nor been cleared: the process-wide
 * count of live timers is too noisy (the test runner's own timers come and go), this one is exact.
 */
function timerLedger() {
  const live = new Set<ReturnType<typeof setTimeout>>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = realSet(() => {
      live.delete(handle);
      callback(...args);
    }, ms);
    live.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle: ReturnType<typeof setTimeout> | undefined) => {
    if (handle !== undefined) live.delete(handle);
    realClear(handle);
  }) as typeof clearTimeout;
  return {
    live: () => live.size,
    restore() {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    },
  };
}

/** Lets the event loop turn, so whatever a finished request releases is released. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs a wait and reports how it ended, when, and what it left running (timers it set, signal listeners). */
async function measure<T>(start: () => Promise<T>, signal?: AbortSignal) {
  const ledger = timerLedger();
  try {
    const t0 = performance.now();
    const outcome = await start().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    const elapsed = performance.now() - t0;
    await turn();
    return {
      ...outcome,
      elapsed,
      timersLeft: ledger.live(),
      listenersLeft: signal ? getEventListeners(signal, 'abort').length : 0,
    };
  } finally {
    ledger.restore();
  }
}

describe('waiting on the real clock', () => {
  it('resolves with the completed build after polling at the interval', async () => {
    const service = serveBuild(building(10), building(60), completed);
    const controller = new AbortController();
    const progress: Build[] = [];

    const result = await measure(
      () => client.waitForBuild('bld_1', { intervalMs: 40, signal: controller.signal, onProgress: (b) => progress.push(b) }),
      controller.signal,
    );

    expect(result.value).toEqual(completed);
    expect(progress.map((b) => b.progress ?? b.status)).toEqual([10, 60, 'completed']);
    for (const gap of service.gaps()) expect(gap).toBeGreaterThanOrEqual(39);
    expect(result.elapsed).toBeLessThan(80 + SLACK_MS);
    expect(result.timersLeft).toBe(0);
    expect(result.listenersLeft).toBe(0);
  });

  it('rejects with BuildFailedError on a failed build', async () => {
    serveBuild(building(10), { status: 'error', logs: ['boom'] });
    const result = await measure(() => client.waitForBuild('bld_1', { intervalMs: 20 }));
    expect(result.error).toBeInstanceOf(BuildFailedError);
    expect((result.error as BuildFailedError).logs).toEqual(['boom']);
    expect(result.timersLeft).toBe(0);
  });

  it('rejects with NotFoundError at once on a 404', async () => {
    const service = serveBuild(() => HttpResponse.json({ message: 'no such build' }, { status: 404 }));
    const result = await measure(() => client.waitForBuild('bld_1', { intervalMs: 20 }));
    expect(result.error).toBeInstanceOf(NotFoundError);
    expect(service.polls).toHaveLength(1);
    expect(result.timersLeft).toBe(0);
  });

  it('keeps polling through an unknown status, never faster than the interval', async () => {
    const service = serveBuild({ status: 'warming_up' }, { status: 'warming_up' }, { status: 'linking' }, completed);
    const result = await measure(() => client.waitForBuild('bld_1', { intervalMs: 30 }));
    expect(result.value).toEqual(completed);
    for (const gap of service.gaps()) expect(gap).toBeGreaterThanOrEqual(29);
  });

  it('waits out a 429 for its Retry-After', async () => {
    const service = serveBuild(
      building(10),
      () => HttpResponse.json({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } }),
      completed,
    );
    // Its own client: the 429 teaches a client's rate gate a pace, which the other tests must not inherit.
    const own = new Client({ baseUrl: BASE_URL, apiKey: 'wfa_test_key_real_time', apiPrefix: '/v1' });
    const result = await measure(() => own.waitForBuild('bld_1', { intervalMs: 20 }));
    expect(result.value).toEqual(completed);
    expect(service.gaps()[1]).toBeGreaterThanOrEqual(999);
    expect(result.timersLeft).toBe(0);
  });

  it('times out mid-request at the deadline, carrying the last build seen', async () => {
    serveBuild(building(40), hang);
    const controller = new AbortController();

    const result = await measure(
      () => client.waitForBuild('bld_1', { intervalMs: 20, timeoutMs: 150, signal: controller.signal }),
      controller.signal,
    );

    expect(result.error).toBeInstanceOf(WaitTimeoutError);
    expect((result.error as WaitTimeoutError).build).toEqual(building(40));
    expect(result.elapsed).toBeGreaterThanOrEqual(149);
    expect(result.elapsed).toBeLessThan(150 + SLACK_MS);
    expect(result.timersLeft).toBe(0);
    expect(result.listenersLeft).toBe(0);
  });

  it('aborts before the first poll without sending anything', async () => {
    const service = serveBuild(completed);
    const controller = new AbortController();
    controller.abort();
    const result = await measure(() => client.waitForBuild('bld_1', { signal: controller.signal }), controller.signal);
    expect(result.error).toBeInstanceOf(AbortError);
    expect(service.polls).toEqual([]);
    expect(result.timersLeft).toBe(0);
    expect(result.listenersLeft).toBe(0);
  });

  it('aborts mid-sleep at once, even with a long interval', async () => {
    const service = serveBuild(building(10));
    const controller = new AbortController();
    const abortAt = setTimeout(() => controller.abort(), 60);

    const result = await measure(() => client.waitForBuild('bld_1', { intervalMs: 60_000, signal: controller.signal }), controller.signal);
    clearTimeout(abortAt);

    expect(result.error).toBeInstanceOf(AbortError);
    expect(result.elapsed).toBeLessThan(60 + SLACK_MS);
    expect(service.polls).toHaveLength(1);
    expect(result.timersLeft).toBe(0);
    expect(result.listenersLeft).toBe(0);
  });

  it('aborts mid-request at once', async () => {
    // Aborted once the second poll is in flight, not at a fixed time: on a busy machine the first poll may come late.
    const controller = new AbortController();
    const service = serveBuild(building(10), (info) => {
      setTimeout(() => controller.abort(), 20);
      return hang(info);
    });

    const result = await measure(() => client.waitForBuild('bld_1', { intervalMs: 20, signal: controller.signal }), controller.signal);

    expect(result.error).toBeInstanceOf(AbortError);
    expect(service.polls).toHaveLength(2);
    expect(result.elapsed).toBeLessThan(service.polls[1]! + 20 + SLACK_MS);
    expect(result.timersLeft).toBe(0);
    expect(result.listenersLeft).toBe(0);
  });

  it('watch() yields each changed state and ends after the terminal one', async () => {
    serveBuild(building(10), building(10), building(70), completed);
    const result = await measure(async () => {
      const seen: Build[] = [];
      for await (const build of client.builds.watch('bld_1', { intervalMs: 15 })) seen.push(build);
      return seen;
    });
    expect(result.value).toEqual([building(10), building(70), completed]);
    expect(result.timersLeft).toBe(0);
  });

  it('watch() stops polling when the loop is left early', async () => {
    const service = serveBuild(building(10), building(20), completed);
    const result = await measure(async () => {
      for await (const build of client.builds.watch('bld_1', { intervalMs: 15 })) if (build.progress === 10) break;
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(service.polls).toHaveLength(1);
    expect(result.timersLeft).toBe(0);
  });
});
