import { looseObject, optional, parsesTo, string, stringOrNumber, type Schema } from '../core/schema.js';

/** An order as returned by the service. Fields beyond `id` and `status` are not specified; they are kept. */
export interface Order {
  /** Its id, a string or a number as the service sends it. */
  id: string | number;
  /** As received: the service does not list its values. */
  status?: string | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

let order: Schema<Order> | undefined;
export const orderSchema = () => (order ??= parsesTo<Order>()(looseObject({ id: stringOrNumber(), status: optional(string()) })));
