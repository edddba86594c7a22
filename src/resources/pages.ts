/**
 * Walking a list's pages: `Page` and the `PagePromise` that `list()` returns. A walk also stops on a page number
 * or content already read, so no server bug makes a loop repeat.
 */
import { AbortError, ValidationError, WfaError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { ResponseDetails } from '../core/options.js';
import type { PageInfo } from '../service/envelope.js';
import type { WithResponse } from './api-promise.js';

type Obj = Record<string, unknown>;

/** Hashed, so that a walk keeps one number per page, not a copy of every page. */
function fingerprint(items: readonly unknown[]): number | undefined {
  const keys: string[] = [];
  for (const item of items) {
    const id = (item as Obj | null)?.['id'];
    if (typeof id === 'string' || typeof id === 'number') keys.push(`${typeof id}:${id}`);
    else {
      try {
        keys.push(`json:${JSON.stringify(item)}`);
      } catch {
        // Too deep or cyclic: never taken for a repeat (the other guards still end a walk).
        return undefined;
      }
    }
  }
  // Sorted: a server that ignores `page` may still shuffle or rotate the same items.
  return hash(`${items.length}:${keys.sort().join('\u0000')}`);
}

/** cyrb53, a 53-bit string hash. */
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
 * What one `list()` call has read, by position in the walk. A page asks only about positions up to its own, so
 * walking from a page again finds what the first walk found from there.
 */
export class Trail {
  readonly #numbers = new Map<number, number>();
  readonly #contents = new Map<number, number>();

  note(position: number, numbers: readonly (number | undefined)[], content?: number): void {
    for (const n of numbers) if (n !== undefined && !this.#numbers.has(n)) this.#numbers.set(n, position);
    if (content !== undefined && !this.#contents.has(content)) this.#contents.set(content, position);
  }

  hasNumber(n: number, position: number): boolean {
    return (this.#numbers.get(n) ?? Infinity) <= position;
  }

  hasContent(content: number, position: number): boolean {
    return (this.#contents.get(content) ?? Infinity) < position;
  }
}

export interface Walk<T> {
  fetch(page: number, position: number): Promise<Page<T>>;
  /** A walk that ends early is a server bug the caller should hear about. */
  warn(message: string): void;
  trail: Trail;
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
}

/**
 * One page of a list: its items, the paging facts, and the way to the next page. Also an async iterable of
 * every item from this page on.
 *
 * @example
 * ```ts
 * const page = await client.workflows.list({ limit: 50 });
 * for (const wf of page.items) console.log(wf.id);
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
  /** How this page was answered: status, headers, request id, final URL, attempts and time. */
  declare readonly response: ResponseDetails;
  readonly #walk: Walk<T>;
  readonly #position: number;
  // Lazy: most lists are read one page at a time.
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

  /** @internal The details are known only once the core has read the page. */
  static answered<T>(page: Page<T>, response: ResponseDetails): Page<T> {
    (page as { response: ResponseDetails }).response = response;
    return page;
  }

  #print(): number | undefined {
    this.#fingerprint ??= fingerprint(this.items);
    return this.#fingerprint;
  }

  #next(): number {
    return this.info.nextPage ?? this.info.page + 1;
  }

  /** Why a walk must stop here although the service says there is more. */
  #stop(): string | undefined {
    if (this.repeated) return `page ${this.info.page} repeats a page already read`;
    const next = this.#next();
    if (this.#walk.trail.hasNumber(next, this.#position)) return `page ${this.info.page} points back to page ${next}, already read`;
    return undefined;
  }

  /**
   * True when another page is expected. Unknown facts lean towards asking (an empty page ends the walk); false
   * on a repeated page, a next page already read, or after `maxPages`.
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
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return Page.itemsFrom(this);
  }

  /** @internal Every item from this page on; once the signal aborts, the next item is an `AbortError`, even within a page. */
  static async *itemsFrom<T>(first: Page<T>): AsyncGenerator<T, void, undefined> {
    const { signal } = first.#walk;
    // Items are yielded from a plain loop: `yield*` of an array, or a generator inside another, costs a promise turn per item.
    for await (const page of first.#pages()) {
      for (const item of page.items) {
        if (signal?.aborted) throw aborted(signal);
        yield item;
      }
    }
  }

  /** @internal This page and the ones after it, but no repeated page; the next is fetched only when asked for. */
  static walkFrom<T>(first: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
    return first.#pages();
  }

  async *#pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    const { signal } = this.#walk;
    for (;;) {
      // A page read before the abort is not handed out after it.
      if (signal?.aborted) throw aborted(signal);
      if (!page.repeated) yield page;
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
  readonly #raw: () => Promise<Response>;
  #promise: Promise<Page<T>> | undefined;

  /** @internal */
  constructor(load: () => Promise<Page<T>>, raw: () => Promise<Response>) {
    this.#load = load;
    this.#raw = raw;
  }

  #page(): Promise<Page<T>> {
    this.#promise ??= this.#load();
    return this.#promise;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting list() for its first page is the documented API.
  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#page().then(onfulfilled, onrejected);
  }

  /**
   * The first page with how it was answered; every page also has these details as `page.response`.
   *
   * @example
   * ```ts
   * const { data: page, response } = await client.orders.list().withResponse();
   * console.log(page.items.length, response.requestId);
   * ```
   */
  withResponse(): Promise<WithResponse<Page<T>>> {
    return this.#page().then((page) => ({ data: page, response: page.response }));
  }

  /**
   * The first page's raw `Response`, its body unread: a request of its own, not shared with awaiting the list.
   *
   * @example
   * ```ts
   * const response = await client.orders.list({ limit: 10 }).asResponse();
   * ```
   */
  asResponse(): Promise<Response> {
    return this.#raw();
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
    yield* Page.itemsFrom(await this.#page());
  }

  /**
   * Every page, from the first, each fetched only when the loop asks for it; `break` fetches nothing more.
   *
   * @example
   * ```ts
   * for await (const page of client.orders.list({ limit: 100 }).pages()) save(page.items);
   * ```
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* Page.walkFrom(await this.#page());
  }

  /**
   * At most `n` items, from the first page on: no page is fetched once `n` items are out, or after a `break`.
   *
   * @throws ValidationError (on the first `next()`, before any request) when `n` is not a whole number >= 0.
   * @example
   * ```ts
   * for await (const wf of client.workflows.list({ status: 'failed' }).take(5)) console.log(wf.id);
   * ```
   */
  async *take(n: number): AsyncGenerator<T, void, undefined> {
    checkCount('take', 'n', n);
    if (n === 0) return;
    let left = n;
    for await (const item of Page.itemsFrom(await this.#page())) {
      yield item;
      if (--left === 0) return;
    }
  }

  /**
   * The first `limit` items (fewer if the list ends first), in one array. `limit` is required, so that a
   * long list cannot fill memory by accident; no page past the one holding the last item is fetched.
   *
   * @throws ValidationError, before any request, when `limit` is not a whole number >= 1.
   * @example
   * ```ts
   * const recent = await client.orders.list({ status: 'paid' }).toArray({ limit: 500 });
   * ```
   */
  async toArray(options: { limit: number }): Promise<T[]> {
    checkCount('toArray', 'limit', (options as { limit?: unknown } | undefined)?.limit, 1);
    const items: T[] = [];
    for await (const item of this.take(options.limit)) items.push(item);
    return items;
  }
}

function aborted(signal: AbortSignal): AbortError {
  return new AbortError('The list was aborted by its signal', { cause: signal.reason });
}

function checkCount(method: string, name: string, value: unknown, min = 0): void {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= min)) {
    throw new ValidationError(`${method}() of a list`, [
      { path: [name], message: `must be a whole number >= ${min}`, code: value === undefined ? 'invalid_type' : 'invalid_value' },
    ]);
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
