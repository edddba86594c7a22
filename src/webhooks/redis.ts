/**
 * A dedupe store on Redis, shared by every process of a deployment. It takes the user's own client,
 * node-redis or ioredis, told apart by their methods: neither package is imported.
 *
 * @module
 */

import { commandSender, ensureConnected, type RedisLikeClient, wholeMs } from '../redis/command.js';
import type { WebhookDedupeStore } from './dedupe.js';

export type { RedisLikeClient } from '../redis/command.js';

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
  const send = commandSender(client, 'redisStore');
  return {
    async reserve(key, value, ttlMs) {
      // A command queued while disconnected would reserve, late, a key that nothing runs: refused at once
      // instead, and the sender gets a 503 to retry.
      ensureConnected(client);
      return (await send(['SET', prefix + key, value, 'NX', 'PX', wholeMs(ttlMs)])) === 'OK';
    },
    async get(key) {
      const value = await send(['GET', prefix + key]);
      return typeof value === 'string' ? value : undefined;
    },
    async replace(key, expected, value, ttlMs) {
      return Number(await send(['EVAL', REPLACE, '1', prefix + key, expected, value, wholeMs(ttlMs)])) === 1;
    },
    async release(key, expected) {
      await send(['EVAL', RELEASE, '1', prefix + key, expected]);
    },
  };
}
