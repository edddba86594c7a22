/**
 * Handling each delivery once: the store contract, the in-memory store, and a delivery's key (a delivery-id
 * header, or the SHA-256 of the event as canonical JSON).
 *
 * @module
 */

import { ValidationError } from '../core/errors.js';
import { sha256Hex } from '../core/sha256.js';
import { canonicalEvent } from './canonical-event.js';
import type { WebhookEvent } from './parse.js';

/**
 * Where `dedupe` keeps the keys of the deliveries it has seen. Each method must be atomic against every other
 * process sharing the store: {@link memoryStore} is for one process, {@link redisStore} for many. Values are
 * short strings the handler chooses; a store never needs to read them.
 *
 * @example
 * ```ts
 * const store: WebhookDedupeStore = memoryStore();
 * await store.reserve('id:abc', 'pending:1', 60_000); // true: the key was free
 * await store.reserve('id:abc', 'pending:2', 60_000); // false: someone holds it
 * ```
 */
export interface WebhookDedupeStore {
  /** Sets `key` to `value` for `ttlMs` only if `key` is absent (Redis `SET key value NX PX ttlMs`); true when set. */
  reserve(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value of `key`, or `undefined` when it is absent or expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Sets `key` to `value` for `ttlMs` only if it still holds `expected`; true when replaced. The handler calls
   * it with `value` equal to `expected` to renew a reservation while its callback runs.
   */
  replace(key: string, expected: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` only if it still holds `expected`, so that a key that expired and was taken by another is kept. */
  release(key: string, expected: string): Promise<void>;
}

/**
 * The `dedupe` option of `createWebhookHandler`.
 *
 * @example
 * ```ts
 * createWebhookHandler({ on, dedupe: { store: memoryStore(), ttlMs: 24 * 60 * 60 * 1000 } });
 * ```
 */
export interface WebhookDedupeOptions {
  /** Where the keys live: {@link memoryStore} for one process, {@link redisStore} across processes, or your own. */
  store: WebhookDedupeStore;
  /** How long a handled delivery is remembered, in milliseconds: a duplicate within it gets a 200 and does not run. Default 24 h. */
  ttlMs?: number | undefined;
  /**
   * How long a reservation lasts unless renewed, in milliseconds. While its callback runs, the handler renews
   * it every third of `lockMs`, however long the callback takes; so only a process that dies (or stalls for
   * two thirds of `lockMs`) lets the key go, and then its delivery may run again after `lockMs`. At least 100.
   * Default `handlerTimeoutMs` + `confirmTimeoutMs`.
   */
  lockMs?: number | undefined;
  /**
   * Request headers that carry a delivery id, first present wins. Default `webhook-id` (Standard Webhooks),
   * `x-webhook-id`, `x-delivery-id`. Without one, the key is the SHA-256 of the event as canonical JSON (keys
   * sorted, no spaces, numbers by their exact value as sent, past 2^53 too), so the same event serialised another way is the same delivery. Ignored with the
   * presets, which key only on what they sign: `hmacSha256` on the event, `standardWebhooks` on `webhook-id`;
   * a replay with a fresh unsigned id must not run again.
   */
  idHeaders?: readonly string[] | undefined;
  /**
   * Your own key for a delivery, instead of the id header or the event: deliveries with the same key run once.
   * Its result is hashed, so any string will do. It may be async, and is bounded by `handlerTimeoutMs` (503
   * past it); a throw, or anything but a non-empty string, answers 500 and goes to `onError`.
   *
   * @example
   * ```ts
   * // One run per build, whichever sender or retry delivers it.
   * dedupe: { store, key: (event) => `${event.event}:${event.workflow_id}:${String(event.data['download_url'])}` },
   * ```
   */
  key?: ((event: WebhookEvent, request: Request) => string | Promise<string>) | undefined;
}

/** The dedupe settings the guard uses: every default filled in, and the headers a key may come from. */
export interface DedupeSettings {
  store: WebhookDedupeStore;
  ttlMs: number;
  lockMs: number;
  idHeaders: readonly string[];
  key: WebhookDedupeOptions['key'];
}

/**
 * A {@link WebhookDedupeStore} in this process's memory: for one process (a second process, or a restart, does
 * not see its keys). Keys expire after their TTL; beyond `maxKeys`, the oldest finished key is forgotten first.
 * A reservation still held (set by `reserve`, or renewed by `replace` with its own value) is never forgotten
 * to make room, so a duplicate of a delivery in flight never runs; while more than `maxKeys` deliveries are
 * in flight, the store holds more keys than that.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({ on, dedupe: { store: memoryStore({ maxKeys: 50_000 }) } });
 * ```
 */
export function memoryStore(options: { maxKeys?: number | undefined } = {}): WebhookDedupeStore {
  const maxKeys = options.maxKeys ?? 10_000;
  if (!(Number.isInteger(maxKeys) && maxKeys > 0)) {
    throw new ValidationError('memoryStore options', [{ path: ['maxKeys'], message: 'must be a whole number > 0', code: 'invalid_value' }]);
  }
  // Insertion order is age order: `put` deletes before it sets, so the first key is always the oldest.
  const keys = new Map<string, { value: string; expiresAt: number; held: boolean }>();
  const read = (key: string) => {
    const entry = keys.get(key);
    if (entry && entry.expiresAt <= Date.now()) keys.delete(key);
    return keys.get(key)?.value;
  };
  const put = (key: string, value: string, ttlMs: number, held: boolean) => {
    keys.delete(key);
    if (keys.size >= maxKeys) {
      const now = Date.now();
      for (const [old, entry] of keys) if (entry.expiresAt <= now) keys.delete(old);
      for (const [old, entry] of keys) {
        if (keys.size < maxKeys) break;
        if (!entry.held) keys.delete(old);
      }
    }
    keys.set(key, { value, expiresAt: Date.now() + ttlMs, held });
  };
  return {
    async reserve(key, value, ttlMs) {
      if (read(key) !== undefined) return false;
      put(key, value, ttlMs, true);
      return true;
    },
    async get(key) {
      return read(key);
    },
    async replace(key, expected, value, ttlMs) {
      if (read(key) !== expected) return false;
      // The same value again is a renewal: the reservation stays held.
      put(key, value, ttlMs, value === expected && keys.get(key)?.held === true);
      return true;
    },
    async release(key, expected) {
      if (read(key) === expected) keys.delete(key);
    },
  };
}

/** Standard Webhooks' header first; the spec documents none, so these are the common names. */
export const defaultIdHeaders = ['webhook-id', 'x-webhook-id', 'x-delivery-id'] as const;

/**
 * `id:` + the SHA-256 of the first delivery-id header present, or `event:` + the SHA-256 of the event's body as
 * canonical JSON: a sender that re-serialises (other spacing, other key order) sends the same delivery. An event
 * nested too deep to write back is keyed on its text as sent.
 */
export async function deliveryKey(headers: Headers, body: Uint8Array, idHeaders: readonly string[]): Promise<string> {
  for (const name of idHeaders) {
    const id = headers.get(name);
    // Hashed too: a header value of any length or bytes becomes a short key every store can hold.
    if (id) return `id:${await sha256(id)}`;
  }
  let event = new TextDecoder().decode(body);
  try {
    event = canonicalEvent(event);
  } catch {
    // Nested past the stack: keyed on its text as sent, so its retries (the same bytes) are still one delivery.
  }
  return `event:${await sha256(event)}`;
}

/** A key of your own (`dedupe.key`), hashed like the others. */
export async function ownKey(key: string): Promise<string> {
  return `own:${await sha256(key)}`;
}

function sha256(text: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(text));
}
