/**
 * The shared gate's two steps, each one Lua script run atomically by Redis: `take` reserves the next send
 * slot (GCRA: one hash holds the theoretical arrival time and the time the gate is closed until), `close`
 * closes the gate for everyone. Times are Redis's own clock (`TIME`), so runners' clocks may disagree.
 */
import type { SendCommand } from './command.js';

// Fields: `tat`, when the next slot is free (ms, Redis's clock); `closed`, when a 429 said to come back.
// A slot is at `max(now, closed, tat - burst)`; it is reserved only within `maxWait`, so a call that would
// give up first takes nothing. The key lives as long as its state means something.
const TAKE = `local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local interval, burst, maxWait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tat', 'closed')
local tat = math.max(tonumber(state[1]) or 0, now)
local closed = tonumber(state[2]) or 0
local at = math.max(now, closed, tat - burst)
if at - now > maxWait then return {0, at - now} end
tat = math.max(tat, at) + interval
redis.call('HSET', KEYS[1], 'tat', tat)
redis.call('PEXPIRE', KEYS[1], math.max(tat, closed) - now + 1000)
return {1, at - now}`;

// Closing moves `tat` past the reopening by the whole burst, so the calls let through then are paced one
// `interval` apart from the first, never all at once.
const CLOSE = `local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local closed = now + tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tat', 'closed')
closed = math.max(closed, tonumber(state[2]) or 0)
local tat = math.max(tonumber(state[1]) or 0, closed + tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'tat', tat, 'closed', closed)
redis.call('PEXPIRE', KEYS[1], tat - now + 1000)
return closed - now`;

/** What `take` is told: the pace (one send per `intervalMs`, `burst` at once), and how long the caller can wait. */
export interface Pace {
  intervalMs: number;
  burst: number;
  maxWaitMs: number;
}

/** A reserved slot, `waitMs` from now; or, when `reserved` is false, how far off the first free one is. */
export interface Slot {
  reserved: boolean;
  waitMs: number;
}

/** Reserves the next slot of `key` within `maxWaitMs`. */
export async function take(send: SendCommand, key: string, { intervalMs, burst, maxWaitMs }: Pace): Promise<Slot> {
  const interval = whole(intervalMs);
  // Lua's numbers print with 14 digits: whole milliseconds keep every time exact.
  const args = [String(interval), String(interval * Math.max(0, burst - 1)), String(whole(maxWaitMs))];
  const [reserved, waitMs] = reply(await send(['EVAL', TAKE, '1', key, ...args]));
  return { reserved: reserved === 1, waitMs };
}

/** Closes `key` for `forMs` (or longer, if already closed longer) for every process; resolves with how long it stays closed. */
export async function close(send: SendCommand, key: string, forMs: number, pace: Pick<Pace, 'intervalMs' | 'burst'>): Promise<number> {
  const interval = whole(pace.intervalMs);
  const args = [String(whole(forMs)), String(interval * Math.max(0, pace.burst - 1))];
  return Number(await send(['EVAL', CLOSE, '1', key, ...args]));
}

function whole(ms: number): number {
  return Math.max(0, Math.ceil(ms));
}

/** Both clients answer a Lua table with an array of integers (ioredis as numbers, node-redis too). */
function reply(value: unknown): [number, number] {
  if (!Array.isArray(value) || value.length !== 2) throw new TypeError('unexpected reply from the rate script');
  return [Number(value[0]), Number(value[1])];
}
