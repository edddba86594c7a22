/**
 * Lists: reading whatever envelope the service uses, and walking pages safely.
 *
 * The spec does not show the list envelope, so a page is read from a bare array or from an object whose items
 * sit under `data`, `items`, `results` or the resource's plural name (also one level down, under `data`), with
 * paging facts from the usual fields, top level or inside `meta`, `pagination`, `paging` or `links`.
 *
 * Walking stops on an empty page, a short page, `has_more: false`, the last page by `total_pages` or `total`,
 * or a page that repeats the previous one, so a server that ignores `page` cannot make a loop run forever.
 */
import { ResponseValidationError, WfaError, type Issue } from './errors.js';
import type { HttpCore } from './http.js';
import type { RequestOptions } from './options.js';
import { array, safeParse, toIssues, type Schema } from './schema.js';

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
  /** Pages in the whole list. */
  totalPages: number | undefined;
  /** The service's own "there is more" flag. */
  hasMore: boolean | undefined;
  /** The next page's number; `null` when the service says there is none. */
  nextPage: number | null | undefined;
}

/** @internal How a resource's list is fetched. */
export interface ListSpec<T> {
  path: string;
  /** The resource's plural name, also tried as the items key: `workflows`. */
  plural: string;
  item: Schema<T>;
  query: Record<string, string | number | undefined>;
}

const ITEM_KEYS = ['data', 'items', 'results'];
const FACT_SOURCES = ['meta', 'pagination', 'paging', 'links'];
const FACT_NAMES = {
  page: ['page', 'current_page', 'currentPage', 'page_number'],
  limit: ['limit', 'per_page', 'perPage', 'page_size', 'pageSize'],
  total: ['total', 'total_count', 'totalCount', 'total_items', 'totalItems'],
  totalPages: ['total_pages', 'totalPages', 'last_page', 'lastPage', 'page_count', 'pageCount'],
  hasMore: ['has_more', 'hasMore', 'has_next', 'hasNext', 'has_next_page', 'hasNextPage'],
  nextPage: ['next_page', 'nextPage', 'next'],
} as const;

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

function pick(sources: Obj[], names: readonly string[]): unknown {
  for (const source of sources) for (const name of names) if (source[name] !== undefined) return source[name];
  return undefined;
}

/** Reads a `next_page`/`next` value: a number, a URL with a `page` parameter, `null` for none. */
function readNext(value: unknown, current: number): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === false || value === '') return null;
  const n = wholeNumber(value);
  if (n !== undefined) return n;
  if (typeof value === 'string') {
    const page = URL.canParse(value, 'http://x') ? new URL(value, 'http://x').searchParams.get('page') : null;
    return wholeNumber(page) ?? current + 1;
  }
  return value === true ? current + 1 : undefined;
}

/**
 * Finds the items and paging facts in a list response.
 *
 * @returns `undefined` when the body holds no list the SDK can recognise.
 */
export function readEnvelope(
  body: unknown,
  plural: string,
  requested: PageParams,
): { items: unknown[]; itemsKey: string | undefined; info: PageInfo } | undefined {
  let items: unknown[] | undefined;
  let itemsKey: string | undefined;
  const sources: Obj[] = [];
  if (Array.isArray(body)) {
    items = body;
  } else if (isObj(body)) {
    for (const holder of isObj(body['data']) ? [body, body['data']] : [body]) {
      sources.push(holder);
      for (const key of [...ITEM_KEYS, plural]) {
        if (Array.isArray(holder[key])) {
          items = holder[key] as unknown[];
          itemsKey = holder === body ? key : `data.${key}`;
          break;
        }
      }
      if (items) break;
    }
    for (const source of [...sources]) {
      for (const name of FACT_SOURCES) {
        const inner = source[name];
        if (isObj(inner)) {
          sources.push(inner);
          if (isObj(inner['pagination'])) sources.push(inner['pagination']);
        }
      }
    }
  }
  if (!items) return undefined;
  const page = wholeNumber(pick(sources, FACT_NAMES.page)) ?? requested.page ?? 1;
  const hasMore = pick(sources, FACT_NAMES.hasMore);
  return {
    items,
    itemsKey,
    info: {
      page,
      limit: wholeNumber(pick(sources, FACT_NAMES.limit)) ?? requested.limit,
      total: wholeNumber(pick(sources, FACT_NAMES.total)),
      totalPages: wholeNumber(pick(sources, FACT_NAMES.totalPages)),
      hasMore: typeof hasMore === 'boolean' ? hasMore : undefined,
      nextPage: readNext(pick(sources, FACT_NAMES.nextPage), page),
    },
  };
}

/** A cheap identity for a page's content: its ids when every item has one, else its JSON. */
function fingerprint(items: readonly unknown[]): string {
  const ids: unknown[] = [];
  for (const item of items) {
    const id = isObj(item) ? item['id'] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') {
      try {
        return JSON.stringify(items);
      } catch {
        // Too deep or cyclic to serialise: treat the page as new (the empty-page guard still ends a walk).
        return `unique:${Math.random()}`;
      }
    }
    ids.push(id);
  }
  return `${items.length}:${ids.join('\u0000')}`;
}

/**
 * One page of a list: its items, the paging facts, and the way to the next page. Also an async iterable of
 * every item from this page on.
 *
 * @example
 * ```ts
 * let page = await client.workflows.list({ limit: 50 });
 * while (true) {
 *   for (const wf of page.items) console.log(wf.id);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page, validated. */
  declare readonly items: T[];
  /** Paging facts as the service gave them. */
  declare readonly info: PageInfo;
  /** The response body as received (the envelope, for fields the SDK does not model). */
  declare readonly body: unknown;
  /** True when this page has the same items as the page before it: the server ignored `page`. */
  declare readonly repeated: boolean;
  readonly #fetch: (page: number, previous: string) => Promise<Page<T>>;
  // Computed only when there is a page to compare with: most lists are read one page at a time.
  #fingerprint: string | undefined;

  /** @internal Pages are made by `list()`. */
  constructor(
    items: T[],
    info: PageInfo,
    body: unknown,
    fetch: (page: number, previous: string) => Promise<Page<T>>,
    previous: string | undefined,
  ) {
    this.items = items;
    this.info = info;
    this.body = body;
    this.#fetch = fetch;
    this.repeated = previous !== undefined && items.length > 0 && previous === this.#print();
  }

  #print(): string {
    this.#fingerprint ??= this.items.length === 0 ? '' : fingerprint(this.items);
    return this.#fingerprint;
  }

  /**
   * True when another page is expected. Unknown facts lean towards asking: the empty-page and repeated-page
   * guards end a walk on a server that gives none.
   *
   * @example
   * ```ts
   * const page = await client.workflows.list({ limit: 50 });
   * if (page.hasNextPage()) console.log('more to come');
   * ```
   */
  hasNextPage(): boolean {
    const { page, limit, total, totalPages, hasMore, nextPage } = this.info;
    if (this.repeated || this.items.length === 0) return false;
    if (hasMore !== undefined) return hasMore;
    if (nextPage !== undefined) return nextPage !== null && nextPage > page;
    if (totalPages !== undefined) return page < totalPages;
    if (total !== undefined && limit !== undefined) return page * limit < total;
    if (limit !== undefined && this.items.length < limit) return false;
    return true;
  }

  /**
   * Fetches the next page with the same parameters.
   *
   * @throws WfaError when {@link Page.hasNextPage} is false.
   * @example
   * ```ts
   * const first = await client.orders.list({ limit: 100 });
   * const second = first.hasNextPage() ? await first.getNextPage() : undefined;
   * ```
   */
  async getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) throw new WfaError('There is no next page: check hasNextPage() first');
    const next = this.info.nextPage ?? this.info.page + 1;
    return this.#fetch(next, this.#print());
  }

  /**
   * Every item from this page on, fetching later pages as they are reached; one page in memory at a time.
   *
   * @example
   * ```ts
   * const page = await client.workflows.list({ page: 3 });
   * for await (const workflow of page) console.log(workflow.id); // page 3, then 4, 5...
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk moves on from this page
    let page: Page<T> = this;
    for (;;) {
      if (page.repeated) return;
      yield* page.items;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }
}

/**
 * What `list()` returns: await it for the first page, or `for await` it for every item of every page.
 * Nothing is fetched until it is awaited or iterated, and invalid parameters reject without a request.
 *
 * @example
 * ```ts
 * const page = await client.workflows.list({ status: 'building' });  // one page
 * for await (const workflow of client.workflows.list()) console.log(workflow.name);  // every item
 * ```
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #load: () => Promise<Page<T>>;
  #promise: Promise<Page<T>> | undefined;

  /** @internal */
  constructor(load: () => Promise<Page<T>>) {
    this.#load = load;
  }

  #page(): Promise<Page<T>> {
    this.#promise ??= this.#load();
    return this.#promise;
  }

  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#page().then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#page().catch(onrejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#page().finally(onfinally);
  }

  /**
   * Every item of every page, from the first; later pages are fetched as they are reached.
   *
   * @example
   * ```ts
   * for await (const integration of client.integrations.list({ limit: 100 })) console.log(integration.platform);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#page();
  }
}

// One array schema per item schema, made once: building a zod schema costs more than validating 20 items.
const arrays = new WeakMap<object, Schema<unknown[]>>();
function arrayOf<T>(item: Schema<T>): Schema<T[]> {
  let schema = arrays.get(item);
  if (!schema) arrays.set(item, (schema = array(item)));
  return schema as Schema<T[]>;
}

/**
 * Fetches and reads one page; the resources' `list()` methods are built on it.
 *
 * @internal
 */
export function listPages<T>(
  core: HttpCore,
  spec: ListSpec<T>,
  options: RequestOptions | undefined,
  check: () => void,
): PagePromise<T> {
  const arraySchema = arrayOf(spec.item);
  const what = `list of ${spec.plural}`;
  const fetchPage = (page: number | undefined, previous: string | undefined): Promise<Page<T>> => {
    const query = page === undefined ? spec.query : { ...spec.query, page };
    const requested = { page: query['page'] as number | undefined, limit: query['limit'] as number | undefined };
    // Read inside the core, so that an error about the body carries it with the call's secrets removed.
    const read = (body: unknown): Page<T> => {
      const envelope = readEnvelope(body, spec.plural, requested);
      const invalid = (issues: Issue[]) => new ResponseValidationError({ body, issues, method: 'GET', url: spec.path, what });
      if (!envelope) {
        throw invalid([
          {
            path: [],
            message: `must be an array, or an object with the items under data, items, results or ${spec.plural}`,
            code: 'invalid_envelope',
          },
        ]);
      }
      let items = envelope.items as T[];
      if (core.validateResponses) {
        const result = safeParse(arraySchema, envelope.items);
        if (!result.success) {
          const prefix = envelope.itemsKey ? envelope.itemsKey.split('.') : [];
          throw invalid(toIssues(result.error).map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })));
        }
        items = result.data;
      }
      return new Page(items, envelope.info, body, fetchPage, previous);
    };
    return core.request({ ...options, method: 'GET', path: spec.path, query, what, read });
  };
  return new PagePromise(async () => {
    check();
    return fetchPage(undefined, undefined);
  });
}
