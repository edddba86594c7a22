import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import type { ApiPromise } from './api-promise.js';
import { orderSchema, type Order } from './order.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import { list } from './list.js';
import { Resource, coreOf, send, type Core } from './resource.js';

/** Filters and paging of `orders.list`. */
export interface OrderListParams extends PageParams {
  /** Only orders with this status (values are not specified by the service). */
  status?: string | undefined;
}

/** `client.orders`: list and read orders. */
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
    return ordersList(this.core, params, options);
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
    return ordersGet(this.core, id, options);
  }
}

/** `client.orders.list` as a function of a core (the `/funcs` entry). */
export function ordersList(core: Core, params: OrderListParams = {}, options?: ListOptions): PagePromise<Order> {
  return list(coreOf(core), 'orders.list', orderSchema, params, options);
}

/** `client.orders.get` as a function of a core. */
export function ordersGet(core: Core, id: string | number, options?: RequestOptions): ApiPromise<Order> {
  return send(coreOf(core), 'orders.get', { response: orderSchema }, { id, options });
}
