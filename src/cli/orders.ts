/** `wfa orders list|get`. */
import { createGroup, type Command } from './command.js';
import { resourceCommands } from './resource-commands.js';

export const orders: Command = createGroup('orders', 'List and read orders', resourceCommands('orders'));
