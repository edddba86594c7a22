/**
 * A `RateStore` on Redis: the rate gate's budget shared by every process given the same key, each step one
 * Lua script that Redis runs atomically.
 *
 * @module
 */

import { ValidationError } from '../core/errors.js';
import type { RatePace, RateState, RateStore } from '../core/rate-store.js';
import { commandSender, ensureConnected, type RedisLikeClient } from './command.js';

/**
 * Options of {@link redisRateStore}.
 *
 * @example
 * ```ts
 * const options: RedisRateStoreOptions = { prefix: 'ci-eu:wfa-rate:' };
 * ```
 */
export interface RedisRateStoreOptions {
  /** Put before every key, so that the keys are easy to find and several deployments can share a database. Default `wfa:rate:`. */
  prefix?: string | undefined;
}

// Numbers leave Lua as `%.17g` strings, which read back as the same doubles: its `tostring` keeps 14 digits,
// too few for epoch milliseconds with a fraction. A budget's hash lives 10 minutes past its last slot, close
// or pace, so a quiet spell in a long run does not forget the pace learned.
const KEEP = `local function num(x) return string.format('%.17g', x) end
local function keep(ms) ms = math.ceil(ms) + 600000 if redis.call('PTTL', KEYS[1]) < ms then redis.call('PEXPIRE', KEYS[1], ms) end end
`;

// GCRA, the arithmetic of memoryRateStore: the slot is at the later of now, the close and `tat` less the burst.
const BOOK = `${KEEP}local now, interval, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tat', 'closedUntil')
local tat = tonumber(state[1]) or 0
local start = math.max(now, tonumber(state[2]) or 0)
local at = math.max(start, tat - (burst - 1) * interval)
tat = math.max(tat, start) + interval
redis.call('HSET', KEYS[1], 'tat', num(tat))
keep(tat - now)
return num(at)`;

const CLOSE = `${KEEP}local closing = tonumber(ARGV[1])
local closed = tonumber(redis.call('HGET', KEYS[1], 'closedUntil')) or 0
if closing > closed then redis.call('HSET', KEYS[1], 'closedUntil', num(closing)) end
keep(math.max(closing, closed) - tonumber(ARGV[2]))
return 1`;

// Compare-and-set on the stored `since`, as written: both sides are JavaScript's own number strings.
const SET_PACE = `${KEEP}if (redis.call('HGET', KEYS[1], 'since') or '') ~= ARGV[4] then return 0 end
redis.call('HSET', KEYS[1], 'rate', ARGV[1], 'since', ARGV[2], 'growth', ARGV[3])
keep(0)
return 1`;

/**
 * A {@link RateStore} on Redis, for clients in several processes or on several machines that share one API key:
 * they book their sends from one budget, and a 429 seen by one closes the gate for all. It takes the user's own
 * client, node-redis or ioredis (neither package is imported). While that client is not connected, each call
 * fails at once, and the gate paces on its own with one `warn` line: a call never fails because Redis did.
 *
 * Each budget is one Redis hash, `prefix` + the gate's key: `rateLimit.key`, or by default a hash of the API key
 * (never the key itself). Times are the processes' own `Date.now()`: keep the machines' clocks in sync (NTP).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis'; // or: const redis = await createClient({ url }).connect() from 'redis'
 * import { redisRateStore } from 'workflow-automation-sdk/redis';
 * const client = new Client({ rateLimit: { store: redisRateStore(new Redis(process.env.REDIS_URL!)) } });
 * ```
 */
export function redisRateStore(client: RedisLikeClient, options: RedisRateStoreOptions = {}): RateStore {
  const prefix = options.prefix ?? 'wfa:rate:';
  if (typeof prefix !== 'string') {
    throw new ValidationError('redisRateStore options', [{ path: ['prefix'], message: 'must be a string', code: 'invalid_type' }]);
  }
  const send = commandSender(client, 'redisRateStore');
  const keyOf = (key: string): string => {
    // Refused at once rather than sent late: the gate paces alone meanwhile.
    ensureConnected(client);
    return prefix + key;
  };
  const run = (script: string, key: string, args: string[]) => send(['EVAL', script, '1', keyOf(key), ...args]);
  return {
    async book(key, nowMs, intervalMs, burst) {
      return Number(await run(BOOK, key, [String(nowMs), String(intervalMs), String(burst)]));
    },
    async read(key) {
      return stateOf(await send(['HMGET', keyOf(key), 'closedUntil', 'rate', 'since', 'growth']));
    },
    async close(key, untilMs) {
      await run(CLOSE, key, [String(untilMs), String(Date.now())]);
    },
    async setPace(key, pace, basedOn) {
      const args = [String(pace.rate), String(pace.since), String(pace.growth), basedOn === undefined ? '' : String(basedOn)];
      return Number(await run(SET_PACE, key, args)) === 1;
    },
  };
}

/** HMGET's answer, `[closedUntil, rate, since, growth]` with `null` for a missing field, as a `RateState`. */
function stateOf(fields: unknown): RateState {
  const [closedUntil, rate, since, growth] = Array.isArray(fields)
    ? fields.map((field) => (field == null ? undefined : Number(field)))
    : [];
  const pace: RatePace | undefined = rate === undefined || since === undefined ? undefined : { rate, since, growth: growth ?? 0 };
  return { closedUntil: closedUntil ?? 0, pace };
}
