import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Client, Page, ResponseValidationError, ValidationError, WfaError } from '../../src/index.js';
import { readEnvelope } from '../../src/service/envelope.js';
import { BASE_URL, useService } from '../helpers/service.js';

const server = useService();
const client = () => new Client({ baseUrl: BASE_URL, apiKey: 'k_123456', apiPrefix: '/v1', maxRetries: 0 });
const order = (n: number) => ({ id: `ord_${n}`, status: 'paid', amount: n });
const orders = (from: number, count: number) => Array.from({ length: count }, (_, i) => order(from + i));

/** A server holding `total` orders, paged by `page` and `limit`, answering with `envelope(items, page, limit)`. */
function paged(total: number, envelope: (items: unknown[], page: number, limit: number) => unknown, defaultLimit = 10) {
  return http.get(`${BASE_URL}/v1/orders`, ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? defaultLimit);
    const items = orders((page - 1) * limit, Math.max(0, Math.min(limit, total - (page - 1) * limit)));
    return HttpResponse.json(envelope(items, page, limit) as object);
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('list envelopes', () => {
  const items = orders(0, 2);
  it.each([
    ['a bare array', items, []],
    ['data', { data: items }, ['data']],
    ['items', { items }, ['items']],
    ['results', { results: items }, ['results']],
    ['the plural name', { orders: items }, ['orders']],
    ['data.<plural>', { data: { orders: items } }, ['data', 'orders']],
  ])('reads items from %s', (_, body, path) => {
    const envelope = readEnvelope(body, 'orders', {});
    expect(envelope?.items).toEqual(items);
    expect(envelope?.itemsPath).toEqual(path);
  });

  it.each([
    ['top level', { data: [], page: 2, limit: 5, total: 11, total_pages: 3, has_more: true, next_page: 3 }],
    ['per_page and total_count', { data: [], page: 2, per_page: 5, total_count: 11, total_pages: 3, has_more: true, next_page: 3 }],
    ['meta', { data: [], meta: { page: 2, limit: 5, total: 11, total_pages: 3, has_more: true, next_page: 3 } }],
    ['pagination', { data: [], pagination: { page: 2, per_page: 5, total: 11, total_pages: 3, has_more: true, next_page: '3' } }],
    [
      'meta.pagination',
      { data: [], meta: { pagination: { current_page: 2, per_page: 5, total: 11, total_pages: 3, has_more: true, next_page: 3 } } },
    ],
    [
      'a next link',
      { data: [], page: 2, limit: 5, total: 11, total_pages: 3, has_more: true, links: { next: 'https://x/v1/orders?page=3&limit=5' } },
    ],
  ])('reads paging facts from %s', (_, body) => {
    expect(readEnvelope(body, 'orders', {})?.info).toEqual({ page: 2, limit: 5, total: 11, totalPages: 3, hasMore: true, nextPage: 3 });
  });

  it('reads every name in camelCase too', () => {
    const body = { data: [], pageNumber: 2, pageSize: 5, totalItems: 11, pageCount: 3, hasNextPage: true, nextPage: 3 };
    expect(readEnvelope(body, 'orders', {})?.info).toEqual({ page: 2, limit: 5, total: 11, totalPages: 3, hasMore: true, nextPage: 3 });
  });

  it('prefers the first object that states a fact, then the first of its names', () => {
    const body = { data: [], current_page: 2, page_size: 5, limit: 7, meta: { page: 9, per_page: 9 } };
    expect(readEnvelope(body, 'orders', {})?.info).toMatchObject({ page: 2, limit: 7 });
  });

  it('derives totalPages from total and limit when the service does not say it', () => {
    expect(readEnvelope({ data: [], total: 11, limit: 5 }, 'orders', {})?.info.totalPages).toBe(3);
    expect(readEnvelope({ data: [], total: 10 }, 'orders', { limit: 5 })?.info.totalPages).toBe(2);
    expect(readEnvelope({ data: [], total: 0, limit: 5 }, 'orders', {})?.info.totalPages).toBe(0);
    expect(readEnvelope({ data: [], total: 11, limit: 0 }, 'orders', {})?.info.totalPages).toBeUndefined();
    expect(readEnvelope({ data: [], total: 11 }, 'orders', {})?.info.totalPages).toBeUndefined();
    expect(readEnvelope({ data: [], total: 11, limit: 5, total_pages: 4 }, 'orders', {})?.info.totalPages).toBe(4);
  });

  it('falls back to the requested page and limit', () => {
    expect(readEnvelope([], 'orders', { page: 4, limit: 7 })?.info).toMatchObject({ page: 4, limit: 7 });
  });

  it('reads next_page: null as "no next page"', () => {
    expect(readEnvelope({ data: [], next_page: null }, 'orders', {})?.info.nextPage).toBeNull();
  });

  it('recognises no list in an object without one', () => {
    expect(readEnvelope({ count: 3 }, 'orders', {})).toBeUndefined();
    expect(readEnvelope('text', 'orders', {})).toBeUndefined();
  });

  it('an unrecognised envelope is a ResponseValidationError with the body', async () => {
    server.use(http.get(`${BASE_URL}/v1/orders`, () => HttpResponse.json({ count: 3 })));
    const error = await client()
      .orders.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual({ count: 3 });
  });

  it('an invalid item is reported with its path inside the envelope', async () => {
    server.use(http.get(`${BASE_URL}/v1/orders`, () => HttpResponse.json({ data: [order(1), { status: 'x' }] })));
    const error = (await client()
      .orders.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.issues[0]?.path).toEqual(['data', 1, 'id']);
  });
});

describe('awaiting list()', () => {
  it('gives one page: items, paging facts, hasNextPage() and getNextPage()', async () => {
    server.use(paged(25, (items, page, limit) => ({ data: items, page, limit, total: 25 })));
    const first = await client().orders.list({ limit: 10 });
    expect(first).toBeInstanceOf(Page);
    expect(first.items.map((o) => o.id)).toEqual(orders(0, 10).map((o) => o.id));
    expect(first.info).toMatchObject({ page: 1, limit: 10, total: 25 });
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.info.page).toBe(2);
    expect(server.requests.map((s) => s.search)).toEqual(['?limit=10', '?limit=10&page=2']);
  });

  it('keeps unknown item fields and the envelope body', async () => {
    server.use(paged(1, (items) => ({ data: items, cursor: 'abc' })));
    const page = await client().orders.list();
    expect(page.items[0]).toEqual(order(0));
    expect(page.body).toMatchObject({ cursor: 'abc' });
  });

  it('validates the items and keeps them as received: the very objects in the body, for every list', async () => {
    server.use(paged(2, (items) => ({ data: items })));
    const page = await client().orders.list();
    expect(page.items[1]).toBe((page.body as { data: unknown[] }).data[1]);
  });

  it('getNextPage() on the last page throws instead of fetching', async () => {
    server.use(paged(3, (items) => ({ data: items, has_more: false })));
    const page = await client().orders.list();
    await expect(page.getNextPage()).rejects.toBeInstanceOf(WfaError);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['orders.list()', (c: Client) => c.orders.list()],
    ['orders.get(id)', (c: Client) => c.orders.get('ord_1')],
  ])('%s is sent on the microtask after it returns, awaited or not, and once however it is read', async (_, method) => {
    server.use(paged(3, (items) => items));
    server.use(http.get(`${BASE_URL}/v1/orders/ord_1`, () => HttpResponse.json(order(1))));
    const pending = method(client());
    expect(server.requests).toHaveLength(0);
    await Promise.resolve();
    // Sent, not awaited: enough turns of the event loop for the request to reach the service.
    for (let i = 0; i < 20 && server.requests.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(server.requests).toHaveLength(1);
    await pending;
    await pending.withResponse();
    expect(server.requests).toHaveLength(1);
  });

  it('asResponse() right after list() sends the first page for the raw Response, its body unread', async () => {
    server.use(paged(3, (items) => ({ data: items })));
    const response = await client().orders.list().asResponse();
    expect(await response.json()).toEqual({ data: orders(0, 3) });
    expect(server.requests).toHaveLength(1);
  });

  it('sends the parameters it checked, even when the caller changes them before awaiting', async () => {
    server.use(paged(3, (items) => items));
    const params = { limit: 0 };
    const pending = client().orders.list(params);
    params.limit = 5;
    await pending;
    expect(server.requests.map((s) => s.search)).toEqual(['?limit=5']);
  });

  it('reads each parameter once, so what was checked is what is sent', async () => {
    server.use(paged(3, (items) => ({ data: items })));
    let reads = 0;
    const params = {
      get limit() {
        reads++;
        return reads === 1 ? 5 : 'not a number';
      },
    };
    await client().orders.list(params as { limit: number });
    expect(reads).toBe(1);
    expect(server.requests.map((s) => s.search)).toEqual(['?limit=5']);
  });

  it('rejects bad parameters with ValidationError and sends nothing', async () => {
    await expect(client().orders.list({ page: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client().orders.list({ limit: 2.5 })).rejects.toThrow(/limit: must be a whole number/);
    // @ts-expect-error: not a parameter of orders.list
    await expect(client().orders.list({ pageSize: 5 })).rejects.toThrow(/pageSize: is not a known field/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('for await over list()', () => {
  it('yields every item of every page, lazily', async () => {
    server.use(paged(25, (items, page, limit) => ({ data: items, page, limit, total: 25 })));
    const ids = (await collect(client().orders.list({ limit: 10 }))).map((o) => o.id);
    expect(ids).toEqual(orders(0, 25).map((o) => o.id));
    expect(server.requests).toHaveLength(3);
  });

  it('stops fetching when the loop breaks', async () => {
    server.use(paged(100, (items) => ({ data: items, has_more: true })));
    for await (const item of client().orders.list({ limit: 10 })) if (item.id === 'ord_3') break;
    expect(server.requests).toHaveLength(1);
  });

  it('iterating a page walks from that page on', async () => {
    server.use(paged(15, (items, page, limit) => ({ data: items, page, limit, total: 15 })));
    const second = await (await client().orders.list({ limit: 10 })).getNextPage();
    expect((await collect(second)).map((o) => o.id)).toEqual(orders(10, 5).map((o) => o.id));
  });
});

describe('loop guards: iteration ends on', () => {
  it('an empty page', async () => {
    server.use(paged(20, (items) => items));
    await collect(client().orders.list({ limit: 10 }));
    // pages 1 and 2 are full, page 3 is empty
    expect(server.requests).toHaveLength(3);
  });

  it('a short page', async () => {
    server.use(paged(15, (items) => items));
    expect(await collect(client().orders.list({ limit: 10 }))).toHaveLength(15);
    expect(server.requests).toHaveLength(2);
  });

  it('has_more: false', async () => {
    server.use(paged(100, (items, page) => ({ items, has_more: page < 2 })));
    expect(await collect(client().orders.list({ limit: 10 }))).toHaveLength(20);
    expect(server.requests).toHaveLength(2);
  });

  it('the last page by total_pages', async () => {
    server.use(paged(100, (items, page) => ({ results: items, page, total_pages: 3 })));
    expect(await collect(client().orders.list({ limit: 10 }))).toHaveLength(30);
    expect(server.requests).toHaveLength(3);
  });

  it('the last page by total', async () => {
    server.use(paged(100, (items, page, limit) => ({ data: items, meta: { page, per_page: limit, total_count: 20 } })));
    expect(await collect(client().orders.list({ limit: 10 }))).toHaveLength(20);
    expect(server.requests).toHaveLength(2);
  });

  it('next_page: null', async () => {
    server.use(paged(100, (items, page) => ({ data: items, next_page: page < 2 ? page + 1 : null })));
    expect(await collect(client().orders.list({ limit: 10 }))).toHaveLength(20);
    expect(server.requests).toHaveLength(2);
  });

  it('a page that repeats the previous one (a server that ignores page), without yielding it twice', async () => {
    server.use(http.get(`${BASE_URL}/v1/orders`, () => HttpResponse.json(orders(0, 10))));
    const items = await collect(client().orders.list());
    expect(items).toHaveLength(10);
    expect(server.requests).toHaveLength(2);
  });

  it('a repeated page also stops a manual hasNextPage() loop', async () => {
    server.use(http.get(`${BASE_URL}/v1/orders`, () => HttpResponse.json({ data: orders(0, 3) })));
    let page = await client().orders.list();
    let rounds = 0;
    while (page.hasNextPage() && rounds < 10) {
      page = await page.getNextPage();
      rounds++;
    }
    expect(rounds).toBe(1);
    expect(page.repeated).toBe(true);
  });

  it('a page content seen before, not only on the previous page (A, B, A)', async () => {
    let calls = 0;
    server.use(http.get(`${BASE_URL}/v1/orders`, () => HttpResponse.json({ data: orders(calls++ % 2 === 0 ? 0 : 10, 2), has_more: true })));
    const items = await collect(client().orders.list());
    expect(items.map((o) => o.id)).toEqual(['ord_0', 'ord_1', 'ord_10', 'ord_11']);
    expect(server.requests).toHaveLength(3);
  });

  it('a next_page already read, even when has_more says true', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/orders`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return HttpResponse.json({ data: orders(page * 10, 2), page, has_more: true, next_page: page === 2 ? 1 : 2 });
      }),
    );
    const items = await collect(client().orders.list());
    expect(items).toHaveLength(4);
    expect(server.requests).toHaveLength(2);
  });

  it('maxPages: the last page allowed has no next page', async () => {
    server.use(paged(100, (items, page) => ({ data: items, page, has_more: true })));
    const items = await collect(client().orders.list({}, { maxPages: 3 }));
    expect(items).toHaveLength(30);
    expect(server.requests).toHaveLength(3);
  });

  it('walking from one page twice yields the same items both times', async () => {
    server.use(paged(25, (items, page) => ({ data: items, page })));
    const first = await client().orders.list();
    expect(await collect(first)).toHaveLength(25);
    expect(await collect(first)).toHaveLength(25);
  });
});
