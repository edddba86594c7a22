import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { type ApiError, Client, ConnectionError, InternalServerError, TimeoutError, WfaError, type RetryContext } from '../../src/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now' };
const input = { name: 'n', platform: 'p', trigger: { type: 'webhook' }, actions: [] };
const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: BASE, apiKey: 'k_123456', apiPrefix: '/v1', ...options });
const revokedProxy = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const always = (status: number, headers: Record<string, string> = {}) =>
  server.use(http.all(`${BASE}/v1/workflows*`, () => HttpResponse.json({ message: 'no' }, { status, headers })));

describe('deadlineMs', () => {
  it('ends a slow attempt at the deadline with reason "deadline"', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, async () => {
        await delay('infinite');
        return HttpResponse.json(workflow);
      }),
    );
    const settled = await settle(client({ timeoutMs: 60_000 }).workflows.get('wf_1', { deadlineMs: 2_000 }));
    expect(settled.ok).toBe(false);
    const error = (settled as { error: TimeoutError }).error;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ reason: 'deadline', timeoutMs: 2_000 });
    expect(error.message).toMatch(/deadline \(2000 ms\)/);
    expect(settled.elapsedMs).toBe(2_000);
  });

  it('says "attempt" when timeoutMs ran out first', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, async () => {
        await delay('infinite');
        return HttpResponse.json(workflow);
      }),
    );
    const settled = await settle(client({ timeoutMs: 1_000, maxRetries: 0, deadlineMs: 30_000 }).workflows.get('wf_1'));
    expect((settled as { error: TimeoutError }).error).toMatchObject({ reason: 'attempt', timeoutMs: 1_000 });
  });

  it('starts no retry whose backoff would end past the deadline', async () => {
    always(503);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const settled = await settle(
      client({ maxRetries: 10, retry: { baseDelayMs: 1_000, maxDelayMs: 1_000 } }).workflows.get('wf_1', { deadlineMs: 2_500 }),
    );
    expect((settled as { error: unknown }).error).toBeInstanceOf(InternalServerError);
    // Backoffs of 0.75 s (jitter fixed at its middle): attempts at 0, 0.75, 1.5 and 2.25 s; the next would start
    // at 3 s, past the 2.5 s deadline, so the call ends with the fourth answer.
    expect(server.requests).toHaveLength(4);
    expect(settled.elapsedMs).toBe(2_250);
  });

  it('covers the apiKey function', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const apiKey = () => new Promise<string>(() => undefined);
    const settled = await settle(client({ apiKey, timeoutMs: 60_000, deadlineMs: 3_000 }).workflows.get('wf_1'));
    expect((settled as { error: TimeoutError }).error).toMatchObject({ reason: 'deadline', timeoutMs: 3_000 });
    expect(settled.elapsedMs).toBe(3_000);
    expect(server.requests).toHaveLength(0);
  });

  it.each([0, -1, Number.NaN])('rejects deadlineMs %s', async (deadlineMs) => {
    await expect(client().workflows.get('wf_1', { deadlineMs })).rejects.toThrow(/deadlineMs/);
    expect(() => client({ deadlineMs })).toThrow(WfaError);
  });
});

describe('retry', () => {
  it('retries only the statuses it lists', async () => {
    always(500);
    await settle(client({ retry: { statuses: [503] } }).workflows.get('wf_1'));
    expect(server.requests).toHaveLength(1);
  });

  it('uses its backoff', async () => {
    always(503);
    const settled = await settle(client({ maxRetries: 2, retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } }).workflows.get('wf_1'));
    expect(server.requests).toHaveLength(3);
    expect(settled.elapsedMs).toBeGreaterThanOrEqual(10_000);
  });

  it('bounds Retry-After with maxRetryAfterMs', async () => {
    always(429, { 'retry-after': '5' });
    const settled = await settle(client({ retry: { maxRetryAfterMs: 1_000 } }).workflows.get('wf_1'));
    expect((settled as { error: ApiError }).error.retryAfterMs).toBe(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST that may have acted only when shouldRetry says true', async () => {
    always(503);
    const asked: RetryContext[] = [];
    await settle(
      client({
        retry: {
          shouldRetry: (c) => {
            asked.push(c);
            return undefined;
          },
        },
      }).workflows.create(input),
    );
    expect(server.requests).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', status: 503, attempt: 1, mayHaveActed: true, url: `${BASE}/v1/workflows` });
    server.requests.length = 0;
    await settle(client({ maxRetries: 2, retry: { shouldRetry: () => true } }).workflows.create(input));
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    ['an async shouldRetry (a promise)', async () => false, 'a promise'],
    ['a shouldRetry that answers a string', () => 'no', 'string'],
  ])('%s fails the call with a WfaError naming it, not retried: no answer is no decision', async (_, shouldRetry, what) => {
    always(503);
    const settled = await settle(client({ retry: { shouldRetry: shouldRetry as unknown as () => boolean } }).workflows.get('wf_1'));
    const { error } = settled as { error: WfaError };
    expect(error.message).toMatch(/^retry\.shouldRetry failed on GET .*\(TypeError\); not retried$/);
    expect((error.cause as Error).message).toBe(`it must answer true, false or undefined synchronously, not ${what}`);
    expect(server.requests).toHaveLength(1);
  });

  it('a shouldRetry answering a revoked Proxy fails the call with a WfaError naming it, not its raw TypeError', async () => {
    always(503);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const settled = await settle(client({ retry: { shouldRetry: () => proxy as unknown as boolean } }).workflows.get('wf_1'));
    const { error } = settled as { error: WfaError };
    expect(error).toBeInstanceOf(WfaError);
    expect(error.message).toMatch(/^retry\.shouldRetry failed on GET .*\(TypeError\); not retried$/);
    expect((error.cause as Error).message).toBe('it must answer true, false or undefined synchronously, not object');
  });

  it.each([
    [
      'throws',
      () => {
        throw revokedProxy();
      },
    ],
    [
      'rejects with',
      async () => {
        throw revokedProxy();
      },
    ],
  ])('a custom fetch that %s a revoked Proxy fails the call with a ConnectionError', async (_, fetch) => {
    const settled = await settle(client({ maxRetries: 1, retry: { baseDelayMs: 1 }, fetch }).workflows.get('wf_1'));
    const { error } = settled as { error: ConnectionError };
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/^Could not reach the service: .* \(GET /);
  });

  it('shouldRetry false stops a retry the default would make', async () => {
    always(503);
    await settle(client({ retry: { shouldRetry: () => false } }).workflows.get('wf_1'));
    expect(server.requests).toHaveLength(1);
  });

  it('a shouldRetry that throws fails the call with a WfaError naming it, not retried, without the key', async () => {
    always(503);
    const settled = await settle(
      client({
        apiKey: 'k_secret_789',
        retry: {
          shouldRetry: () => {
            throw new Error('bug with k_secret_789');
          },
        },
      }).workflows.get('wf_1'),
    );
    const error = (settled as { error: WfaError }).error;
    expect(error).toBeInstanceOf(WfaError);
    expect(error.message).toMatch(/retry\.shouldRetry/);
    expect(JSON.stringify({ m: error.message, c: String((error.cause as Error)?.message) })).not.toContain('k_secret_789');
    expect(server.requests).toHaveLength(1);
  });

  it.each([{ statuses: [200] }, { baseDelayMs: -1 }, { shouldRetry: 'yes' }])('rejects %j when the client is made', (retry) => {
    expect(() => client({ retry: retry as never })).toThrow(WfaError);
  });
});
