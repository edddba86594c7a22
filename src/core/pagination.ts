/**
 * Lists: reading whatever envelope the service uses, and walking pages safely.
 *
 * The spec does not show the list envelope, so a page is read from a bare array or from an object whose items
 * sit under `data`, `items`, `results` or the resource's plural name (also one level down, under `data`), with
 * paging facts from the usual fields, top level or inside `meta`, `pagination`, `paging` or `links`.
 *
 * Walking stops on an empty page, a short page, `has_more: false`, the last page by `total_pages` or `total`,
 * a page number or a page content already seen in the walk, or `maxPages`: no server bug makes a loop repeat.
 */
import { ResponseValidationError, ValidationError, WfaError } from './errors.js';
import type { $ZodShape } from 'zod/v4/core';
import type { HttpCore, QueryValue } from './http.js';
import type { RequestOptions } from './options.js';
import { array, checkInput, optional, positiveInt, safeParse, strictObject, toIssues, type Schema } from './schema.js';

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

const ITEM_KEYS = ['data', 'items', 'results'];
const FACT_SOURCES = ['meta', 'pagination', 'paging', 'links'];
/**
 * The spellings of a paging fact's names, given space-separated in snake_case in order of preference: each
 * name, then its camelCase form (`total_pages`, then `totalPages`). Listed once when the module loads, so that
 * reading a page only looks fields up.
 */
/* @__NO_SIDE_EFFECTS__ */
function spellings(names: string): string[] {
  return [...new Set(names.split(' ').flatMap((snake) => [snake, snake.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase())]))];
}

const SPELLINGS = {
  page: spellings('page current_page page_number'),
  limit: spellings('limit per_page page_size'),
  total: spellings('total total_count total_items'),
  totalPages: spellings('total_pages last_page page_count'),
  hasMore: spellings('has_more has_next has_next_page'),
  nextPage: spellings('next_page next'),
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

/** The first object that names the fact wins; within it, the first of `names` it has. */
function pick(sources: Obj[], names: string[]): unknown {
  for (const source of sources) for (const name of names) if (source[name] !== undefined) return source[name];
  return undefined;
}

/**
 * Reads a `next_page`/`next` value: a number, a URL with a `page` parameter or `true`; `null` for none,
 * `undefined` when absent or unreadable.
 */
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

/** The paging facts in the objects that were searched for the items, and in their meta, pagination, etc. */
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
  return {
    page,
    limit: wholeNumber(pick(sources, SPELLINGS.limit)) ?? requested.limit,
    total: wholeNumber(pick(sources, SPELLINGS.total)),
    totalPages: wholeNumber(pick(sources, SPELLINGS.totalPages)),
    hasMore: typeof hasMore === 'boolean' ? hasMore : undefined,
    nextPage: readNext(pick(sources, SPELLINGS.nextPage), page),
  };
}

/**
 * Finds the items and paging facts in a list response.
 *
 * @returns `undefined` when the body holds no list the SDK can recognise; else the items, where they were
 * (`itemsPath`, for error paths: `['data', 'orders']`) and the paging facts.
 */
export function readEnvelope(
  body: unknown,
  plural: string,
  requested: PageParams,
): { items: unknown[]; itemsPath: string[]; info: PageInfo } | undefined {
  if (Array.isArray(body)) return { items: body, itemsPath: [], info: readInfo([], requested) };
  if (!isObj(body)) return undefined;
  // The items sit at the top level or, failing that, one level down under `data`.
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

/**
 * A cheap identity for a page's content: its ids when every item has one, else its JSON, hashed to a number
 * so that a walk keeps one number per page, not a copy of every page.
 */
function fingerprint(items: readonly unknown[]): number | undefined {
  const ids: unknown[] = [];
  for (const item of items) {
    // Any JSON value: `null` has no fields, and a string, number or array has no `id`.
    const id = (item as Obj | null)?.['id'];
    if (typeof id !== 'string' && typeof id !== 'number') {
      try {
        return hash(JSON.stringify(items));
      } catch {
        // Too deep or cyclic to serialise: no identity, so never taken for a repeat (the page-number guard and
        // the empty-page guard still end a walk).
        return undefined;
      }
    }
    ids.push(id);
  }
  return hash(`${items.length}:${ids.join('\u0000')}`);
}

/** cyrb53, a 53-bit string hash: two pages with a chance collision would be one in about 10^15. */
function hash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * What one `list()` call has read: each page number and page content, with the position in the walk (0 for
 * the first page) where it was first seen. A page asks only about positions up to its own, so walking from a
 * page again finds what the first walk found from there. One entry per distinct page.
 */
class Trail {
  readonly #numbers = new Map<number, number>();
  readonly #contents = new Map<number, number>();

  /** Notes the numbers of the page at `position` (asked for, and as it said), and its content once known. */
  note(position: number, numbers: readonly (number | undefined)[], content?: number): void {
    for (const n of numbers) if (n !== undefined && !this.#numbers.has(n)) this.#numbers.set(n, position);
    if (content !== undefined && !this.#contents.has(content)) this.#contents.set(content, position);
  }

  /** True when page number `n` belongs to a page at `position` or before it. */
  hasNumber(n: number, position: number): boolean {
    return (this.#numbers.get(n) ?? Infinity) <= position;
  }

  /** True when `content` was read at a position before `position`. */
  hasContent(content: number, position: number): boolean {
    return (this.#contents.get(content) ?? Infinity) < position;
  }
}

/** How a list fetches its next page, and what bounds its walk. */
interface Walk<T> {
  fetch(page: number, position: number): Promise<Page<T>>;
  /** Tells the client's logger why a walk ended early: a server bug the caller should hear about. */
  warn(message: string): void;
  trail: Trail;
  maxPages: number | undefined;
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
  /** The items of this page, validated: the very objects in {@link Page.body}, not copies. */
  declare readonly items: T[];
  /** Paging facts as the service gave them. */
  declare readonly info: PageInfo;
  /** The response body as received (the envelope, for fields the SDK does not model). */
  declare readonly body: unknown;
  /** True when this page has the same items as a page read before it in this walk: the server ignored `page`. */
  declare readonly repeated: boolean;
  readonly #walk: Walk<T>;
  /** Where this page stands in its walk: 0 for the first page. */
  readonly #position: number;
  // Computed only when there is a page to compare with: most lists are read one page at a time.
  #fingerprint: number | undefined;

  /** @internal Pages are made by `list()`. */
  constructor(items: T[], info: PageInfo, body: unknown, walk: Walk<T>, position: number, requested: number | undefined) {
    this.items = items;
    this.info = info;
    this.body = body;
    this.#walk = walk;
    this.#position = position;
    walk.trail.note(position, [requested, info.page]);
    // An empty page is never a repeat (it ends a walk anyway); nor is a page too deep to fingerprint.
    const print = position > 0 && items.length > 0 ? this.#print() : undefined;
    this.repeated = print !== undefined && walk.trail.hasContent(print, position);
  }

  #print(): number | undefined {
    return (this.#fingerprint ??= fingerprint(this.items));
  }

  /** The number the next page would be asked for. */
  #next(): number {
    return this.info.nextPage ?? this.info.page + 1;
  }

  /** Why a walk must stop here although the service says there is more, if it must. */
  #stop(): string | undefined {
    if (this.repeated) return `page ${this.info.page} repeats a page already read`;
    const next = this.#next();
    if (this.#walk.trail.hasNumber(next, this.#position)) return `page ${this.info.page} points back to page ${next}, already read`;
    return undefined;
  }

  /**
   * True when another page is expected. Unknown facts lean towards asking: the empty-page guard ends a walk on a
   * server that gives none. False on a page that repeats one read before, on a page whose next page was already
   * read, and once the list's `maxPages` are read.
   *
   * @example
   * ```ts
   * const page = await client.workflows.list({ limit: 50 });
   * if (page.hasNextPage()) console.log('more to come');
   * ```
   */
  hasNextPage(): boolean {
    const { page, limit, total, totalPages, hasMore, nextPage } = this.info;
    if (this.items.length === 0 || this.#stop() !== undefined) return false;
    const { maxPages } = this.#walk;
    if (maxPages !== undefined && this.#position + 1 >= maxPages) return false;
    if (hasMore !== undefined) return hasMore;
    if (nextPage !== undefined) return nextPage !== null && nextPage > page;
    if (totalPages !== undefined) return page < totalPages;
    if (total !== undefined && limit !== undefined) return page * limit < total;
    // A short page is the last one.
    return limit === undefined || this.items.length >= limit;
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
    if (!this.hasNextPage()) throw new WfaError('No next page');
    this.#walk.trail.note(this.#position, [], this.#print());
    return this.#walk.fetch(this.#next(), this.#position + 1);
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
      if (!page.repeated) yield* page.items;
      if (!page.hasNextPage()) {
        const why = page.items.length > 0 ? page.#stop() : undefined;
        if (why) this.#walk.warn(why);
        return;
      }
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
    return (this.#promise ??= this.#load());
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

/**
 * Options of a `list()` call: those of every call, and a bound on how many pages one walk reads.
 *
 * @example
 * ```ts
 * for await (const wf of client.workflows.list({ limit: 100 }, { maxPages: 10 })) console.log(wf.id); // at most 1000
 * ```
 */
export interface ListOptions extends RequestOptions {
  /**
   * The most pages one walk reads, the first included: `for await` ends quietly after them, and the last
   * page's `hasNextPage()` is false. Default: no bound (a walk still ends on a repeated page or page number).
   */
  maxPages?: number | undefined;
}

/**
 * Makes a resource's `list()`, once, when its module loads: the parameter and item schemas are built here
 * rather than on each call (building a zod schema costs more than validating 20 items).
 *
 * @param plural - the resource's name in its path and in messages, also tried as the items key: `workflows`
 * @param filters - the list's parameters besides `page` and `limit`; any other parameter is refused
 * @returns what `list(params, options)` calls with the resource's core
 * @internal
 */
/* @__NO_SIDE_EFFECTS__ */
export function listEndpoint<T>(
  plural: string,
  item: Schema<T>,
  filters: $ZodShape = {},
): (core: HttpCore, params: PageParams, options: ListOptions | undefined) => PagePromise<T> {
  const path = `/${plural}`;
  const what = `list of ${plural}`;
  const paramsSchema = strictObject({ page: optional(positiveInt()), limit: optional(positiveInt()), ...filters });
  const itemsSchema = array(item);
  return (core, params, listOptions) =>
    new PagePromise(async () => {
      // Copied, then the copy checked: every page sends exactly what was checked, whatever becomes of the
      // caller's object (a getter is read once). Not an array or a primitive, which zod refuses as it is.
      const query = (isObj(params) ? { ...params } : params) as Record<string, QueryValue>;
      checkInput(paramsSchema, query, `input to ${plural}.list`);
      const { maxPages, ...options } = listOptions ?? {};
      if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1)) {
        throw new ValidationError(`options of ${plural}.list`, [{ path: ['maxPages'], message: 'must be a whole number >= 1', code: 'invalid_value' }]);
      }
      const walk: Walk<T> = {
        maxPages,
        trail: new Trail(),
        warn: (message) => core.log.log('warn', `${what}: ${message}; the walk ends there`),
        fetch: (page, position) => fetchPage(page, position),
      };
      const fetchPage = (page: number | undefined, position: number): Promise<Page<T>> => {
        const pageQuery = { ...query, page };
        // Read inside the core, so that an error about the body carries it with the call's secrets removed.
        const read = (body: unknown): Page<T> => {
          // The parameters were checked before the first page: `page` and `limit` are numbers if present.
          const envelope = readEnvelope(body, plural, pageQuery as PageParams);
          if (!envelope) {
            throw new ResponseValidationError({
              body,
              issues: [{ path: [], message: `has no array under data, items, results or ${plural}`, code: 'invalid_envelope' }],
              method: 'GET',
              url: path,
              what,
            });
          }
          let items = envelope.items as T[];
          if (core.validateResponses) {
            const result = safeParse(itemsSchema, items);
            if (!result.success) {
              throw new ResponseValidationError({
                body,
                issues: toIssues(result.error, envelope.itemsPath),
                method: 'GET',
                url: path,
                what,
              });
            }
            items = result.data;
          }
          return new Page(items, envelope.info, body, walk, position, page);
        };
        return core.request({ ...options, method: 'GET', path, query: pageQuery, what, read });
      };
      return fetchPage(query['page'] as number | undefined, 0);
    });
}
