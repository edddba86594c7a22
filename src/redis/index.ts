/**
 * `workflow-automation-sdk/redis`: what several processes share through the user's Redis. Its own entry, so that
 * an app that does not use Redis carries none of this.
 *
 * @example
 * ```ts
 * import { redisRateStore } from 'workflow-automation-sdk/redis';
 * const client = new Client({ rateLimit: { store: redisRateStore(redis) } }); // redis: a connected ioredis or node-redis client
 * ```
 *
 * @module
 */

export type { RedisLikeClient } from './command.js';
export { redisRateStore, type RedisRateStoreOptions } from './rate-store.js';
