/**
 * User callbacks that hang, throw or reject: an `apiKey` function and a logger. Whatever they do, a call keeps
 * its time bounds (`timeoutMs`, the caller's `signal`, a build wait's `timeoutMs`) and ends in the SDK's own
 * errors, with no secret in them and no request sent when there is no key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ApiKeyError, Client, TimeoutError, WaitTimeoutError, WfaError } from '../../src/index.js';
import { faults, startFaultServer, type FaultServer } from './fault-server.js';
import { activeHandles, attacked, count, openHandlesSince, recordOpenHandles, renderings, secretHits } from './summary.js';

const KEY = 'wfa_live_vault_Qm3xT9pLk2';
const FAMILY = 'user callbacks that hang, reject or throw';

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
  recordOpenHandles('callbacks.test.ts', await openHandlesSince(baseline));
});

/** Runs `call`, returning what it rejected with (or 'resolved') and how long it took. */
async function outcome(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call().then(
    () => 'resolved',
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

/** Records the attack, and that no rendering of the error holds the key. */
function held(family: typeof FAMILY, error: unknown, ok: boolean): void {
  const texts = renderings(error);
  count('secretSearches', texts.length);
  const hits = secretHits(texts, [KEY]);
  count('secretsFound', hits);
  attacked(family, ok && hits === 0);
  expect(hits).toBe(0);
}

describe('an apiKey function', () => {
  const never = () => new Promise<string>(() => undefined);

  it('that never settles: the call ends with TimeoutError at timeoutMs, and nothing is sent', async () => {
    server.reset();
    const client = new Client({ baseUrl: server.url, apiKey: never, apiPrefix: '/v1', timeoutMs: 300 });
    const { error, ms } = await outcome(() => client.workflows.get('wf_1'));
    const ok = TimeoutError.is(error) && ms < 5_000 && server.received === 0;
    held(FAMILY, error, ok);
    expect(TimeoutError.is(error)).toBe(true);
    expect((error as Error).message).toContain('apiKey function did not return within 300 ms');
    expect(ms).toBeLessThan(5_000);
    expect(server.received).toBe(0);
  });

  it('that never settles: the caller signal still ends the call with AbortError', async () => {
    server.reset();
    const client = new Client({ baseUrl: server.url, apiKey: never, apiPrefix: '/v1', timeoutMs: 60_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user gave up')), 100);
    const { error, ms } = await outcome(() => client.workflows.get('wf_1', { signal: ac.signal }));
    held(FAMILY, error, AbortError.is(error) && ms < 5_000 && server.received === 0);
    expect(AbortError.is(error)).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expect(server.received).toBe(0);
  });

  it("that never settles: waitForBuild's timeoutMs still ends the wait", async () => {
    server.reset();
    const client = new Client({ baseUrl: server.url, apiKey: never, apiPrefix: '/v1' });
    const { error, ms } = await outcome(() => client.waitForBuild('bld_1', { timeoutMs: 500, intervalMs: 100 }));
    held(FAMILY, error, WaitTimeoutError.is(error) && ms < 5_000 && server.received === 0);
    expect(WaitTimeoutError.is(error)).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expect(server.received).toBe(0);
  });

  const failures: [string, () => string | Promise<string>][] = [
    [
      'throws an Error that quotes the key',
      () => {
        throw new Error(`vault refused ${KEY}`);
      },
    ],
    ['rejects with an Error that quotes the key', () => Promise.reject(new TypeError(`fetch failed for ${KEY}`))],
    ['rejects with a string', () => Promise.reject(`no ${KEY}`)],
    ['rejects with undefined', () => Promise.reject(undefined)],
  ];
  for (const [name, apiKey] of failures) {
    it(`that ${name}: ApiKeyError, not retried, nothing sent, no key in any rendering`, async () => {
      server.reset();
      // A first call with a working key, so that the SDK knows the key it would have to hide.
      let calls = 0;
      const client = new Client({ baseUrl: server.url, apiKey: () => (calls++ === 0 ? KEY : apiKey()), apiPrefix: '/v1' });
      await client.workflows.get('wf_1');
      server.reset();
      const { error } = await outcome(() => client.workflows.get('wf_1'));
      held(FAMILY, error, ApiKeyError.is(error) && server.received === 0);
      expect(ApiKeyError.is(error)).toBe(true);
      expect(error).toBeInstanceOf(WfaError);
      expect(calls).toBe(2);
      expect(server.received).toBe(0);
    });
  }

  it('that throws, with an onError hook that never settles: ApiKeyError at timeoutMs, nothing sent', async () => {
    server.reset();
    const vaultDown = () => {
      throw new Error('vault down');
    };
    const hooks = { onError: () => new Promise<void>(() => undefined) };
    const client = new Client({ baseUrl: server.url, apiKey: vaultDown, apiPrefix: '/v1', timeoutMs: 300, hooks });
    const { error, ms } = await outcome(() => client.workflows.get('wf_1'));
    held(FAMILY, error, ApiKeyError.is(error) && ms < 5_000 && server.received === 0);
    expect(ApiKeyError.is(error)).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expect(server.received).toBe(0);
  });

  it('that returns something other than a non-empty string: ApiKeyError, nothing sent', async () => {
    for (const value of [undefined, '', 42, { key: KEY }]) {
      server.reset();
      const client = new Client({ baseUrl: server.url, apiKey: () => value as string, apiPrefix: '/v1' });
      const { error } = await outcome(() => client.workflows.get('wf_1'));
      held(FAMILY, error, ApiKeyError.is(error) && server.received === 0);
      expect(ApiKeyError.is(error)).toBe(true);
      expect(server.received).toBe(0);
    }
  });
});

describe('a logger', () => {
  const levels = ['error', 'warn', 'info', 'debug'] as const;
  const throwing = Object.fromEntries(
    levels.map((l) => [
      l,
      () => {
        throw new Error(`logger down ${KEY}`);
      },
    ]),
  );
  const rejecting = Object.fromEntries(levels.map((l) => [l, () => Promise.reject(new Error(`logger down ${KEY}`))]));

  for (const [name, logger] of [
    ['that throws', throwing],
    ['that rejects', rejecting],
  ] as const) {
    it(`${name} on every line changes nothing, through a retry and the prefix fallback`, async () => {
      server.reset();
      // A 404 under /api/v1 (the fallback), a 503 under /v1 (a retry), then the workflow.
      server.plan(faults.status(404), faults.status(503, { error: 'busy' }, { 'retry-after': '0' }));
      const client = new Client({ baseUrl: server.url, apiKey: KEY, logger: logger as never, logLevel: 'debug' });
      const result = await client.workflows.get('wf_1');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const ok = result.id === 'wf_1' && server.received === 3 && unhandled.length === 0;
      attacked(FAMILY, ok);
      expect(result.id).toBe('wf_1');
      expect(server.requests().map((r) => r.path)).toEqual(['/api/v1/workflows/wf_1', '/v1/workflows/wf_1', '/v1/workflows/wf_1']);
      expect(unhandled).toEqual([]);
    });
  }
});
