/** `wfa orders list|get`. */
import { createGroup, type Command } from './command.js';
import { getCommand, listCommand } from './resource-commands.js';

export const orders: Command = createGroup('orders', 'List and read orders', [
  listCommand('orders', (client, params, signal) => client.orders.list(params, { signal })),
  getCommand(
    'orders',
    'order_id',
    'Print one order as JSON',
    (client, id, signal) => client.orders.get(id, { signal }),
    'Prints the order as JSON on stdout.',
  ),
]);
