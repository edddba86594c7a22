import type { RequestOptions } from '../../src/core/options.js';
import type { ApiPromise } from '../../src/resources/api-promise.js';
import type { ENDPOINTS } from '../../src/resources/endpoints.js';
import { orderSchema, type Order } from '../../src/resources/order.js';
import { Resource, coreOf, send, type Core } from '../../src/resources/resource.js';
import { HttpError, json } from '../../src/testing/responses.js';
import type { Endpoint } from '../../src/testing/endpoints.js';

// 1. src/resources/endpoints.ts: the endpoint's line in ENDPOINTS.
export const line = {
  'orders.get': { method: 'GET', path: '/orders/{id}', noun: 'order', response: { name: 'order', model: 'Order' } },
} satisfies Partial<typeof ENDPOINTS>;

// 2. src/resources/orders.ts: the function (the `/funcs` entry), naming its models, and the method, which is it.
/** `client.orders.get` as a function of a core. */
export function ordersGet(core: Core, id: string | number, options?: RequestOptions): ApiPromise<Order> {
  return send(coreOf(core), 'orders.get', { response: orderSchema }, { id, options });
}

export class Orders extends Resource {
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

// 3. src/testing/endpoints.ts: the mock's handler, and its line in HANDLERS ('orders.get': getOrder).
export const getOrder: Endpoint = ({ id, owner, state }) => {
  const entry = state.store.orders.find((candidate) => candidate.order.id === id && candidate.owner === owner);
  if (!entry) throw new HttpError(404, `No order with id ${id}`, 'not_found');
  return json(200, { ...entry.order });
};
