import { afterEach, describe, expect, test } from 'vitest';
import { createMockService, type MockService, type MockServiceOptions } from '../../src/testing/index.js';
import { reply, WORKFLOW, type Reply } from './helpers.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');

const services: MockService[] = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/** A mock on a clock that moves only when the test says. */
function limited(options: MockServiceOptions) {
  let t = START;
  const service = createMockService({ now: () => t, seed: 7, ...options });
  services.push(service);
  const get = async (key: string | null = service.apiKey, path = '/v1/orders'): Promise<Reply> =>
    reply(await service.handle(new Request(`http://mock.test${path}`, { headers: key === null ? {} : { 'x-api-key': key } })));
  const burst = async (count: number, key?: string): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await get(key)).status);
    return statuses;
  };
  return { service, get, burst, advance: (ms: number) => void (t += ms) };
}

describe('rateLimit: a token bucket per API key', () => {
  test("a key may send one second's worth at once; the next request is a 429 with Retry-After and the usual error body", async () => {
    const { get, burst } = limited({ rateLimit: { requestsPerSecond: 5 } });

    expect(await burst(5)).toEqual([200, 200, 200, 200, 200]);
    const refused = await get();

    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toMatch(/rate limit/);
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('tokens come back at the rate: one request per 1/rate seconds once the burst is spent', async () => {
    const { get, burst, advance } = limited({ rateLimit: { requestsPerSecond: 5 } });
    await burst(5);

    advance(199);
    expect((await get()).status).toBe(429);
    advance(1);
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    advance(1000);
    expect(await burst(6)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test('Retry-After is the time until a token, in whole seconds rounded up', async () => {
    const { get, advance } = limited({ rateLimit: { requestsPerSecond: 0.25 } });
    expect((await get()).status).toBe(200);

    expect((await get()).headers.get('retry-after')).toBe('4');
    advance(1500);
    expect((await get()).headers.get('retry-after')).toBe('3');
    advance(2499);
    expect((await get()).headers.get('retry-after')).toBe('1');
    advance(1);
    expect((await get()).status).toBe(200);
  });

  test('burst sets the capacity', async () => {
    const { burst } = limited({ rateLimit: { requestsPerSecond: 5, burst: 2 } });

    expect(await burst(3)).toEqual([200, 200, 429]);
  });

  test('each key has its own bucket; requests without a key the mock issued are not limited', async () => {
    const { service, get, burst } = limited({ rateLimit: { requestsPerSecond: 2 } });
    const other = service.issueKey();
    await burst(3);

    expect(await burst(2, other)).toEqual([200, 200]);
    expect(await burst(3, 'wfa_made_up')).toEqual([401, 401, 401]);
    expect((await get(null)).status).toBe(401);
    expect((await get(null)).status).toBe(401);
  });

  test('a 429 costs no token: a client that waits Retry-After gets through', async () => {
    const { get, burst, advance } = limited({ rateLimit: { requestsPerSecond: 1 } });
    await burst(10);

    advance(Number((await get()).headers.get('retry-after')) * 1000);
    expect((await get()).status).toBe(200);
  });

  test('without rateLimitHeaders, no rate-limit header is sent: a client must learn the limit', async () => {
    const { get, burst } = limited({ rateLimit: { requestsPerSecond: 2 } });
    await burst(1);
    const names = [...(await get()).headers.keys(), ...(await get()).headers.keys()];

    expect(names.filter((name) => name.includes('ratelimit'))).toEqual([]);
  });

  test('with rateLimitHeaders, every limited response carries RateLimit, RateLimit-Policy and X-RateLimit-*', async () => {
    const { get, advance } = limited({ rateLimit: { requestsPerSecond: 2 }, rateLimitHeaders: true });
    const first = await get();
    await get();
    const refused = await get();

    expect(Object.fromEntries([...first.headers].filter(([name]) => name.includes('ratelimit')))).toEqual({
      'ratelimit-policy': '"default";q=2;w=1',
      ratelimit: '"default";r=1;t=1',
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '1',
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    advance(10_000);
    expect((await get()).headers.get('ratelimit')).toBe('"default";r=1;t=1');
  });

  test('under one request a second, the policy names a longer window', async () => {
    const { get } = limited({ rateLimit: { requestsPerSecond: 0.5 }, rateLimitHeaders: true });

    expect((await get()).headers.get('ratelimit-policy')).toBe('"default";q=1;w=2');
  });

  test('invalid values are refused when the mock is created, naming the option', () => {
    expect(() => createMockService({ rateLimit: { requestsPerSecond: 0 } })).toThrow(/rateLimit.requestsPerSecond/);
    expect(() => createMockService({ rateLimit: { requestsPerSecond: Number.NaN } })).toThrow(/rateLimit.requestsPerSecond/);
    expect(() => createMockService({ rateLimit: { requestsPerSecond: 5, burst: 0.5 } })).toThrow(/rateLimit.burst/);
    expect(() => createMockService({ rateLimitHeaders: true })).toThrow(/rateLimitHeaders/);
    expect(() => createMockService({ rateLimit: { every: 2 }, rateLimitHeaders: true })).toThrow(/rateLimitHeaders/);
  });
});

describe('requestCounts', () => {
  test('counts the requests of a key and those answered 429, and all requests without an argument', async () => {
    const { service, get, burst } = limited({ rateLimit: { requestsPerSecond: 3 } });
    const other = service.issueKey();
    await burst(5);
    await burst(1, other);
    await get(null);
    await get('wfa_made_up');

    expect(service.requestCounts(service.apiKey)).toEqual({ requests: 5, tooManyRequests: 2 });
    expect(service.requestCounts(other)).toEqual({ requests: 1, tooManyRequests: 0 });
    expect(service.requestCounts()).toEqual({ requests: 8, tooManyRequests: 2 });
    expect(service.requestCounts('wfa_made_up')).toEqual({ requests: 0, tooManyRequests: 0 });
  });

  test('counts injected 429s too, and starts again at reset()', async () => {
    const { service, get } = limited({});
    service.failNext(1, 429);
    await get();
    await get();

    expect(service.requestCounts(service.apiKey)).toEqual({ requests: 2, tooManyRequests: 1 });
    service.reset();
    expect(service.requestCounts()).toEqual({ requests: 0, tooManyRequests: 0 });
  });
});

describe('buildDurationMs as a range', () => {
  /** Starts `count` builds at START on a mock with a hand-moved clock; reads their statuses at any time. */
  async function startBuilds(seed: number, count: number) {
    let t = START;
    const service = createMockService({ seed, now: () => t, buildDurationMs: { min: 3000, max: 10_000 } });
    services.push(service);
    const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
    const call = async (path: string, init: RequestInit = { headers }) =>
      reply(await service.handle(new Request(`http://mock.test${path}`, init)));
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push((await call('/v1/workflows', { method: 'POST', headers, body: JSON.stringify(WORKFLOW) })).body.build_id);
    return async (at: number): Promise<string[]> => {
      t = START + at;
      const out: string[] = [];
      for (const id of ids) out.push((await call(`/v1/builds/${id}`)).body.status);
      return out;
    };
  }

  test('each build ends between min and max after its creation', async () => {
    const statusesAt = await startBuilds(3, 50);

    expect(new Set(await statusesAt(2999))).toEqual(new Set(['building']));
    expect(new Set(await statusesAt(6500))).toEqual(new Set(['building', 'completed']));
    expect(new Set(await statusesAt(10_000))).toEqual(new Set(['completed']));
  });

  test('the durations repeat for one seed', async () => {
    const first = await startBuilds(5, 20);
    const second = await startBuilds(5, 20);

    expect(await first(6500)).toEqual(await second(6500));
  });

  test('a range with max under min is refused', () => {
    expect(() => createMockService({ buildDurationMs: { min: 5, max: 4 } })).toThrow(/buildDurationMs/);
  });
});
