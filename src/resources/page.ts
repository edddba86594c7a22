/**
 * `Page`: one page of a list, and the walk from it to the pages after. A walk also stops on a page number or
 * content already read, so no server bug makes a loop repeat.
 */
import { AbortError, WfaError } from '../core/errors.js';
import type { ResponseDetails } from '../core/options.js';
import type { PageInfo } from '../service/envelope.js';
import { pageFingerprint } from './page-fingerprint.js';

/**
 * What one `list()` call has read, by position in the walk. A page asks only about positions up to its own, so
 * walking from a page again finds what the first walk found from there.
 */
export class SeenPages {
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

/** What the pages of one `list()` call share: how to fetch another, where to warn, what has been read. */
export interface ListWalk<T> {
  fetch(page: number, position: number): Promise<Page<T>>;
  /** A walk that ends early is a server bug the caller should hear about. */
  warn(message: string): void;
  seen: SeenPages;
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
}

/** What the list's reader takes from one response. */
export interface PageContent<T> {
  items: T[];
  info: PageInfo;
  body: unknown;
  response: ResponseDetails;
  /** The page number asked for, if any. */
  requested: number | undefined;
}

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
    walk.seen.note(position, [content.requested, content.info.page]);
    // An empty page is never a repeat (it ends a walk anyway); nor is a page too deep to fingerprint.
    const fingerprint = position > 0 && content.items.length > 0 ? this.#contentHash() : undefined;
    this.repeated = fingerprint !== undefined && walk.seen.hasContent(fingerprint, position);
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
    if (this.#walk.seen.hasNumber(next, this.#position)) return `page ${this.info.page} points back to page ${next}, already read`;
    return undefined;
  }

  /**
   * True when another page is expected. Unknown facts lean towards asking (an empty page ends the walk); false
   * on a repeated page, a next page already read, or after `maxPages`.
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
   */
  async getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) throw new WfaError('No next page');
    this.#walk.seen.note(this.#position, [], this.#contentHash());
    return this.#walk.fetch(this.#next(), this.#position + 1);
  }

  /**
   * Every item from this page on, fetching later pages as they are reached; one page in memory at a time.
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
  static pagesFrom<T>(first: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
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

function aborted(signal: AbortSignal): AbortError {
  return new AbortError('The list was aborted by its signal', { cause: signal.reason });
}
