/**
 * A dedupe store on Redis, shared by every process of a deployment. It takes the user's own client,
 * node-redis or ioredis, told apart by their methods: neither package is imported.
 *
 * @module
 */

import { ValidationError, WfaError } from '../core/errors.js';
import type { WebhookDedupeStore } from './dedupe.js';

/**
 * A node-redis (v4 and later) or ioredis client, as {@link redisStore} uses it: node-redis's
 * `sendCommand([...])` or ioredis's `call(command, ...args)`. The client must be connected: while it is not (its `status` or `isReady` says so), a delivery gets a 503.
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

/**
 * Options of {@link redisStore}.
 *
 * @example
 * ```ts
 * const options: RedisStoreOptions = { prefix: 'shop-eu:webhooks:' };
 * ```
 */
export interface RedisStoreOptions {
  /** Put before every key, so that the keys are easy to find and several endpoints can share a database. Default `wfa:webhook:`. */
  prefix?: string | undefined;
}

// Compare-and-set and compare-and-delete, each one atomic step on the server: a key that expired and was
// reserved by another delivery in the meantime is never overwritten or deleted.
const REPLACE = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0";
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A {@link WebhookDedupeStore} on Redis, for a receiver that runs in several processes or on several servers.
 * A key is reserved with `SET key value NX PX ttl`, so exactly one delivery of many concurrent duplicates
 * gets it; it is replaced and released by small Lua scripts that act only if the key is still the caller's.
 *
 * @example
 * ```ts
 * import Redis from 'ioredis'; // or: const client = await createClient().connect() from 'redis'
 * const handler = createWebhookHandler({ on, dedupe: { store: redisStore(new Redis(process.env.REDIS_URL!)) } });
 * ```
 */
export function redisStore(client: RedisLikeClient, options: RedisStoreOptions = {}): WebhookDedupeStore {
  const prefix = options.prefix ?? 'wfa:webhook:';
  const send = commandSender(client);
  return {
    async reserve(key, value, ttlMs) {
      // Both clients queue commands while disconnected and send them on reconnect, when a reservation would
      // hold a key that nothing runs: refused at once instead, and the sender gets a 503 to retry.
      if (!connected(client)) throw new WfaError('Redis client is not connected: the delivery was not reserved');
      return (await send(['SET', prefix + key, value, 'NX', 'PX', ms(ttlMs)])) === 'OK';
    },
    async get(key) {
      const value = await send(['GET', prefix + key]);
      return typeof value === 'string' ? value : undefined;
    },
    async replace(key, expected, value, ttlMs) {
      return Number(await send(['EVAL', REPLACE, '1', prefix + key, expected, value, ms(ttlMs)])) === 1;
    },
    async release(key, expected) {
      await send(['EVAL', RELEASE, '1', prefix + key, expected]);
    },
  };
}

/** ioredis's `status` or node-redis's `isReady`, when the client has one; a client with neither is trusted. */
function connected(client: RedisLikeClient): boolean {
  const { status, isReady } = client as { status?: unknown; isReady?: unknown };
  if (typeof status === 'string') return status === 'ready';
  if (typeof isReady === 'boolean') return isReady;
  return true;
}

function commandSender(client: RedisLikeClient): (args: string[]) => Promise<unknown> {
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
  throw new ValidationError('redisStore client', [
    { path: ['client'], message: 'must be a node-redis client (with sendCommand) or an ioredis client (with call)', code: 'invalid_type' },
  ]);
}

function ms(value: number): string {
  // PX takes a whole number of milliseconds, at least 1.
  return String(Math.max(1, Math.ceil(value)));
}
