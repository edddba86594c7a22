/**
 * Build waits against hostile polls: every poll answer ends a wait in a value or one of the SDK's errors,
 * promptly, and a caller's `onProgress` cannot break it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildFailedError, Client, ResponseValidationError, WfaError } from '../../src/index.js';
import { faults, startFaultServer, type Fault, type FaultServer } from './fault-server.js';
import { activeHandles, attacked, count, openHandlesSince, recordOpenHandles } from './summary.js';

const KEY = 'wfa_live_waits_Vb6mK1';
const DONE = { status: 'completed', progress: 100, download_url: 'https://cdn.example.com/bld_1.zip' };
let server: FaultServer;
let baseline: Map<string, number>;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  baseline = activeHandles();
  process.on('unhandledRejection', onUnhandled);
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
  process.off('unhandledRejection', onUnhandled);
  count('unhandledRejections', unhandled.length);
  recordOpenHandles('build-waits.test.ts', await openHandlesSince(baseline));
});

/** Serves `answers` to successive polls, the last one to every later poll. */
function serve(...answers: Fault[]): void {
  server.reset();
  server.otherwise((_request, log) => answers[Math.min(log.length, answers.length) - 1]!);
}

/** Waits for bld_1 with a short schedule, returning the build or what the wait rejected with. */
function wait(options: { validateResponses?: boolean; onProgress?: (build: unknown) => void } = {}): Promise<unknown> {
  const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', validateResponses: options.validateResponses ?? true });
  return client.waitForBuild('bld_1', { intervalMs: 10, timeoutMs: 20_000, onProgress: options.onProgress }).catch((e: unknown) => e);
}

function record(family: 'build waits on hostile polls' | 'user callbacks that hang, reject or throw', ok: boolean): void {
  count('faultsInjected');
  if (ok) count('faultsSurvived');
  attacked(family, ok);
}

describe('a poll nested 100 000 levels deep', () => {
  const deep = (key: string) => `{"status":"building","${key}":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  for (const validateResponses of [false, true]) {
    for (const key of ['progress', 'logs']) {
      it(`in ${key}, validateResponses: ${validateResponses}: a value or a WfaError, never a RangeError`, async () => {
        serve({ kind: 'raw', status: 200, body: deep(key), headers: { 'content-type': 'application/json' } }, faults.ok(DONE));
        const outcome = await wait({ validateResponses });
        const ok = WfaError.is(outcome) || (outcome as { status?: unknown }).status === 'completed';
        record('build waits on hostile polls', ok);
        expect(outcome).not.toBeInstanceOf(RangeError);
        expect(ok).toBe(true);
      });
    }
  }
});

describe('a completed build whose download_url is not http(s)', () => {
  for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', '/relative/bld_1.zip']) {
    for (const validateResponses of [true, false]) {
      it(`${url.slice(0, 18)}…, validateResponses: ${validateResponses}: ResponseValidationError naming download_url`, async () => {
        serve(faults.ok({ status: 'completed', download_url: url }));
        const outcome = await wait({ validateResponses });
        const ok = ResponseValidationError.is(outcome) && outcome.issues[0]?.path[0] === 'download_url';
        record('build waits on hostile polls', ok);
        expect(ResponseValidationError.is(outcome)).toBe(true);
        expect((outcome as ResponseValidationError).issues[0]?.path).toEqual(['download_url']);
      });
    }
  }

  // `CompletedBuild` types its URL a string wherever the SDK reads one: validateResponses cannot turn that off.
  for (const body of [
    { status: 'completed', download_url: 'javascript:alert(1)' },
    { status: 'completed', download_url: 'data:text/html,x' },
    { status: 'completed' },
    { status: 'COMPLETED' },
  ]) {
    for (const validateResponses of [true, false]) {
      it(`builds.get refuses it too: ${JSON.stringify(body)}, validateResponses: ${validateResponses}`, async () => {
        serve(faults.ok(body));
        const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', validateResponses });
        const outcome = await client.builds.get('bld_1').catch((e: unknown) => e);
        record('build waits on hostile polls', ResponseValidationError.is(outcome));
        expect(ResponseValidationError.is(outcome)).toBe(true);
        expect((outcome as ResponseValidationError).issues[0]?.path).toEqual(['download_url']);
      });
    }
  }
});

describe('terminal statuses in any case', () => {
  for (const status of ['FAILED', 'Failed', 'Cancelled', 'ERROR']) {
    it(`${status} ends the wait with BuildFailedError at once`, async () => {
      serve(faults.ok({ status: 'building', progress: 5 }), faults.ok({ status, logs: ['boom'] }));
      const outcome = await wait();
      const ok = BuildFailedError.is(outcome) && server.received === 2;
      record('build waits on hostile polls', ok);
      expect(BuildFailedError.is(outcome)).toBe(true);
      expect((outcome as BuildFailedError).build.status).toBe(status);
      expect(server.received).toBe(2);
    });
  }

  it("COMPLETED resolves with status 'completed', as typed", async () => {
    serve(faults.ok({ ...DONE, status: 'COMPLETED' }));
    const outcome = await wait();
    const ok = (outcome as { status?: unknown }).status === 'completed' && server.received === 1;
    record('build waits on hostile polls', ok);
    expect(outcome).toMatchObject({ status: 'completed', download_url: DONE.download_url });
  });
});

describe('an onProgress that throws, rejects or never settles', () => {
  const callbacks: [string, () => unknown][] = [
    [
      'throws',
      () => {
        throw new Error('render failed');
      },
    ],
    ['rejects', () => Promise.reject(new Error('render failed'))],
    ['rejects with a non-Error', () => Promise.reject('no')],
    ['never settles', () => new Promise(() => undefined)],
  ];
  for (const [name, onProgress] of callbacks) {
    it(`${name}: the wait still resolves with the completed build, one poll per state`, async () => {
      serve(faults.ok({ status: 'building', progress: 10 }), faults.ok({ status: 'building', progress: 60 }), faults.ok(DONE));
      const outcome = await wait({ onProgress: onProgress as (build: unknown) => void });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const ok = (outcome as { status?: unknown }).status === 'completed' && server.received === 3 && unhandled.length === 0;
      record('user callbacks that hang, reject or throw', ok);
      expect(outcome).toMatchObject({ status: 'completed' });
      expect(server.received).toBe(3);
      expect(unhandled).toEqual([]);
    });
  }
});
