/**
 * The client's rate gate as a caller meets it: one call's 429 holds every call, a 429 retried at the gate
 * does not use up maxRetries, the gate's time counts against the deadline and signal but not timeoutMs, what
 * `rateLimit` accepts, what is logged and heard, and `rateLimit: false` as before.
 */
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  Client,
  memoryRateStore,
  RateLimitError,
  TimeoutError,
  ValidationError,
  type ClientOptions,
  type RateLimitEvent,
} from '../../src/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { captureLogger } from '../helpers/logger.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now', build_id: 'bld_1' };
const input = { name: 'n', platform: 'p', trigger: { type: 'webhook' as const }, actions: [] };
const client = (options: ClientOptions = {}) => new Client({ baseUrl: BASE_URL, apiKey: API_KEY, apiPrefix: '/v1', ...options });

/** Each request is answered by the next status (429s with `Retry-After: 1`), then 200 or 201; records when each came. */
function answers(statuses: number[], headers: Record<string, string> = { 'retry-after': '1' }) {
  const times: number[] = [];
  const reply = (ok: number) => () => {
    times.push(Date.now());
    const status = statuses.shift();
    return status === undefined
      ? HttpResponse.json(workflow, { status: ok })
      : HttpResponse.json({ message: 'slow down' }, { status, headers });
  };
  server.use(http.get(`${BASE_URL}/v1/workflows/:id`, reply(200)), http.post(`${BASE_URL}/v1/workflows`, reply(201)));
  return times;
}

describe("one call's 429 holds every call of the client", () => {
  it('a call started while the gate is closed is first sent when it opens', async () => {
    const start = Date.now();
    const times = answers([429]);
    const c = client();
    const first = c.workflows.get('wf_1');
    await settle(Promise.resolve());
    const second = c.workflows.get('wf_2');
    await settle(Promise.all([first, second]));
    expect(times.map((t) => t - start)).toEqual([0, 1000, expect.any(Number)]);
    expect(times[2]! - start).toBeGreaterThanOrEqual(1000);
  });

  it('a POST refused with 429 more often than maxRetries is still created: the gate bounds it, not maxRetries', async () => {
    const times = answers([429, 429, 429, 429, 429]);
    const settled = await settle(client({ maxRetries: 2 }).workflows.create(input));
    expect(settled.ok).toBe(true);
    expect(times).toHaveLength(6);
  });

  it('maxRetries: 0 still means one attempt: a 429 ends the call', async () => {
    const times = answers([429]);
    const settled = await settle(client({ maxRetries: 0 }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: false, error: expect.any(RateLimitError) });
    expect(times).toHaveLength(1);
  });

  it('a POST answered 503 with Retry-After is not sent again: the service may have acted', async () => {
    const times = answers([503]);
    const settled = await settle(client().workflows.create(input));
    expect(settled.ok).toBe(false);
    expect(times).toHaveLength(1);
  });
});

describe('time at the gate', () => {
  it("a service that refuses forever ends each call at its deadline with the service's own 429, saying how long it waited", async () => {
    answers(Array(1000).fill(429), { 'retry-after': '2', 'x-request-id': 'req_9' });
    const settled = await settle(client({ deadlineMs: 5_000 }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: false, elapsedMs: 5_000 });
    const { error } = settled as { error: RateLimitError };
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, requestId: 'req_9', retryAfterMs: 2_000, body: { message: 'slow down' } });
    expect(error.message).toBe(
      "429 slow down; it waited 5000 ms at the client's rate gate, until the call's deadline (GET /v1/workflows/wf_1, request id req_9)",
    );
  });

  it("a call held by another call's 429 got none itself: past its deadline it is a TimeoutError", async () => {
    answers([429], { 'retry-after': '30' });
    const c = client();
    const first = c.workflows.get('wf_1').catch(() => undefined);
    await settle(Promise.resolve());
    const settled = await settle(c.workflows.get('wf_2', { deadlineMs: 500 }));
    expect(settled).toMatchObject({ ok: false, elapsedMs: 500, error: expect.any(TimeoutError) });
    const { error } = settled as { error: TimeoutError };
    expect(error).toMatchObject({ reason: 'deadline', timeoutMs: 500 });
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(
      `GET ${BASE_URL}/v1/workflows/wf_2 ran past the call's deadline (500 ms); it waited 500 ms at the client's rate gate`,
    );
    await settle(first);
  });

  it('a call queued for a maxConcurrent slot past its deadline is a TimeoutError, no 429 made up', async () => {
    answers([]);
    // After answers(): the handler used last comes first.
    server.use(
      http.get(`${BASE_URL}/v1/workflows/wf_slow`, async () => {
        await delay(10_000);
        return HttpResponse.json(workflow);
      }),
    );
    const c = client({ rateLimit: { maxConcurrent: 1 } });
    const holder = c.workflows.get('wf_slow', { timeoutMs: 20_000 });
    await settle(Promise.resolve());
    const settled = await settle(c.workflows.get('wf_1', { deadlineMs: 300 }));
    expect(settled).toMatchObject({ ok: false, elapsedMs: 300, error: expect.any(TimeoutError) });
    expect((settled as { error: TimeoutError }).error).toMatchObject({
      reason: 'deadline',
      message: expect.stringMatching(/\(300 ms\); it waited 300 ms at the client's rate gate$/),
    });
    await settle(holder);
  });

  it('a call paced at the rate the service tells, past its deadline, is a TimeoutError', async () => {
    const told = { 'ratelimit-policy': '"default";q=1;w=10', ratelimit: '"default";r=0;t=10' };
    server.use(http.get(`${BASE_URL}/v1/workflows/:id`, () => HttpResponse.json(workflow, { headers: told })));
    const c = client();
    await settle(c.workflows.get('wf_1'));
    await settle(c.workflows.get('wf_2'));
    const settled = await settle(c.workflows.get('wf_3', { deadlineMs: 1_000 }));
    expect(settled).toMatchObject({ ok: false, elapsedMs: 1_000, error: expect.any(TimeoutError) });
    expect((settled as { error: TimeoutError }).error).toMatchObject({ reason: 'deadline' });
  });

  it('does not count against timeoutMs, which bounds one attempt on the wire', async () => {
    answers([429], { 'retry-after': '3' });
    const settled = await settle(client({ timeoutMs: 1_000 }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 3_000 });
  });

  it('an aborted call leaves the gate at once', async () => {
    answers([429], { 'retry-after': '30' });
    const c = client();
    const controller = new AbortController();
    const first = c.workflows.get('wf_1', { signal: controller.signal }).catch(() => undefined);
    await settle(Promise.resolve());
    const waiting = c.workflows.get('wf_2', { signal: controller.signal });
    await settle(Promise.resolve());
    const start = Date.now();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - start).toBe(0);
    await first;
  });
});

describe('what it tells', () => {
  it('one warning when the gate closes, one line when it opens, and an event for each', async () => {
    answers([429]);
    const { lines, logger } = captureLogger();
    const events: RateLimitEvent[] = [];
    const c = client({ logger, hooks: { onRateLimit: (e) => void events.push(e) } });
    await settle(c.workflows.get('wf_1'));
    expect(lines).toEqual([
      `[wfa] rate limit: 429 (refused) on GET ${BASE_URL}/v1/workflows/wf_1; every call of this client waits 1000 ms`,
      expect.stringMatching(/^\[wfa\] rate limit: open again after 1000 ms; calls waiting: 1, leaving at [\d.]+ requests a second$/),
    ]);
    expect(events.map((e) => [e.state, e.waitMs, e.status])).toEqual([
      ['closed', 1000, 429],
      ['open', 1000, undefined],
    ]);
  });

  it('a hook that never settles delays no call', async () => {
    answers([429]);
    const settled = await settle(client({ hooks: { onRateLimit: () => new Promise(() => undefined) } }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 1000 });
  });
});

describe('rateLimit: false', () => {
  it('each call retries its own 429 and gives up after maxRetries, as before the gate', async () => {
    const times = answers([429, 429, 429, 429]);
    const settled = await settle(client({ rateLimit: false, maxRetries: 2 }).workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: false, error: expect.any(RateLimitError) });
    expect(times).toHaveLength(3);
  });

  it("one call's 429 holds no other call", async () => {
    const start = Date.now();
    const times = answers([429]);
    const c = client({ rateLimit: false });
    const first = c.workflows.get('wf_1');
    await settle(Promise.resolve());
    await settle(Promise.all([first, c.workflows.get('wf_2')]));
    expect(times.map((t) => t - start)).toEqual([0, 0, 1000]);
  });
});

describe('the rateLimit option', () => {
  it.each([
    [true, 'rateLimit', 'must be false or an object'],
    [{ requestsPerSecond: 0 }, 'rateLimit.requestsPerSecond', 'must be a number of requests a second, at least one a minute (1/60)'],
    [{ requestsPerSecond: 1e-7 }, 'rateLimit.requestsPerSecond', 'must be a number of requests a second, at least one a minute (1/60)'],
    [{ maxConcurrent: 1.5 }, 'rateLimit.maxConcurrent', 'must be a whole number > 0'],
    [{ store: {} }, 'rateLimit.store', 'must be a RateStore (book, read, close and setPace functions)'],
    [{ key: '' }, 'rateLimit.key', 'must be a non-empty string'],
    [{ perSecond: 5 }, 'rateLimit.perSecond', 'is not a known field'],
  ])('%j is refused, naming %s', (rateLimit, field, message) => {
    const make = () => client({ rateLimit: rateLimit as never });
    expect(make).toThrow(ValidationError);
    expect(make).toThrow(`${field}: ${message}`);
  });

  it('a shared store without a key needs an API key known now, to name the budget by its hash', () => {
    const make = () => client({ apiKey: () => API_KEY, rateLimit: { store: memoryRateStore() } });
    expect(make).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'rateLimit.key' }));
    expect(() => client({ apiKey: () => API_KEY, rateLimit: { store: memoryRateStore(), key: 'ci' } })).not.toThrow();
  });
});
