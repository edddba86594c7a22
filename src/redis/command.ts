/**
 * How a command reaches the user's Redis client, node-redis or ioredis, told apart by their methods: neither
 * package is imported. Every store on Redis (the webhook dedupe, the rate store) sends through this.
 *
 * @module
 */

import { ValidationError, WfaError } from '../core/errors.js';

/**
 * A node-redis (v4 and later) or ioredis client, as the stores on Redis use it: node-redis's
 * `sendCommand([...])` or ioredis's `call(command, ...args)`. While it is not connected (its `status` or
 * `isReady` says so), a store sends nothing through it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client: RedisLikeClient = await createClient({ url: process.env.REDIS_URL }).connect();
 * ```
 */
export type RedisLikeClient =
  | {
      /** ioredis: sends one command. */
      call(command: string, ...args: string[]): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command. */
      sendCommand(args: string[]): Promise<unknown>;
    };

/** Sends one command (`['SET', key, value]`) through the user's client. */
export type SendCommand = (args: string[]) => Promise<unknown>;

/** The sender for `client`; a client of neither shape is a `ValidationError` naming `what` (the function given it). */
export function commandSender(client: RedisLikeClient, what: string): SendCommand {
  const candidate = client as { call?: unknown; sendCommand?: unknown } | null | undefined;
  // ioredis first: it has a `sendCommand` too, but one that takes its own Command objects.
  if (typeof candidate?.call === 'function') {
    const ioredis = client as { call(command: string, ...args: string[]): Promise<unknown> };
    return ([command = '', ...args]) => ioredis.call(command, ...args);
  }
  if (typeof candidate?.sendCommand === 'function') {
    const nodeRedis = client as { sendCommand(args: string[]): Promise<unknown> };
    return (args) => nodeRedis.sendCommand(args);
  }
  throw new ValidationError(`${what} client`, [
    { path: ['client'], message: 'must be a node-redis client (with sendCommand) or an ioredis client (with call)', code: 'invalid_type' },
  ]);
}

/**
 * Throws unless the client is connected, by ioredis's `status` or node-redis's `isReady` (a client with neither
 * is trusted). Both clients queue commands while disconnected and send them on reconnect, late: a store asks first.
 */
export function ensureConnected(client: RedisLikeClient): void {
  const { status, isReady } = client as { status?: unknown; isReady?: unknown };
  const ready = typeof status === 'string' ? status === 'ready' : typeof isReady === 'boolean' ? isReady : true;
  if (!ready) throw new WfaError('Redis client is not connected');
}

/** A whole number of milliseconds, at least 1: what `PX` and `PEXPIRE` take. */
export function wholeMs(value: number): string {
  return String(Math.max(1, Math.ceil(value)));
}
