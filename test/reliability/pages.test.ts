/**
 * Page cycles: a list walk ends on any page number or page content it has already read, whatever the paging
 * facts say, and `maxPages` bounds a server that makes endless distinct pages. Each item is yielded at most once.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, Client, ValidationError, type Order, type PagePromise } from '../../src/index.js';
import { faults, startFaultServer, type FaultServer, type LoggedRequest } from './fault-server.js';
import { activeHandles, attacked, capturingLogger, count, openHandlesSince, recordOpenHandles } from './summary.js';

const KEY = 'wfa_live_pages_Lp4sX0';
let server: FaultServer;
let baseline: Map<string, number>;

beforeAll(async () => {
  baseline = activeHandles();
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
  recordOpenHandles('pages.test.ts', await openHandlesSince(baseline));
});

/** The page number a request asked for (1 when it named none). */
const asked = (request: LoggedRequest) => Number(request.query.get('page') ?? 1);

/** Orders whose ids say which page content they came from: `c2-0`, `c2-1`. */
const content = (n: number, size = 2) => Array.from({ length: size }, (_, i) => ({ id: `c${n}-${i}`, status: 'paid' }));

/** Walks every item of the orders list, with a logger that keeps its lines; bounded by `cap` items. */
async function walk(client: Client, options: { maxPages?: number } = {}, cap = 1_000): Promise<string[]> {
  const ids: string[] = [];
  for await (const order of client.orders.list({}, options)) {
    ids.push(String((order as { id?: unknown }).id ?? JSON.stringify(order)));
    if (ids.length >= cap) break;
  }
  return ids;
}

function clientWithLog() {
  const { lines, logger } = capturingLogger();
  return { lines, client: new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', logger, logLevel: 'warn' }) };
}

/** Runs one attack: the walk must end, yield no item twice, and send at most `maxRequests`. */
async function attack(name: string, maxRequests: number, run: (client: Client) => Promise<string[]>, expected?: string[]) {
  server.reset();
  const { client, lines } = clientWithLog();
  const ids = await run(client);
  const ok =
    new Set(ids).size === ids.length && server.received <= maxRequests && (expected === undefined || ids.join() === expected.join());
  count('faultsInjected');
  if (ok) count('faultsSurvived');
  attacked('page cycles', ok);
  expect(new Set(ids).size, `${name}: an item was yielded twice`).toBe(ids.length);
  expect(server.received).toBeLessThanOrEqual(maxRequests);
  if (expected) expect(ids).toEqual(expected);
  return { ids, lines };
}

describe('a walk ends on a page it has already read', () => {
  it('has_more: true with a next_page that goes backwards (1, 2, 3, then 1)', async () => {
    server.otherwise((request) => {
      const page = asked(request);
      return faults.ok({ data: content(page), page, has_more: true, next_page: page === 3 ? 1 : page + 1 });
    });
    const { lines } = await attack('backwards', 3, walk, ['c1-0', 'c1-1', 'c2-0', 'c2-1', 'c3-0', 'c3-1']);
    expect(lines.join('\n')).toContain('page 3 points back to page 1, already read');
  });

  it('a server that alternates between two pages (A, B, A, B) whatever page is asked for', async () => {
    server.otherwise((_request, log) => faults.ok({ data: content(log.length % 2 === 1 ? 1 : 2), has_more: true }));
    const { lines } = await attack('alternating', 3, walk, ['c1-0', 'c1-1', 'c2-0', 'c2-1']);
    expect(lines.join('\n')).toContain('repeats a page already read');
  });

  for (const length of [3, 7]) {
    it(`a cycle of ${length} page numbers (next_page wraps to 1)`, async () => {
      server.otherwise((request) => {
        const page = asked(request);
        return faults.ok({ data: content(page), page, next_page: (page % length) + 1 });
      });
      await attack(`cycle ${length}`, length, walk);
      expect(server.received).toBe(length);
    });

    it(`a cycle of ${length} page contents under ever new page numbers`, async () => {
      server.otherwise((request) => {
        const page = asked(request);
        return faults.ok({ data: content(((page - 1) % length) + 1), page, next_page: page + 1, has_more: true });
      });
      const { ids } = await attack(`content cycle ${length}`, length + 1, walk);
      expect(ids).toHaveLength(length * 2);
    });
  }

  it('items without ids (strings), in a cycle of 3 contents', async () => {
    server.otherwise((request) => {
      const page = asked(request);
      return faults.ok({ items: [`item-${page % 3}-a`, `item-${page % 3}-b`], has_more: true });
    });
    const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', validateResponses: false });
    server.reset();
    const ids = await walk(client);
    const ok = new Set(ids).size === ids.length && server.received === 4;
    attacked('page cycles', ok);
    expect(new Set(ids).size).toBe(ids.length);
    expect(server.received).toBe(4);
  });
});

describe('maxPages', () => {
  it('bounds a server that makes endless distinct pages', async () => {
    server.otherwise((request) => {
      const page = asked(request);
      return faults.ok({ data: content(page), page, has_more: true });
    });
    const { ids } = await attack('endless', 5, (client) => walk(client, { maxPages: 5 }));
    expect(ids).toHaveLength(10);
    expect(server.received).toBe(5);
  });

  it('is checked before any request', async () => {
    server.reset();
    const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1' });
    for (const maxPages of [0, 1.5, -1, Number.NaN]) {
      const error = await walk(client, { maxPages }).catch((e: unknown) => e);
      expect(ValidationError.is(error)).toBe(true);
      expect((error as ValidationError).field).toBe('maxPages');
    }
    expect(server.received).toBe(0);
  });
});

describe('property: for any sequence of pages, a walk ends and reads no content twice', () => {
  const POOL = 4;
  const answer = fc.record({
    // Which content (an empty page now and then), and the paging facts, each possibly absent.
    content: fc.integer({ min: 0, max: POOL }),
    page: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
    next_page: fc.option(fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(null)), { nil: undefined }),
    has_more: fc.option(fc.boolean(), { nil: undefined }),
  });

  it('holds over 150 random servers', async () => {
    await fc
      .assert(
        fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 12 }), async (answers) => {
          server.reset();
          server.otherwise((_request, log) => {
            const a = answers[Math.min(log.length, answers.length) - 1]!;
            return faults.ok({
              data: a.content === 0 ? [] : content(a.content),
              page: a.page,
              next_page: a.next_page,
              has_more: a.has_more,
            });
          });
          const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1' });
          const ids = await walk(client);
          count('propertyRuns');
          // A content is read at most once, so at most POOL pages with items, and one more request at most.
          return new Set(ids).size === ids.length && server.received <= POOL + 1;
        }),
        { numRuns: 150 },
      )
      .then(
        () => attacked('page cycles', true),
        (error: unknown) => {
          attacked('page cycles', false);
          throw error;
        },
      );
  });
});

describe('an abort in the middle of a page', () => {
  /** Pages of 10 orders, 50 in all, over a real socket; the list runs with the returned controller's signal. */
  function abortableList() {
    server.reset();
    server.otherwise((request) => {
      const page = asked(request);
      return faults.ok({ data: content(page, 10), page, limit: 10, total: 50 });
    });
    const controller = new AbortController();
    const client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', maxRetries: 0 });
    return { controller, list: client.orders.list({}, { signal: controller.signal }) };
  }

  it.each([
    ['take(5), although the page already read holds all 5', (list: PagePromise<Order>) => list.take(5)],
    ['for await over the list, at the next item rather than the next page', (list: PagePromise<Order>) => list],
  ])('%s: rejects with AbortError after the item during which it aborted', async (_, items) => {
    const { controller, list } = abortableList();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const order of items(list)) {
        seen.push(String(order.id));
        controller.abort(new Error('user left'));
      }
    })().catch((e: unknown) => e);
    attacked('page cycles', AbortError.is(error) && seen.length === 1);
    expect(AbortError.is(error)).toBe(true);
    expect(seen).toEqual(['c1-0']);
    expect(server.received).toBe(1);
  });

  it('pages() rejects with AbortError at the next page, without fetching it', async () => {
    const { controller, list } = abortableList();
    const seen: number[] = [];
    const error = await (async () => {
      for await (const page of list.pages()) {
        seen.push(page.items.length);
        controller.abort(new Error('user left'));
      }
    })().catch((e: unknown) => e);
    attacked('page cycles', AbortError.is(error) && seen.length === 1);
    expect(AbortError.is(error)).toBe(true);
    expect(seen).toEqual([10]);
    expect(server.received).toBe(1);
  });

  it('toArray({ limit: 5 }) rejects with AbortError when the signal aborts while it collects the page already read', async () => {
    const { controller, list } = abortableList();
    const collected = list.toArray({ limit: 5 }).catch((e: unknown) => e);
    // The first page is shared: toArray's walk resumes first, and this abort lands between its items.
    await list;
    controller.abort(new Error('user left'));
    const error = await collected;
    attacked('page cycles', AbortError.is(error));
    expect(AbortError.is(error)).toBe(true);
    expect(server.received).toBe(1);
  });
});
