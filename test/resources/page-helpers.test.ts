import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AbortError, Client, ValidationError } from '../../src/index.js';
import { BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
const client = () => new Client({ baseUrl: BASE, apiKey: 'k_123456', apiPrefix: '/v1', maxRetries: 0 });
const order = (n: number) => ({ id: `ord_${n}`, status: 'paid', amount: n });

/** 23 orders, 10 a page by default, with the page count stated. */
function serve(total = 23) {
  server.use(
    http.get(`${BASE}/v1/orders`, ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const count = Math.max(0, Math.min(limit, total - (page - 1) * limit));
      const data = Array.from({ length: count }, (_, i) => order((page - 1) * limit + i));
      return HttpResponse.json({ data, page, limit, total, total_pages: Math.ceil(total / limit) });
    }),
  );
}
const pagesAsked = () => server.requests.map((s) => s.query.get('page'));

describe('list().toArray({ limit })', () => {
  it('collects across pages and fetches no page past the last item it needs', async () => {
    serve();
    const items = await client().orders.list().toArray({ limit: 15 });
    expect(items.map((o) => o.id)).toEqual(Array.from({ length: 15 }, (_, i) => `ord_${i}`));
    expect(server.requests).toHaveLength(2);
  });

  it('stops after a page that fills the limit exactly', async () => {
    serve();
    expect(await client().orders.list().toArray({ limit: 10 })).toHaveLength(10);
    expect(server.requests).toHaveLength(1);
  });

  it('returns fewer items when the list ends first', async () => {
    serve();
    expect(await client().orders.list().toArray({ limit: 100 })).toHaveLength(23);
    expect(pagesAsked()).toEqual([null, '2', '3']);
  });

  it.each([[undefined], [{}], [{ limit: 0 }], [{ limit: 1.5 }], [{ limit: '5' }]])(
    'rejects %j, fetching no page past the first',
    async (options) => {
      serve();
      const list = client().orders.list();
      const error = await list.toArray(options as { limit: number }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(/limit/);
      await list;
      // The one request is the list call's own first page, sent like every call's.
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe('list().take(n)', () => {
  it('yields at most n items and fetches only the pages they are on', async () => {
    serve();
    const ids: unknown[] = [];
    for await (const o of client().orders.list().take(12)) ids.push(o.id);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `ord_${i}`));
    expect(pagesAsked()).toEqual([null, '2']);
  });

  it('take(0) yields nothing and fetches no page past the first', async () => {
    serve();
    const list = client().orders.list();
    for await (const _ of list.take(0)) throw new Error('no item expected');
    await list;
    expect(server.requests).toHaveLength(1);
  });

  it('a break stops fetching at once', async () => {
    serve();
    for await (const o of client().orders.list().take(50)) if (o.id === 'ord_9') break;
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a bad n, fetching no page past the first', async () => {
    serve();
    const list = client().orders.list();
    await expect(list.take(-1).next()).rejects.toBeInstanceOf(ValidationError);
    await list;
    expect(server.requests).toHaveLength(1);
  });
});

describe('list().pages()', () => {
  it('yields each page with its items, fetching the next only when asked', async () => {
    serve();
    const sizes: number[] = [];
    for await (const page of client().orders.list().pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([10, 10, 3]);
    expect(server.requests).toHaveLength(3);
  });

  it('a break stops fetching at once', async () => {
    serve();
    for await (const page of client().orders.list().pages()) if (page.info.page === 2) break;
    expect(server.requests).toHaveLength(2);
  });

  it('does not yield a page that repeats one already read', async () => {
    server.use(http.get(`${BASE}/v1/orders`, () => HttpResponse.json({ data: [order(1), order(2)], has_more: true })));
    const pages = [];
    for await (const page of client().orders.list().pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe("the call's signal", () => {
  const abortable = () => {
    serve(50);
    const controller = new AbortController();
    return { controller, list: client().orders.list({}, { signal: controller.signal }) };
  };

  it('toArray rejects with AbortError when it aborted after the first page, even if that page would do', async () => {
    const { controller, list } = abortable();
    await list;
    controller.abort(new Error('user left'));
    await expect(list.toArray({ limit: 5 })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('take stops with AbortError when it aborts during the walk', async () => {
    const { controller, list } = abortable();
    const walk = async () => {
      for await (const _ of list.take(30)) controller.abort();
    };
    await expect(walk()).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('pages stops with AbortError when it aborts during the walk', async () => {
    const { controller, list } = abortable();
    const walk = async () => {
      for await (const _ of list.pages()) controller.abort();
    };
    await expect(walk()).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });
});
