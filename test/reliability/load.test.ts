/**
 * Load: 1000 concurrent requests through one client, against a real server on 127.0.0.1. Every call
 * completes, every request reaches the server exactly as often as the retry rules allow (counted by a unique
 * marker per call: the id in the path, or the name in a POST body), every caller gets its own answer back,
 * and nothing is rejected without a handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, WfaError, type RequestOptions } from '../../src/index.js';
import { startFaultServer, workflowBody, type Fault, type LoggedRequest } from './fault-server.js';
import { activeHandles, count, figure, openHandlesSince, recordOpenHandles } from './summary.js';

let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('load.test.ts', await openHandlesSince(baseline));
});

const API_KEY = 'wfa_live_load_Zt81nVq0Rr';
const CALLS = 1000;
/** All 1000 calls must be done by then (they take about a second on a 2-core machine). */
const RUN_BOUND_MS = 20_000;

type Method = 'GET' | 'PUT' | 'DELETE' | 'POST';
const methodOf = (i: number): Method => (['GET', 'PUT', 'DELETE', 'POST'] as const)[i % 4]!;
const markerOf = (i: number) => `m${String(i).padStart(4, '0')}`;

/** Call `i`: its method, and its marker in the path (GET, PUT, DELETE) or in the body (POST). */
function call(client: Client, i: number, options?: RequestOptions): Promise<unknown> {
  const marker = markerOf(i);
  switch (methodOf(i)) {
    case 'GET':
      return client.workflows.get(`wf_${marker}`, options);
    case 'PUT':
      return client.workflows.update(`wf_${marker}`, { name: `renamed ${marker}` }, options);
    case 'DELETE':
      return client.workflows.delete(`wf_${marker}`, options);
    case 'POST':
      return client.workflows.create(
        { name: marker, platform: 'zapier', trigger: { type: 'webhook' }, actions: [{ app: 'slack', action: 'send_message' }] },
        options,
      );
  }
}

/** The marker a request carries, read the way the server sees it. */
function requestMarker(r: LoggedRequest): string | undefined {
  if (r.method === 'POST') {
    try {
      return (JSON.parse(r.body) as { name?: string }).name;
    } catch {
      return undefined;
    }
  }
  return /\/workflows\/wf_(m\d{4})$/.exec(r.path)?.[1];
}

/** The answer a well-behaved service gives, after a little random latency so requests really overlap. */
function answer(r: LoggedRequest): Fault {
  const marker = requestMarker(r) ?? 'none';
  return {
    kind: 'custom',
    handle: (_req: IncomingMessage, res: ServerResponse) => {
      setTimeout(
        () => {
          if (r.method === 'DELETE') {
            res.writeHead(204).end();
            return;
          }
          const body = JSON.stringify(workflowBody(`wf_${marker}`, r.method === 'PUT' ? { name: `renamed ${marker}` } : { name: marker }));
          res.writeHead(r.method === 'POST' ? 201 : 200, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
        },
        Math.floor(Math.random() * 20),
      );
    },
  };
}

/** Checks that call `i` resolved with its own workflow (not another caller's). */
function isOwnAnswer(i: number, value: unknown): boolean {
  if (methodOf(i) === 'DELETE') return value === undefined;
  return (value as { id?: unknown } | undefined)?.id === `wf_${markerOf(i)}`;
}

function watchUnhandled(): { stop(): number } {
  let n = 0;
  const onRejection = () => {
    n++;
  };
  process.on('unhandledRejection', onRejection);
  return {
    stop() {
      process.off('unhandledRejection', onRejection);
      return n;
    },
  };
}

describe('1000 concurrent requests through one client', () => {
  it('all complete, each reaches the server exactly once, each caller gets its own answer', async ({ expect }) => {
    const server = await startFaultServer({ otherwise: answer });
    const unhandled = watchUnhandled();
    try {
      const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', timeoutMs: 15_000 });
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: CALLS }, (_, i) => call(client, i)));
      const elapsed = performance.now() - started;
      // One event-loop turn for any stray rejection to be reported.
      await new Promise((resolve) => setImmediate(resolve));
      const strays = unhandled.stop();

      const perMarker = new Map<string, number>();
      for (const r of server.log) {
        const marker = requestMarker(r) ?? 'unmarked';
        perMarker.set(marker, (perMarker.get(marker) ?? 0) + 1);
      }
      const lost = Array.from({ length: CALLS }, (_, i) => markerOf(i)).filter((m) => !perMarker.has(m));
      const doubled = [...perMarker].filter(([, n]) => n > 1);
      const wrong = results.flatMap((r, i) => (r.status === 'fulfilled' && isOwnAnswer(i, r.value) ? [] : [{ i, r }]));

      count('requests', server.log.length);
      count('lost', lost.length);
      count(
        'duplicates',
        doubled.reduce((sum, [, n]) => sum + n - 1, 0),
      );
      count('unhandledRejections', strays);
      figure({ name: 'time: 1000 concurrent requests, one client', value: elapsed, unit: 'ms', bound: RUN_BOUND_MS });

      expect(wrong.slice(0, 3)).toEqual([]);
      expect(lost).toEqual([]);
      expect(doubled).toEqual([]);
      expect(server.log).toHaveLength(CALLS);
      expect(strays).toBe(0);
      expect(elapsed).toBeLessThan(RUN_BOUND_MS);
    } finally {
      unhandled.stop();
      await server.close();
    }
  });

  it('with a 429, a 503 or a reset on one call in ten each: every call ends as the retry rules say, no request lost or doubled', async ({
    expect,
  }) => {
    /**
     * The first attempt of call i meets this fault (none for 7 calls in 10). Calls go by fours (GET, PUT,
     * DELETE, POST), and a four shares its fault, so every method meets every fault 25 times.
     */
    const faultOf = (i: number) =>
      (['none', '429', '503', 'reset', 'none', 'none', 'none', 'none', 'none', 'none'] as const)[Math.floor(i / 4) % 10]!;
    const seen = new Map<string, number>();
    const server = await startFaultServer({
      otherwise: (r) => {
        const marker = requestMarker(r) ?? 'none';
        const attempt = (seen.get(marker) ?? 0) + 1;
        seen.set(marker, attempt);
        const i = Number(marker.slice(1));
        if (attempt === 1) {
          switch (faultOf(i)) {
            case '429':
              return { kind: 'raw', status: 429, body: '', headers: { 'retry-after': '0' } };
            case '503':
              return { kind: 'json', status: 503, body: { error: 'busy' } };
            case 'reset':
              return { kind: 'reset' };
            case 'none':
              break;
          }
        }
        return answer(r);
      },
    });
    const unhandled = watchUnhandled();
    try {
      // The retry rules alone, with the rate gate off: a service that refuses one call in ten at random, at any
      // rate, would have the gate cut its pace at each refusal (as it should), which is not what this measures.
      const client = new Client({
        baseUrl: server.url,
        apiKey: API_KEY,
        apiPrefix: '/v1',
        timeoutMs: 15_000,
        maxRetries: 2,
        rateLimit: false,
      });
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: CALLS }, (_, i) => call(client, i)));
      const elapsed = performance.now() - started;
      await new Promise((resolve) => setImmediate(resolve));
      const strays = unhandled.stop();

      /** What the rules say: an idempotent call is retried after any of these; a POST only after the 429. */
      const expected = (i: number): { outcome: string; requests: number } => {
        const fault = faultOf(i);
        if (fault === 'none') return { outcome: 'ok', requests: 1 };
        if (methodOf(i) !== 'POST' || fault === '429') return { outcome: 'ok', requests: 2 };
        return { outcome: fault === '503' ? 'InternalServerError' : 'ConnectionError', requests: 1 };
      };
      const mismatches: unknown[] = [];
      let injected = 0;
      let survived = 0;
      let duplicates = 0;
      let lost = 0;
      results.forEach((r, i) => {
        const want = expected(i);
        const outcome =
          r.status === 'fulfilled'
            ? isOwnAnswer(i, r.value)
              ? 'ok'
              : 'wrong answer'
            : WfaError.is(r.reason)
              ? r.reason.name
              : `not an SDK error: ${String(r.reason)}`;
        const requests = seen.get(markerOf(i)) ?? 0;
        if (faultOf(i) !== 'none') injected++;
        if (requests > want.requests) duplicates += requests - want.requests;
        if (requests === 0) lost++;
        if (outcome === want.outcome && requests === want.requests) {
          if (faultOf(i) !== 'none') survived++;
        } else {
          mismatches.push({ i, method: methodOf(i), fault: faultOf(i), outcome, requests, want });
        }
      });

      count('requests', server.log.length);
      count('faultsInjected', injected);
      count('faultsSurvived', survived);
      count('duplicates', duplicates);
      count('lost', lost);
      count('unhandledRejections', strays);
      figure({ name: 'time: 1000 concurrent requests, 30% faults', value: elapsed, unit: 'ms', bound: RUN_BOUND_MS });

      expect(mismatches.slice(0, 5)).toEqual([]);
      expect(duplicates).toBe(0);
      expect(lost).toBe(0);
      expect(strays).toBe(0);
      // 1000 first attempts; a second one for each of the 100 429s, and for each 503 or reset of the 75 + 75
      // idempotent calls that met one (the 25 + 25 POSTs that met one are not sent again).
      expect(server.log).toHaveLength(CALLS + 100 + 75 + 75);
      const outcomes = (fault: string, method: Method) =>
        results
          .filter((_r, i) => faultOf(i) === fault && methodOf(i) === method)
          .map((r) => (r.status === 'fulfilled' ? 'ok' : WfaError.is(r.reason) ? r.reason.name : 'other'));
      expect(new Set(outcomes('503', 'POST'))).toEqual(new Set(['InternalServerError']));
      expect(new Set(outcomes('reset', 'POST'))).toEqual(new Set(['ConnectionError']));
      expect(new Set(outcomes('429', 'POST'))).toEqual(new Set(['ok']));
      expect(outcomes('503', 'POST')).toHaveLength(25);
      expect(elapsed).toBeLessThan(RUN_BOUND_MS);
    } finally {
      unhandled.stop();
      await server.close();
    }
  });
});
