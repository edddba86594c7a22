/**
 * Handling each delivery once: the store contract, the in-memory store, and a delivery's key (a delivery-id
 * header, or the SHA-256 of the exact body bytes).
 *
 * @module
 */

import { ValidationError } from '../core/errors.js';

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
  /** Sets `key` to `value` for `ttlMs` only if it still holds `expected`; true when replaced. */
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
  /** How long a handled delivery is remembered, in milliseconds: a duplicate within it is answered 200 and not run. Default 24 h. */
  ttlMs?: number;
  /**
   * How long a delivery being handled holds its key, in milliseconds, so that a process that dies mid-handler
   * does not block its delivery for `ttlMs`. Default `handlerTimeoutMs` + `confirmTimeoutMs`: the longest a
   * delivery is allowed to take.
   */
  lockMs?: number;
  /**
   * Request headers that carry a delivery id, first present wins. Default `webhook-id` (Standard Webhooks),
   * `x-webhook-id`, `x-delivery-id`. Without one, the key is the SHA-256 of the exact body bytes.
   */
  idHeaders?: readonly string[];
}

/**
 * A {@link WebhookDedupeStore} in this process's memory: for one process (a second process, or a restart, does
 * not see its keys). Keys expire after their TTL; beyond `maxKeys`, the oldest is forgotten first.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({ on, dedupe: { store: memoryStore({ maxKeys: 50_000 }) } });
 * ```
 */
export function memoryStore(options: { maxKeys?: number } = {}): WebhookDedupeStore {
  const maxKeys = options.maxKeys ?? 10_000;
  if (!(Number.isInteger(maxKeys) && maxKeys > 0)) {
    throw new ValidationError('memoryStore options', [{ path: ['maxKeys'], message: 'must be a whole number > 0', code: 'invalid_value' }]);
  }
  // Insertion order is age order: `put` deletes before it sets, so the first key is always the oldest.
  const keys = new Map<string, { value: string; expiresAt: number }>();
  const read = (key: string) => {
    const entry = keys.get(key);
    if (entry && entry.expiresAt <= Date.now()) keys.delete(key);
    return keys.get(key)?.value;
  };
  const put = (key: string, value: string, ttlMs: number) => {
    keys.delete(key);
    if (keys.size >= maxKeys) {
      const now = Date.now();
      for (const [old, entry] of keys) if (entry.expiresAt <= now) keys.delete(old);
      for (const old of keys.keys()) {
        if (keys.size < maxKeys) break;
        keys.delete(old);
      }
    }
    keys.set(key, { value, expiresAt: Date.now() + ttlMs });
  };
  return {
    async reserve(key, value, ttlMs) {
      if (read(key) !== undefined) return false;
      put(key, value, ttlMs);
      return true;
    },
    async get(key) {
      return read(key);
    },
    async replace(key, expected, value, ttlMs) {
      if (read(key) !== expected) return false;
      put(key, value, ttlMs);
      return true;
    },
    async release(key, expected) {
      if (read(key) === expected) keys.delete(key);
    },
  };
}

/** Standard Webhooks' header first; the spec documents none, so these are the common names. */
export const defaultIdHeaders = ['webhook-id', 'x-webhook-id', 'x-delivery-id'] as const;

/** `id:` + the SHA-256 of the first delivery-id header present, or `body:` + the SHA-256 of the exact body bytes. */
export async function deliveryKey(headers: Headers, body: Uint8Array, idHeaders: readonly string[]): Promise<string> {
  for (const name of idHeaders) {
    const id = headers.get(name);
    // Hashed too: a header value of any length or bytes becomes a short key every store can hold.
    if (id) return `id:${await sha256(new TextEncoder().encode(id))}`;
  }
  return `body:${await sha256(body)}`;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  // A copy: TypeScript 5.7+ accepts only ArrayBuffer-backed bytes in Web Crypto.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
