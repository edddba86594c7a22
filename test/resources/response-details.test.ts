import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiPromise, Client, NotFoundError, ValidationError, WfaError } from '../../src/index.js';
import { run, useFakeClock } from '../helpers/clock.js';
import { BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now' };
const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: BASE, apiKey: 'k_123456', apiPrefix: '/v1', ...options });

describe('withResponse()', () => {
  it('after two retries: the final status and headers, attempts: 3, and the time they took', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () => {
        n++;
        if (n < 3) return HttpResponse.json({ message: 'busy' }, { status: 503, headers: { 'x-request-id': `req_${n}` } });
        return HttpResponse.json(workflow, { headers: { 'x-request-id': 'req_3', 'x-ratelimit-remaining': '41' } });
      }),
    );
    const { data, response } = await run(client().workflows.get('wf_1').withResponse());
    expect(data).toEqual(workflow);
    expect(response).toMatchObject({ status: 200, requestId: 'req_3', url: `${BASE}/v1/workflows/wf_1`, attempts: 3 });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('41');
    // Two backoffs passed on the fake clock: at least 0.25 s and 0.5 s, with jitter.
    expect(response.elapsedMs).toBeGreaterThanOrEqual(750);
    expect(server.requests).toHaveLength(3);
  });

  it('after the /v1 fallback: the URL that answered, and both requests counted', async () => {
    server.use(http.get(`${BASE}/v1/orders/ord_1`, () => HttpResponse.json({ id: 'ord_1', status: 'paid' })));
    const { data, response } = await run(client({ apiPrefix: 'auto' }).orders.get('ord_1').withResponse());
    expect(data.id).toBe('ord_1');
    expect(response).toMatchObject({ status: 200, url: `${BASE}/v1/orders/ord_1`, attempts: 2, requestId: undefined });
    expect(server.requests.map((s) => s.path)).toEqual(['/api/v1/orders/ord_1', '/v1/orders/ord_1']);
  });

  it('removes secrets from the URL', async () => {
    server.use(http.get(`${BASE}/v1/echo`, () => HttpResponse.json({ ok: true })));
    const key = 'k_secret_in_query_123';
    const { response } = await run(
      client({ apiKey: key })
        .request({ method: 'GET', path: '/echo', query: { token: key } })
        .withResponse(),
    );
    expect(response.url).not.toContain(key);
    expect(response.url).toContain('/v1/echo?token=');
  });

  it('gives each page of a list its own details', async () => {
    server.use(
      http.get(`${BASE}/v1/orders`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        const data = page === 1 ? [{ id: 'a', status: 'paid' }] : [{ id: 'b', status: 'paid' }];
        return HttpResponse.json({ data, page, total_pages: 2 }, { headers: { 'x-request-id': `page_${page}` } });
      }),
    );
    const { data: first, response } = await run(client().orders.list().withResponse());
    expect(response).toMatchObject({ status: 200, requestId: 'page_1', attempts: 1 });
    expect(first.response).toBe(response);
    const second = await run(first.getNextPage());
    expect(second.response).toMatchObject({ requestId: 'page_2', url: `${BASE}/v1/orders?page=2` });
  });

  it('rejects like the call itself, and a bad input before any request', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_9`, () => HttpResponse.json({ message: 'nope' }, { status: 404 })));
    await expect(run(client().workflows.get('wf_9').withResponse())).rejects.toBeInstanceOf(NotFoundError);
    await expect(run(client().workflows.get('').withResponse())).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('asResponse()', () => {
  it('resolves to the raw Response with its body unread', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow, { headers: { 'x-request-id': 'req_1' } })));
    const response = await run(client().workflows.get('wf_1').asResponse());
    expect(response).toBeInstanceOf(Response);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(await response.json()).toEqual(workflow);
  });

  it('is not validated, but an error status still rejects with the SDK error', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/bad`, () => HttpResponse.json({ not: 'a workflow' })),
      http.get(`${BASE}/v1/workflows/gone`, () => HttpResponse.json({ message: 'gone' }, { status: 404 })),
    );
    expect(await (await run(client().workflows.get('bad').asResponse())).json()).toEqual({ not: 'a workflow' });
    await expect(run(client().workflows.get('gone').asResponse())).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives a list's first page unread", async () => {
    server.use(http.get(`${BASE}/v1/orders`, () => HttpResponse.json({ data: [] })));
    const response = await run(client().orders.list({ limit: 5 }).asResponse());
    expect(response.bodyUsed).toBe(false);
    expect(server.requests[0]?.search).toBe('?limit=5');
  });

  it('cannot be had once the call was sent to be read by the SDK', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const call = client().workflows.get('wf_1');
    await run(call);
    await expect(call.asResponse()).rejects.toBeInstanceOf(WfaError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('ApiPromise', () => {
  it('is a Promise whose await, catch and finally behave as before', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const call = client().workflows.get('wf_1');
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(ApiPromise);
    expect(await run(call)).toEqual(workflow);
    expect(await run(call.finally(() => undefined))).toEqual(workflow);
    // One request however many ways the answer is read.
    expect((await run(call.withResponse())).data).toEqual(workflow);
    expect(server.requests).toHaveLength(1);
    const failing = client().workflows.get('');
    expect(await run(failing.catch((e: unknown) => e))).toBeInstanceOf(ValidationError);
  });
});
