/**
 * The `confirm` and `dedupe` steps around a delivery's callback: reserve its key, confirm it with the service,
 * run the callback, then mark the key done or release it. Loaded by the handler only when one of them is set.
 *
 * @module
 */

import { WfaError } from '../core/errors.js';
import type { WebhookConfirmClient } from './confirm.js';
import { type DedupeSettings, deliveryKey, ownKey, type WebhookDedupeStore } from './dedupe.js';
import type { Seen } from './observe.js';
import type { WebhookEvent } from './parse.js';

/**
 * What a callback of `on`/`onUnknown` learns about its delivery, as its third argument.
 *
 * @example
 * ```ts
 * onUnknown: (event, request, delivery) => (delivery.confirmed ? handle(event) : false),
 * ```
 */
export interface WebhookDelivery {
  /** True when `confirm` is set and the service confirmed the event; false otherwise. */
  confirmed: boolean;
  /** The delivery's dedupe key, when `dedupe` is set: `id:`, `event:` or `own:` and a SHA-256, in hex. */
  key?: string | undefined;
}

/**
 * What `confirm` does with an event of a kind it cannot check with the service (today: every kind but
 * `build.completed`):
 * - `'reject'` (the default): 401, and its callback does not run;
 * - `'accept'`: its callback runs, with `delivery.confirmed` false;
 * - `'handler-decides'`: its callback runs, with `delivery.confirmed` false, and returning `false` gets a 401.
 *
 * @example
 * ```ts
 * createWebhookHandler({ confirm: client, unconfirmed: 'handler-decides', on, onUnknown: () => false });
 * ```
 */
export type UnconfirmedPolicy = 'reject' | 'accept' | 'handler-decides';

/** What the handler hands over: the delivery, the user's callback, and its own bounded helpers. */
export interface GuardContext {
  event: WebhookEvent;
  /** The body as received, which an event's key is taken from: the parsed event has lost digits past a double's. */
  body: Uint8Array;
  request: Request;
  /** Filled in as the guard learns: the delivery's key, and whether it is a duplicate. */
  seen: Seen;
  /** The user's callback, started now, unbounded: the guard bounds it with `run`. */
  invoke: (delivery: WebhookDelivery) => Promise<unknown>;
  run: <T>(callback: () => T | Promise<T>) => Promise<T | symbol>;
  timedOut: symbol;
  /** What the callback is, for messages: `handler for "build.completed"` or `onUnknown`. */
  label: string;
  /** Reports to `onError`, then responds 503 naming what did not settle. */
  tooLong: (what: string) => Response;
  report: (error: unknown) => Promise<void>;
  reply: (status: number, body: unknown, headers?: Record<string, string>) => Response;
  confirm: WebhookConfirmClient | undefined;
  unconfirmed: UnconfirmedPolicy;
  confirmTimeoutMs: number;
  dedupe: DedupeSettings | undefined;
}

const notConfirmed = { error: 'Webhook delivery could not be confirmed' };

export async function guard(ctx: GuardContext): Promise<Response> {
  const { event, dedupe } = ctx;
  // A store call, bounded like a callback: a store that throws or hangs means a 503, so the sender retries.
  const store = async <T>(what: string, operation: (store: WebhookDedupeStore) => Promise<T>): Promise<T | Response> => {
    let outcome: T | symbol;
    try {
      outcome = await ctx.run(() => operation(dedupe!.store));
    } catch (error) {
      await ctx.report(new WfaError(`Webhook dedupe store failed to ${what}`, { cause: error }));
      return ctx.reply(503, { error: 'Webhook dedupe store unavailable' });
    }
    return outcome === ctx.timedOut ? ctx.tooLong(`dedupe store (${what})`) : (outcome as T);
  };

  let held: { key: string; value: string } | undefined;
  let stopRenewing = () => {};
  if (dedupe) {
    const key = await keyOf(ctx, dedupe);
    if (key instanceof Response) return key;
    ctx.seen.key = key;
    const value = `pending:${crypto.randomUUID()}`;
    const reserving = Promise.resolve().then(() => dedupe.store.reserve(key, value, dedupe.lockMs));
    const reserved = await store('reserve', () => reserving);
    if (reserved instanceof Response) {
      // A reservation that failed or timed out may still land later (a client that queued it while
      // disconnected): undo it then, so that it holds no key that nothing runs. Only ever our own value.
      const undo = () => dedupe.store.release(key, value);
      reserving.then((ok) => (ok ? undo() : undefined), undo).catch(() => {});
      return reserved;
    }
    if (!reserved) {
      const current = await store('read', (s) => s.get(key));
      if (current instanceof Response) return current;
      ctx.seen.outcome = 'duplicate';
      if (current?.startsWith('done:')) return ctx.reply(200, { received: true, duplicate: true });
      // Held by a delivery still running (or just released): not "done", or a failure there would lose it.
      return ctx.reply(
        503,
        { error: 'The same delivery is being handled; try again later' },
        { 'retry-after': String(Math.ceil(dedupe.lockMs / 1000)) },
      );
    }
    held = { key, value };
    stopRenewing = renew(dedupe, held, ctx.report);
  }
  const release = async () => {
    stopRenewing();
    if (held) await store('release', (s) => s.release(held!.key, held!.value));
  };
  const complete = async () => {
    stopRenewing();
    if (!held) return;
    const replaced = await store('mark done', (s) => s.replace(held!.key, held!.value, `done:${held!.value.slice(8)}`, dedupe!.ttlMs));
    if (replaced === false) {
      await ctx.report(new WfaError('Webhook delivery finished after its dedupe reservation expired (lockMs): a duplicate may have run'));
    }
  };
  const refuse = async (status: number, error: unknown, body: unknown) => {
    await release();
    await ctx.report(error);
    return ctx.reply(status, body);
  };

  let confirmed = false;
  let decides = false;
  if (ctx.confirm) {
    if (event.event === 'build.completed') {
      const { confirmBuildCompleted } = await import('./confirm.js');
      const verdict = await confirmBuildCompleted(ctx.confirm, event as Parameters<typeof confirmBuildCompleted>[1], ctx.confirmTimeoutMs);
      if (verdict.agrees === false) return refuse(401, verdict.error, notConfirmed);
      if (verdict.agrees === undefined) {
        const error = new WfaError('Webhook delivery could not be confirmed: the service did not respond', { cause: verdict.error });
        return refuse(503, error, { error: 'Webhook delivery could not be confirmed now; try again later' });
      }
      confirmed = true;
    } else if (ctx.unconfirmed === 'reject') {
      const error = new WfaError(
        `Webhook event of kind ${JSON.stringify(String(event.event).slice(0, 64))} cannot be confirmed with the service; refused (unconfirmed: 'reject')`,
      );
      return refuse(401, error, notConfirmed);
    } else {
      decides = ctx.unconfirmed === 'handler-decides';
    }
  }

  const work = ctx.invoke({ confirmed, key: held?.key });
  let outcome: unknown;
  try {
    outcome = await ctx.run(() => work);
  } catch (error) {
    return refuse(500, error, { error: 'Webhook handler failed' });
  }
  if (outcome === ctx.timedOut) {
    // Still running: its key stays held until it settles, so a retry meanwhile is told to come back later.
    void work.then(
      (value) => (decides && value === false ? release() : complete()),
      () => release(),
    );
    return ctx.tooLong(ctx.label);
  }
  if (decides && outcome === false) {
    return refuse(401, new WfaError("Webhook handler refused an unconfirmed delivery (unconfirmed: 'handler-decides')"), notConfirmed);
  }
  await complete();
  return ctx.reply(200, { received: true });
}

/** The delivery's key: from `dedupe.key` if given (a user's callback, bounded), else an id header or the event. */
async function keyOf(ctx: GuardContext, dedupe: DedupeSettings): Promise<string | Response> {
  const own = dedupe.key;
  let key: unknown;
  try {
    if (!own) return await deliveryKey(ctx.request.headers, ctx.body, dedupe.idHeaders);
    key = await ctx.run(() => own(ctx.event, ctx.request));
  } catch (error) {
    await ctx.report(
      new WfaError(own ? 'Webhook dedupe key function (dedupe.key) threw' : 'Webhook dedupe key could not be computed', { cause: error }),
    );
    return ctx.reply(500, { error: 'Webhook handler failed' });
  }
  if (key === ctx.timedOut) return ctx.tooLong('dedupe key (dedupe.key)');
  if (typeof key !== 'string' || key === '') {
    await ctx.report(new WfaError('Webhook dedupe key function (dedupe.key) returned no key: it must return a non-empty string'));
    return ctx.reply(500, { error: 'Webhook handler failed' });
  }
  return ownKey(key);
}

/**
 * Renews a reservation every third of `lockMs` while its delivery is handled, so that a callback longer than
 * `lockMs` keeps its key and a retry meanwhile does not run it again. Returns the function that stops it.
 */
function renew(dedupe: DedupeSettings, held: { key: string; value: string }, report: (error: unknown) => Promise<void>): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(tick, Math.max(1, dedupe.lockMs / 3));
    // Never what keeps a process alive: the callback's own work does that.
    (timer as { unref?: () => void }).unref?.();
  };
  const tick = async () => {
    let renewed: boolean | undefined;
    try {
      renewed = await dedupe.store.replace(held.key, held.value, held.value, dedupe.lockMs);
    } catch {
      // The store is down for now: try again at the next tick, while the key has time left.
    }
    if (stopped) return;
    if (renewed === false) {
      await report(new WfaError('Webhook dedupe reservation was lost while its handler ran (it expired, lockMs): a duplicate may run'));
      return;
    }
    schedule();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
