/** `PagePromise`: what `list()` returns, an `ApiPromise` of the first page that also walks every item or page. */
import type { RequestOptions } from '../core/options.js';
import { checked, checkInput, looseObject } from '../core/schema.js';
import { ApiPromise } from './api-promise.js';
import { Page } from './page.js';

/**
 * What `list()` returns: await it for the first page, or `for await` it for every item of every page. The first
 * page is sent as every call is ({@link ApiPromise}), later pages when a walk reaches them. Invalid parameters
 * reject without a request.
 */
export class PagePromise<T> extends ApiPromise<Page<T>> implements AsyncIterable<T> {
  /** Every item of every page, from the first; later pages are fetched as they are reached. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    // The first page's own walk, not a generator around it, which would cost a promise turn per item.
    return Page.itemsFrom(this);
  }

  /** Every page, from the first, each fetched only when the loop asks for it; `break` fetches nothing more. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* Page.pagesFrom(await this);
  }

  /**
   * At most `n` items, from the first page on: no page past the first is fetched once `n` items are out, or
   * after a `break`.
   *
   * @throws ValidationError (on the first `next()`) when `n` is not a whole number >= 0.
   */
  async *take(n: number): AsyncGenerator<T, void, undefined> {
    checkInput(looseObject({ n: count(0) }), { n }, 'take() of a list');
    if (n === 0) return;
    let left = n;
    for await (const item of await this) {
      yield item;
      if (--left === 0) return;
    }
  }

  /**
   * The first `limit` items (fewer if the list ends first), in one array. `limit` is required, so that a
   * long list cannot fill memory by accident; no page past the one holding the last item is fetched.
   *
   * @throws ValidationError when `limit` is not a whole number >= 1.
   */
  async toArray(options: { limit: number }): Promise<T[]> {
    checkInput(looseObject({ limit: count(1) }), { limit: (options as { limit?: unknown } | undefined)?.limit }, 'toArray() of a list');
    const items: T[] = [];
    // `break` ends the walk: no page past the one holding the last item is fetched.
    for await (const item of this) if (items.push(item) === options.limit) break;
    return items;
  }
}

const count = (min: number) => checked<number>(`a whole number >= ${min}`, (value) => Number.isInteger(value) && (value as number) >= min);

/** Options of a `list()` call: those of every call, and a bound on how many pages one walk reads. */
export interface ListOptions extends RequestOptions {
  /**
   * The most pages one walk reads, the first included: `for await` ends quietly after them, and the last
   * page's `hasNextPage()` is false. Default: no bound (a walk still ends on a repeated page or page number).
   */
  maxPages?: number | undefined;
}
