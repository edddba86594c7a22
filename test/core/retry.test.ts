import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AbortError, ApiError, Client, InternalServerError, RateLimitError, TimeoutError } from '../../src/index.js';
import { coreOf } from '../../src/resources/resource.js';
import { run, settle, useFakeClock } from '../helpers/clock.js';
import { BASE_URL, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

/** A request that never gets an answer. */
const hang = () => new Promise<never>(() => undefined);
const ok = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now', build_id: 'bld_1' };
const input = { name: 'n', platform: 'p', trigger: { type: 'webhook' }, actions: [] };
const client = (maxRetries = 2, timeoutMs = 10_000) =>
  new Client({ baseUrl: BASE_URL, apiKey: 'k_123456', apiPrefix: '/v1', maxRetries, timeoutMs });

/** Answers with each status in turn, then 200. */
function sequence(method: 'get' | 'put' | 'delete' | 'post', statuses: number[], headers: Record<string, string> = {}) {
  let i = 0;
  const path = method === 'post' ? `${BASE_URL}/v1/workflows` : `${BASE_URL}/v1/workflows/wf_1`;
  return http[method](path, () => {
    const status = statuses[i++];
    return status === undefined ? HttpResponse.json(ok) : HttpResponse.json({ message: `fail ${status}` }, { status, headers });
  });
}

const call = {
  get: (c: Client) => c.workflows.get('wf_1'),
  put: (c: Client) => c.workflows.update('wf_1', { name: 'x' }),
  delete: (c: Client) => c.workflows.delete('wf_1'),
  post: (c: Client) => c.workflows.create(input),
};

describe('GET, PUT and DELETE', () => {
  it.each(['get', 'put', 'delete'] as const)('%s is retried after 5xx and succeeds', async (method) => {
    server.use(sequence(method, [500, 503]));
    await run<unknown>(call[method](client()));
    expect(server.requests).toHaveLength(3);
  });

  it.each([408, 429, 500, 502, 503, 504])('GET is retried after %i', async (status) => {
    server.use(sequence('get', [status]));
    await run(call.get(client()));
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422])('GET is not retried after %i', async (status) => {
    server.use(sequence('get', [status]));
    await expect(run(call.get(client()))).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries retries with the last error', async () => {
    server.use(sequence('get', [503, 503, 503, 503]));
    await expect(run(call.get(client(2)))).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('maxRetries: 0 means a single attempt', async () => {
    server.use(sequence('get', [503]));
    await expect(run(call.get(client(0)))).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('a per-call maxRetries overrides the client', async () => {
    server.use(sequence('get', [503, 503]));
    await expect(run(client(2).workflows.get('wf_1', { maxRetries: 1 }))).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(2);
  });

  it('a timed-out GET is retried', async () => {
    let n = 0;
    server.use(http.get(`${BASE_URL}/v1/workflows/wf_1`, () => (n++ === 0 ? hang() : HttpResponse.json(ok))));
    await expect(run(call.get(client(2, 100)))).resolves.toMatchObject({ id: 'wf_1' });
    expect(n).toBe(2);
  });
});

describe('POST (not idempotent)', () => {
  it.each([500, 502, 503, 504, 408])('is sent exactly once when it gets %i', async (status) => {
    server.use(sequence('post', [status]));
    await expect(run(call.post(client()))).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('is retried after 429, when the service certainly did not act', async () => {
    server.use(sequence('post', [429], { 'retry-after': '0' }));
    await expect(run(call.post(client()))).resolves.toMatchObject({ id: 'wf_1' });
    expect(server.requests).toHaveLength(2);
  });

  it('is not retried after a timeout', async () => {
    let n = 0;
    server.use(
      http.post(`${BASE_URL}/v1/workflows`, () => {
        n++;
        return hang();
      }),
    );
    await expect(run(call.post(client(2, 50)))).rejects.toBeInstanceOf(TimeoutError);
    expect(n).toBe(1);
  });
});

describe('POST that the endpoint table marks idempotent', () => {
  it('is retried after a 5xx, as a PUT is, through the same rule', async () => {
    server.use(sequence('post', [500, 503]));
    const core = coreOf(client().workflows);

    const sent = run(core.request({ method: 'POST', path: '/workflows', body: input, idempotent: true }));

    await expect(sent).resolves.toMatchObject({ data: { id: 'wf_1' } });
    expect(server.requests).toHaveLength(3);
  });
});

describe('Retry-After', () => {
  it('a GET that gets 429 with Retry-After: 1 waits a second and succeeds', async () => {
    server.use(sequence('get', [429], { 'retry-after': '1' }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, value: { id: 'wf_1' } });
    expect(settled.elapsedMs).toBe(1_000);
    expect(server.requests).toHaveLength(2);
  });

  it('accepts an HTTP date', async () => {
    // An HTTP date has whole seconds: from a whole second, 2.5 s ahead is written as 2 s ahead.
    vi.setSystemTime(Date.parse('2030-01-01T00:00:00.000Z'));
    const soon = new Date(Date.now() + 2_500).toUTCString();
    server.use(sequence('get', [503], { 'retry-after': soon }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 2_000 });
    expect(server.requests).toHaveLength(2);
  });

  it('longer than a minute is not slept on: RateLimitError says how long to wait', async () => {
    server.use(sequence('get', [429], { 'retry-after': '3600' }));
    const error = await run(call.get(client())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort during the wait ends the call at once', async () => {
    server.use(sequence('get', [429, 429], { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const settled = await settle(client().workflows.get('wf_1', { signal: controller.signal }));
    expect(settled).toMatchObject({ ok: false, error: expect.any(AbortError) });
    expect(settled.elapsedMs).toBe(100);
  });
});

describe('the attempt covers the body', () => {
  it('a GET whose body breaks mid-way is retried', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE_URL}/v1/workflows/wf_1`, () => {
        if (n++ > 0) return HttpResponse.json(ok);
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"id":'));
            controller.error(new TypeError('terminated'));
          },
        });
        return new HttpResponse(body, { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    await expect(run(call.get(client()))).resolves.toMatchObject({ id: 'wf_1' });
    expect(n).toBe(2);
  });

  it('a body that stalls past timeoutMs is a TimeoutError', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/workflows/wf_1`, () => {
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"id":'));
          },
        });
        return new HttpResponse(body, { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    await expect(run(call.get(client(0, 100)))).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('what counts as a Retry-After', () => {
  it('retry-after-ms is honoured', async () => {
    server.use(sequence('get', [503], { 'retry-after-ms': '1200' }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 1_200 });
  });

  // The first backoff step is 250 ms plus a random share of 250 ms: with Math.random() at 0.5, 375 ms.
  it('RateLimit-Reset is not taken for a Retry-After: the backoff applies', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    server.use(sequence('get', [503], { 'ratelimit-reset': '50' }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 375 });
  });

  it('an unreadable Retry-After falls back to the backoff', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    server.use(sequence('get', [503], { 'retry-after': 'soon' }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 375 });
  });

  // A 429 closes the client's rate gate: for its Retry-After, or without a usable one, a second.
  it('an unreadable Retry-After on a 429 counts as none: the rate gate closes for its default second', async () => {
    server.use(sequence('get', [429], { 'retry-after': 'soon' }));
    const settled = await settle(call.get(client()));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 1_000 });
  });
});
