/**
 * `Page`: one page of a list, and the walk from it to the pages after. A walk also stops on a page number or
 * content already read, so no server bug makes a loop repeat.
 */
import { type AbortError, WfaError } from '../core/errors.js';
import { abortedBy } from '../core/failures.js';
import type { ResponseDetails } from '../core/options.js';
import type { PageInfo } from '../service/envelope.js';

/**
 * What the pages of one `list()` call share. `numbers` and `contents` map what was read to the first position
 * in the walk it was read at: a page asks only about positions up to its own, so walking from a page again
 * finds what the first walk found from there.
 */
export interface ListWalk<T> {
  fetch(page: number | undefined, position: number): Promise<Page<T>>;
  /** A walk that ends early is a server bug the caller should hear about. */
  warn(message: string): void;
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
  numbers: Map<number, number>;
  contents: Map<number, number>;
}

/** What `list()` read for one page; `requested` is the page number asked for, if any. */
export type PageContent<T> = Pick<Page<T>, 'items' | 'info' | 'body' | 'response'> & { requested: number | undefined };

/**
 * One page of a list: its items, the paging facts, and the way to the next page. Also an async iterable of
 * every item from this page on.
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page, validated: the very objects in {@link Page.body}, not copies. */
  readonly items: T[];
  /** Paging facts as the service gave them. */
  readonly info: PageInfo;
  /** The response body as received (the envelope, for fields the SDK does not model). */
  readonly body: unknown;
  /** True when this page has the same items as a page read before it in this walk: the server ignored `page`. */
  readonly repeated: boolean;
  /** The page's response: status, headers, request id, final URL, attempts and time. */
  readonly response: ResponseDetails;
  readonly #walk: ListWalk<T>;
  readonly #position: number;
  // Lazy: most lists are read one page at a time.
  #fingerprint: number | undefined;

  /** @internal Pages are made by `list()`. */
  constructor(content: PageContent<T>, walk: ListWalk<T>, position: number) {
    this.items = content.items;
    this.info = content.info;
    this.body = content.body;
    this.response = content.response;
    this.#walk = walk;
    this.#position = position;
    note(walk.numbers, content.requested, position);
    note(walk.numbers, content.info.page, position);
    // An empty page is never a repeat (it ends a walk anyway); nor is a page too deep to fingerprint.
    const fingerprint = position > 0 && content.items.length > 0 ? this.#contentHash() : undefined;
    this.repeated = fingerprint !== undefined && (walk.contents.get(fingerprint) ?? Infinity) < position;
  }

  #contentHash(): number | undefined {
    this.#fingerprint ??= pageFingerprint(this.items);
    return this.#fingerprint;
  }

  #next(): number {
    return this.info.nextPage ?? this.info.page + 1;
  }

  /** Why a walk must stop here although the service says there is more. */
  #stop(): string | undefined {
    if (this.repeated) return `page ${this.info.page} repeats a page already read`;
    const next = this.#next();
    if ((this.#walk.numbers.get(next) ?? Infinity) > this.#position) return undefined;
    return `page ${this.info.page} points back to page ${next}, already read`;
  }

  /**
   * True when another page is expected. Unknown facts lean towards asking (an empty page ends the walk); false
   * on a repeated page, a next page already read, or after `maxPages`.
   */
  hasNextPage(): boolean {
    const { page, limit, totalPages, hasMore, nextPage } = this.info;
    if (this.items.length === 0 || this.#stop() !== undefined) return false;
    const { maxPages } = this.#walk;
    if (maxPages !== undefined && this.#position + 1 >= maxPages) return false;
    if (hasMore !== undefined) return hasMore;
    if (nextPage !== undefined) return nextPage !== null && nextPage > page;
    if (totalPages !== undefined) return page < totalPages;
    return limit === undefined || this.items.length >= limit;
  }

  /**
   * Fetches the next page with the same parameters.
   *
   * @throws WfaError when {@link Page.hasNextPage} is false.
   */
  async getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) throw new WfaError('No next page');
    note(this.#walk.contents, this.#contentHash(), this.#position);
    return this.#walk.fetch(this.#next(), this.#position + 1);
  }

  /**
   * Every item from this page on, fetching later pages as they are reached; one page in memory at a time. Once
   * the call's signal aborts, the next item is an `AbortError`, even within a page.
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return Page.itemsFrom(this);
  }

  /**
   * @internal Every item from `from` on: the one generator a walk of items runs, for a page or the promise of
   * one (`PagePromise`). Items are yielded from a plain loop: `yield*` of an array, or a generator inside
   * another, costs a promise turn per item.
   */
  static async *itemsFrom<T>(from: Page<T> | PromiseLike<Page<T>>): AsyncGenerator<T, void, undefined> {
    const first = await from;
    const { signal } = first.#walk;
    for await (const page of Page.pagesFrom(first)) {
      for (const item of page.items) {
        if (signal?.aborted) throw aborted(signal);
        yield item;
      }
    }
  }

  /** @internal This page and the ones after it, but no repeated page; the next is fetched only when asked for. */
  static async *pagesFrom<T>(first: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
    const { signal, warn } = first.#walk;
    for (let page = first; ; page = await page.getNextPage()) {
      // A page read before the abort is not handed out after it.
      if (signal?.aborted) throw aborted(signal);
      if (!page.repeated) yield page;
      if (!page.hasNextPage()) {
        const why = page.items.length > 0 ? page.#stop() : undefined;
        if (why) warn(why);
        return;
      }
    }
  }
}

function note(seen: Map<number, number>, key: number | undefined, position: number): void {
  if (key !== undefined && !seen.has(key)) seen.set(key, position);
}

function aborted(signal: AbortSignal): AbortError {
  return abortedBy('The list', signal.reason);
}

/** A page's content as one number, the same for the same items in any order; `undefined` for items too deep or cyclic to read. */
function pageFingerprint(items: readonly unknown[]): number | undefined {
  const keys: string[] = [];
  for (const item of items) {
    const id = (item as Record<string, unknown> | null)?.['id'];
    if (typeof id === 'string' || typeof id === 'number') keys.push(`${typeof id}:${id}`);
    else {
      try {
        keys.push(`json:${JSON.stringify(item)}`);
      } catch {
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
