/** The client's method for an endpoint of the table, by its name (`orders.get` is `client.orders.get`). */
import type { Client } from '../index.js';

/** A client method, called with whatever its endpoint takes. */
export type Method = (...args: unknown[]) => Promise<unknown>;

export function methodOf(client: Client, name: string): Method {
  const [resource = '', verb = ''] = name.split('.');
  const namespace = (client as unknown as Record<string, Record<string, Method>>)[resource]!;
  return namespace[verb]!.bind(namespace);
}
