/**
 * Orders: read only. The spec shows their identifier and a status filter, nothing more, so every other field
 * is kept as received.
 */
import type { RequestOptions } from '../core/options.js';
import { listPages, type PagePromise, type PageParams } from '../core/pagination.js';
import * as z from 'zod/mini';
import { checkInput, idSegment, looseObject, nonEmptyString, openString, positiveInt, stringOrNumber } from '../core/schema.js';
import { Resource } from './resource.js';

/** The schema of an order; only `id` is required, every field is kept. */
export const OrderSchema = looseObject({
  id: stringOrNumber(),
  status: z.optional(openString<never>()),
});

/**
 * An order as returned by the service. Fields beyond `id` and `status` are not specified; they are kept.
 *
 * @example
 * ```ts
 * const order: Order = await client.orders.get('ord_1');
 * order['amount']; // unknown: read it with a check of your own
 * ```
 */
export type Order = z.infer<typeof OrderSchema>;

const ListSchema = z.strictObject({
  page: z.optional(positiveInt()),
  limit: z.optional(positiveInt()),
  status: z.optional(nonEmptyString()),
});

/**
 * Filters and paging of `orders.list`.
 *
 * @example
 * ```ts
 * client.orders.list({ status: 'paid', page: 2 });
 * ```
 */
export interface OrderListParams extends PageParams {
  /** Only orders with this status (values are not specified by the service). */
  status?: string | undefined;
}

/**
 * `client.orders`: list and read orders.
 *
 * @example
 * ```ts
 * const first = await client.orders.list({ limit: 10 });
 * const order = await client.orders.get(first.items[0]!.id);
 * ```
 */
export class Orders extends Resource {
  /**
   * Orders, one page awaited or every order with `for await`.
   *
   * @example
   * ```ts
   * for await (const order of client.orders.list({ status: 'open' })) console.log(order.id);
   * ```
   */
  list(params: OrderListParams = {}, options?: RequestOptions): PagePromise<Order> {
    return listPages(this.core, { path: '/orders', plural: 'orders', item: OrderSchema, query: { ...params } }, options, () => {
      checkInput(ListSchema, params, 'parameters of orders.list');
    });
  }

  /**
   * One order by id.
   *
   * @example
   * ```ts
   * const order = await client.orders.get('ord_1');
   * ```
   */
  async get(id: string | number, options?: RequestOptions): Promise<Order> {
    const path = `/orders/${idSegment(id, 'order id')}`;
    return this.core.request({ ...options, method: 'GET', path, schema: OrderSchema, what: 'order' });
  }
}
