/**
 * Long runs: 10 000 sequential requests and 1 000 `waitForBuild` calls through one client, all sharing one
 * `AbortSignal` (as a server shares its shutdown signal). The heap after a full GC stays flat, and the shared
 * signal ends with exactly the listeners it started with: none. A leak of one small object per call would show
 * as megabytes here; a leak of one listener per call would show as thousands.
 *
 * Runs with `--expose-gc` (the reliability config's `execArgv`), so heap figures are taken after a full GC.
 */
import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client } from '../../src/index.js';
import { startFaultServer, workflowBody, type Fault, type FaultServer, type LoggedRequest } from './fault-server.js';
import { gc } from './gc.js';
import { activeHandles, count, figure, openHandlesSince, recordOpenHandles } from './summary.js';

const API_KEY = 'wfa_live_longrun_Pq7vX2mD0s';
const SEQUENTIAL = 10_000;
const WAITS = 1_000;
/** Heap growth allowed over a whole run: 4 MB, about 400 bytes per request. Noise after GC is about ±1 MB. */
const HEAP_BOUND_BYTES = 4 * 1024 * 1024;

let baseline: Map<string, number>;
let server: FaultServer;
beforeAll(async () => {
  baseline = activeHandles();
  server = await startFaultServer({ otherwise: service, keepLog: false });
});
afterAll(async () => {
  await server.close();
  recordOpenHandles('long-runs.test.ts', await openHandlesSince(baseline));
});

/** A fast, well-behaved service: workflows, orders, and builds that complete on their second poll. */
const polls = new Map<string, number>();
function service(r: LoggedRequest): Fault {
  const build = /^\/v1\/builds\/(bld_[\w-]+)$/.exec(r.path)?.[1];
  if (build) {
    const n = (polls.get(build) ?? 0) + 1;
    if (n < 2) polls.set(build, n);
    else polls.delete(build);
    return n < 2
      ? { kind: 'json', body: { id: build, status: 'building', progress: 50 } }
      : { kind: 'json', body: { id: build, status: 'completed', progress: 100, download_url: `https://files.example.com/${build}.zip` } };
  }
  if (r.path === '/v1/orders') return { kind: 'json', body: { data: [{ id: 'ord_1', status: 'paid' }], has_more: false } };
  if (r.method === 'DELETE') return { kind: 'raw', status: 204, body: '' };
  return { kind: 'json', status: r.method === 'POST' ? 201 : 200, body: workflowBody('wf_1') };
}

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/**
 * An AbortSignal that counts the abort listeners added to it and still registered. Counted two ways: through
 * its own `addEventListener`/`removeEventListener` (wrapped), and through Node's `getEventListeners`.
 */
function countedSignal() {
  const signal = new AbortController().signal;
  const live = new Set<unknown>();
  let added = 0;
  let peak = 0;
  type Listener = EventListenerOrEventListenerObject;
  const add = signal.addEventListener.bind(signal) as (
    type: string,
    listener: Listener,
    options?: AddEventListenerOptions | boolean,
  ) => void;
  const remove = signal.removeEventListener.bind(signal) as (
    type: string,
    listener: Listener,
    options?: EventListenerOptions | boolean,
  ) => void;
  const target = signal as unknown as {
    addEventListener(type: string, listener: Listener | null, options?: AddEventListenerOptions | boolean): void;
    removeEventListener(type: string, listener: Listener | null, options?: EventListenerOptions | boolean): void;
  };
  target.addEventListener = (type, listener, options) => {
    if (!listener) return;
    if (type === 'abort' && !live.has(listener)) {
      live.add(listener);
      added++;
      peak = Math.max(peak, live.size);
    }
    add(type, listener, options);
  };
  target.removeEventListener = (type, listener, options) => {
    if (!listener) return;
    if (type === 'abort') live.delete(listener);
    remove(type, listener, options);
  };
  return {
    signal,
    stats: () => ({ live: live.size, registered: getEventListeners(signal, 'abort').length, added, peak }),
  };
}

/**
 * Node 20 keeps, on a signal passed to `AbortSignal.any()`, a set of weak references to the combined signals
 * (`kDependantSignals`), and does not prune it. ky combines the caller's signal with its own for every attempt.
 * Reported as a figure: it is Node's bookkeeping, not a listener, but it is memory held by a shared signal.
 */
function dependantsOf(signal: AbortSignal): number {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  const set = symbol ? (signal as unknown as Record<symbol, { size?: number } | undefined>)[symbol] : undefined;
  return set?.size ?? 0;
}

/** Least-squares slope of heap over calls, in bytes per call: robust to the noise of single samples. */
function slope(samples: { calls: number; heap: number }[]): number {
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.calls, 0) / n;
  const my = samples.reduce((s, p) => s + p.heap, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of samples) {
    num += (p.calls - mx) * (p.heap - my);
    den += (p.calls - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

describe('long runs keep memory and listeners flat', () => {
  it(`${SEQUENTIAL} sequential requests (GET, PUT, DELETE, POST, list) sharing one AbortSignal`, async ({ expect }) => {
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' });
    const { signal, stats } = countedSignal();
    const options = { signal };
    const step = async (i: number): Promise<void> => {
      switch (i % 5) {
        case 0:
          await client.workflows.get('wf_1', options);
          return;
        case 1:
          await client.workflows.update('wf_1', { name: `run ${i}` }, options);
          return;
        case 2:
          await client.workflows.delete('wf_1', options);
          return;
        case 3:
          await client.workflows.create({ name: `run ${i}`, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }, options);
          return;
        default:
          await client.orders.list({ limit: 10 }, options);
      }
    };
    // Warm-up: JIT, connection pool, zod's compiled parsers. Not measured.
    for (let i = 0; i < 1_000; i++) await step(i);
    const served = server.received;
    const samples = [{ calls: 0, heap: heapAfterGc() }];
    const started = performance.now();
    for (let i = 0; i < SEQUENTIAL; i++) {
      await step(i);
      if ((i + 1) % 2_000 === 0) samples.push({ calls: i + 1, heap: heapAfterGc() });
    }
    const elapsed = performance.now() - started;
    const growth = samples.at(-1)!.heap - samples[0]!.heap;
    const perCall = slope(samples);
    const listeners = stats();

    count('requests', server.received);
    figure({ name: `heap growth after GC, ${SEQUENTIAL} requests`, value: growth, unit: 'bytes', bound: HEAP_BOUND_BYTES });
    figure({ name: `heap slope, ${SEQUENTIAL} requests`, value: perCall, unit: 'bytes/call' });
    figure({
      name: `abort listeners left on the shared signal, ${SEQUENTIAL} requests`,
      value: listeners.registered,
      unit: 'count',
      bound: 0,
    });
    figure({ name: 'abort listeners on the shared signal at once (peak)', value: listeners.peak, unit: 'count' });
    figure({ name: "Node's AbortSignal.any dependants kept on the shared signal", value: dependantsOf(signal), unit: 'count' });
    figure({ name: `time: ${SEQUENTIAL} sequential requests`, value: elapsed, unit: 'ms' });

    expect(server.received - served).toBe(SEQUENTIAL);
    expect(listeners.live).toBe(0);
    expect(listeners.registered).toBe(0);
    expect(growth).toBeLessThanOrEqual(HEAP_BOUND_BYTES);
  });

  it(`${WAITS} waitForBuild calls sharing one AbortSignal`, async ({ expect }) => {
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' });
    const { signal, stats } = countedSignal();
    let completed = 0;
    const wait = async (i: number) => {
      const build = await client.waitForBuild(`bld_${i}`, { intervalMs: 1, timeoutMs: 10_000, signal });
      if (build.download_url === `https://files.example.com/bld_${i}.zip`) completed++;
    };
    for (let i = 0; i < 100; i++) await wait(-1 - i);
    completed = 0;
    const served = server.received;
    const samples = [{ calls: 0, heap: heapAfterGc() }];
    const started = performance.now();
    for (let i = 0; i < WAITS; i++) {
      await wait(i);
      if ((i + 1) % 200 === 0) samples.push({ calls: i + 1, heap: heapAfterGc() });
    }
    const elapsed = performance.now() - started;
    const growth = samples.at(-1)!.heap - samples[0]!.heap;
    const listeners = stats();

    count('requests', server.received);
    figure({ name: `heap growth after GC, ${WAITS} waitForBuild`, value: growth, unit: 'bytes', bound: HEAP_BOUND_BYTES });
    figure({ name: `heap slope, ${WAITS} waitForBuild`, value: slope(samples), unit: 'bytes/call' });
    figure({ name: `abort listeners left on the shared signal, ${WAITS} waits`, value: listeners.registered, unit: 'count', bound: 0 });
    figure({ name: `time: ${WAITS} waitForBuild (2 polls each)`, value: elapsed, unit: 'ms' });

    expect(completed).toBe(WAITS);
    // Each wait: one poll that sees `building`, one that sees `completed`.
    expect(server.received - served).toBe(2 * WAITS);
    expect(listeners.live).toBe(0);
    expect(listeners.registered).toBe(0);
    // Every wait added its listeners and removed them: nothing accumulates.
    expect(listeners.peak).toBeLessThanOrEqual(2);
    expect(growth).toBeLessThanOrEqual(HEAP_BOUND_BYTES);
  });

  it('1000 concurrent requests sharing one AbortSignal leave no listener on it', async ({ expect }) => {
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1' });
    const { signal, stats } = countedSignal();
    const before = server.received;
    const results = await Promise.allSettled(Array.from({ length: 1_000 }, () => client.workflows.get('wf_1', { signal })));
    count('requests', server.received - before);
    figure({ name: 'abort listeners left on the shared signal, 1000 concurrent', value: stats().registered, unit: 'count', bound: 0 });
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(stats().live).toBe(0);
    expect(stats().registered).toBe(0);
  });
});
