/**
 * Orders: read only. The spec shows their identifier and a status filter, nothing more, so every other field
 * is kept as received.
 */
import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import { listEndpoint } from './list.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import { idSegment, looseObject, nonEmptyString, optional, parsesTo, string, stringOrNumber } from '../core/schema.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, call, coreOf } from './resource.js';

/**
 * An order as returned by the service. Fields beyond `id` and `status` are not specified; they are kept.
 *
 * @example
 * ```ts
 * const order: Order = await client.orders.get('ord_1');
 * order['amount']; // unknown: read it with a check of your own
 * ```
 */
export interface Order {
  /** Its id, a string or a number as the service sends it. */
  id: string | number;
  /** As received: the service does not list its values. */
  status?: string | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

export const OrderSchema = /* @__PURE__ */ parsesTo<Order>()(
  looseObject({
    id: stringOrNumber(),
    status: optional(string()),
  }),
);

const listOrders = listEndpoint('orders', OrderSchema, { status: optional(nonEmptyString()) });

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
  list(params: OrderListParams = {}, options?: ListOptions): PagePromise<Order> {
    return listOrders(coreOf(this), params, options);
  }

  /**
   * One order by id.
   *
   * @example
   * ```ts
   * const order = await client.orders.get('ord_1');
   * ```
   */
  get(id: string | number, options?: RequestOptions): ApiPromise<Order> {
    return call(coreOf(this), () => {
      const path = `/orders/${idSegment(id, 'order id')}`;
      return { ...options, method: 'GET', path, route: '/orders/{id}', response: { name: 'order', schema: OrderSchema } };
    });
  }
}
