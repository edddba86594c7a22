/**
 * Reading a list page whatever envelope the service uses, since the spec shows none: a bare array, or items
 * under the usual keys with paging facts from the usual fields.
 */

/**
 * Paging parameters every list accepts.
 *
 * @example
 * ```ts
 * const first = await client.orders.list({ page: 1, limit: 50 });
 * ```
 */
export interface PageParams {
  /** 1-based page number. */
  page?: number | undefined;
  /** Items per page. */
  limit?: number | undefined;
}

/**
 * What a page says about paging, from whichever fields the service used (the spec shows no list envelope).
 * Absent facts are `undefined`.
 *
 * @example
 * ```ts
 * const { info }: { info: PageInfo } = await client.orders.list({ limit: 20 });
 * console.log(`page ${info.page} of ${info.totalPages ?? '?'}`);
 * ```
 */
export interface PageInfo {
  /** This page's number (as reported, else as requested, else 1). */
  page: number;
  /** Items per page (as reported, else as requested). */
  limit: number | undefined;
  /** Items in the whole list. */
  total: number | undefined;
  /** Pages in the whole list: as reported, else from `total` and `limit`. */
  totalPages: number | undefined;
  /** The service's own "there is more" flag. */
  hasMore: boolean | undefined;
  /** The next page's number; `null` when the service says there is none. */
  nextPage: number | null | undefined;
}

const ITEM_KEYS = ['data', 'items', 'results'];
const FACT_SOURCES = ['meta', 'pagination', 'paging', 'links'];
// Each name in snake_case, then in camelCase.
const SPELLINGS = {
  page: ['page', 'current_page', 'currentPage', 'page_number', 'pageNumber'],
  limit: ['limit', 'per_page', 'perPage', 'page_size', 'pageSize'],
  total: ['total', 'total_count', 'totalCount', 'total_items', 'totalItems'],
  totalPages: ['total_pages', 'totalPages', 'last_page', 'lastPage', 'page_count', 'pageCount'],
  hasMore: ['has_more', 'hasMore', 'has_next', 'hasNext', 'has_next_page', 'hasNextPage'],
  nextPage: ['next_page', 'nextPage', 'next'],
};

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

function pick(sources: Obj[], names: string[]): unknown {
  for (const source of sources) for (const name of names) if (source[name] !== undefined) return source[name];
  return undefined;
}

/** A number, a URL with a `page` parameter or `true`; `null` for none, `undefined` when unreadable. */
function readNext(value: unknown, current: number): number | null | undefined {
  if (value === null || value === false || value === '') return null;
  const number = wholeNumber(value);
  if (number !== undefined) return number;
  if (typeof value === 'string') {
    const page = URL.canParse(value, 'http://x') ? new URL(value, 'http://x').searchParams.get('page') : null;
    return wholeNumber(page) ?? current + 1;
  }
  return value === true ? current + 1 : undefined;
}

function readInfo(holders: Obj[], requested: PageParams): PageInfo {
  const sources = [...holders];
  for (const holder of holders) {
    for (const name of FACT_SOURCES) {
      const inner = holder[name];
      if (isObj(inner)) {
        sources.push(inner);
        if (isObj(inner['pagination'])) sources.push(inner['pagination']);
      }
    }
  }
  const page = wholeNumber(pick(sources, SPELLINGS.page)) ?? requested.page ?? 1;
  const hasMore = pick(sources, SPELLINGS.hasMore);
  const limit = wholeNumber(pick(sources, SPELLINGS.limit)) ?? requested.limit;
  const total = wholeNumber(pick(sources, SPELLINGS.total));
  // Derived where the service states only the total: a page of `limit` items, the last one partly full.
  const derived = total !== undefined && limit ? Math.ceil(total / limit) : undefined;
  return {
    page,
    limit,
    total,
    totalPages: wholeNumber(pick(sources, SPELLINGS.totalPages)) ?? derived,
    hasMore: typeof hasMore === 'boolean' ? hasMore : undefined,
    nextPage: readNext(pick(sources, SPELLINGS.nextPage), page),
  };
}

/** `undefined` when the body holds no list the SDK can recognise; `itemsPath` is for error paths. */
export function readEnvelope(
  body: unknown,
  plural: string,
  requested: PageParams,
): { items: unknown[]; itemsPath: string[]; info: PageInfo } | undefined {
  if (Array.isArray(body)) return { items: body, itemsPath: [], info: readInfo([], requested) };
  if (!isObj(body)) return undefined;
  const holders: Obj[] = [];
  for (const holder of isObj(body['data']) ? [body, body['data']] : [body]) {
    holders.push(holder);
    for (const key of [...ITEM_KEYS, plural]) {
      if (!Array.isArray(holder[key])) continue;
      return {
        items: holder[key] as unknown[],
        itemsPath: holder === body ? [key] : ['data', key],
        // Facts are read where the items were searched for: the top level, and `data` when they are in it.
        info: readInfo(holders, requested),
      };
    }
  }
  return undefined;
}
