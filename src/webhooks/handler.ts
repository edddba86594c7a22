/**
 * A Fetch-style endpoint (`(request) => Promise<Response>`) that receives the service's webhook deliveries,
 * with bounds on body size, body time and callback time, so that a delivery can never hang or flood it.
 *
 * @module
 */

import { ValidationError, WebhookParseError, WfaError } from '../core/errors.js';
import type { WebhookConfirmClient } from './confirm.js';
import type { WebhookDedupeOptions } from './dedupe.js';
import type { UnconfirmedPolicy, WebhookDelivery } from './guard.js';
import {
  isKnownWebhookEvent,
  parseWebhookEvent,
  type KnownWebhookEvent,
  type KnownWebhookEventKind,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from './parse.js';

/**
 * One function per known event kind; each receives the event narrowed to its kind, and the request (for
 * headers such as a delivery id). A kind without a function is acknowledged and otherwise ignored. A function
 * may return anything: a returned promise is awaited (within `handlerTimeoutMs`) and its value ignored.
 *
 * @example
 * ```ts
 * const on: WebhookEventHandlers = {
 *   'build.completed': async (event) => { await saveDownload(event.workflow_id, event.data.download_url); },
 * };
 * ```
 */
export type WebhookEventHandlers = {
  [Kind in KnownWebhookEventKind]?: (
    event: Extract<KnownWebhookEvent, { event: Kind }>,
    request: Request,
    delivery: WebhookDelivery,
  ) => unknown;
};

/**
 * Options of {@link createWebhookHandler}.
 *
 * ## Verifying deliveries
 *
 * The service's documentation shows no signing scheme, so the SDK checks no signature on its own. A
 * deployment whose deliveries are signed (by the service, or by a gateway in front of your server) puts its
 * check in `verify`, which gets the exact bytes received, before any parsing, and the request headers.
 * Return `false` to answer 401 quietly; a `verify` that throws also answers 401, and its error is reported
 * to `onError`, because a throw usually means a missing secret rather than a forged delivery. The presets
 * `hmacSha256()` and `standardWebhooks()` are ready-made, constant-time checks on Web Crypto.
 *
 * @example
 * ```ts
 * // An HMAC-SHA256 hex signature in a header: the header name and format are your deployment's, not the spec's.
 * verify(rawBody, headers) {
 *   const received = Buffer.from(headers.get('x-signature') ?? '', 'hex');
 *   const expected = createHmac('sha256', process.env.WEBHOOK_SECRET!).update(rawBody).digest();
 *   return received.length === expected.length && timingSafeEqual(received, expected);
 * },
 * ```
 * On edge runtimes, `crypto.subtle.verify('HMAC', key, signature, new Uint8Array(rawBody))` does the same
 * (the copy, because TypeScript 5.7 and later accept only `ArrayBuffer`-backed bytes there).
 */
export interface WebhookHandlerOptions {
  /** The functions to call, by event kind. */
  on: WebhookEventHandlers;
  /**
   * Called with events of kinds this SDK version does not know. Without it they are acknowledged (2xx) and
   * dropped, so that the service adding a kind never turns your endpoint into a source of errors. Its result
   * is awaited like a handler's.
   */
  onUnknown?: (event: UnknownWebhookEvent, request: Request, delivery: WebhookDelivery) => unknown;
  /**
   * Checks a delivery before it is parsed; see "Verifying deliveries" above. May be async.
   * `rawBody` is exactly the bytes received; `headers` are the request's.
   */
  verify?: (rawBody: Uint8Array, headers: Headers) => boolean | Promise<boolean>;
  /**
   * The largest body accepted, in bytes; a bigger one is answered 413 without being read to the end.
   * Default 1 MiB (1 048 576).
   */
  maxBodyBytes?: number;
  /**
   * How long the body may take to arrive, in milliseconds; a delivery still sending then is answered 408 and
   * its stream cancelled, so a sender that dribbles bytes cannot hold a connection. Default 10 000.
   */
  bodyTimeoutMs?: number;
  /**
   * How long `verify`, a function of `on`/`onUnknown`, and `onError` may each take, in milliseconds. A
   * `verify` or handler still running then is answered 503 (the sender may try again) and `onError` gets a
   * `WfaError` naming the bound; an `onError` still running is left behind. Default 30 000.
   */
  handlerTimeoutMs?: number;
  /**
   * Receives what `on`/`onUnknown` throw (with the event, and the response is 500) and what `verify` throws
   * (with `undefined`, and the response is 401), and the `WfaError` of a callback past `handlerTimeoutMs`.
   * Without it, the error is logged with `console.error`. It may throw, reject or hang: the answer still goes.
   */
  onError?: (error: unknown, event: WebhookEvent | undefined) => unknown;
  /**
   * A client (any object with `workflows.get` and `builds.get`, such as a `Client`) to confirm each delivery
   * with the service before its callback runs; see "Confirming deliveries" in `docs/webhooks.md`. A
   * `build.completed` whose build is not `completed` with that `download_url` is answered 401 (and reported to
   * `onError`); a service that cannot answer, 503.
   */
  confirm?: WebhookConfirmClient;
  /** With `confirm`: what to do with kinds the SDK cannot confirm. Default `'reject'` (401, the callback does not run). */
  unconfirmed?: UnconfirmedPolicy;
  /** With `confirm`: how long confirming may take, in milliseconds, before the answer is 503. Default 10 000. */
  confirmTimeoutMs?: number;
  /** Runs each delivery's callback once, across retries and processes; see "Handling each delivery once" in `docs/webhooks.md`. */
  dedupe?: WebhookDedupeOptions;
}

/**
 * A Fetch-style request handler, as Next.js route handlers, Hono, Bun, Deno and Workers expect.
 *
 * @example
 * ```ts
 * const handler: WebhookHandler = createWebhookHandler({ on: {} });
 * const response = await handler(new Request('https://example.com/hooks', { method: 'POST', body: '{}' }));
 * ```
 */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** 1 MiB: far above any envelope the service documents, small enough that a flood cannot exhaust memory. */
const defaultMaxBodyBytes = 1024 * 1024;

/**
 * Creates the endpoint that receives webhook deliveries. It answers:
 *
 * - **200** `{"received":true}` when the event was handled, or is of a kind without a function (known or
 *   unknown) and so acknowledged. 200 with a body rather than 204, so that a proxy or a log shows what happened.
 * - **400** `{"error":"<what is wrong>"}` when the body is not a valid event (the message of
 *   {@link WebhookParseError}).
 * - **401** `{"error":"Webhook verification failed"}` when `verify` returns `false` or throws.
 * - **405** with `Allow: POST` for any other method.
 * - **408** when the body has not arrived within `bodyTimeoutMs`.
 * - **413** when the body is larger than `maxBodyBytes`: by `Content-Length` before reading, or while
 *   reading, at which point the stream is cancelled; the body is never buffered whole first.
 * - **500** `{"error":"Webhook handler failed"}` when a function of `on` or `onUnknown` throws; the error
 *   goes to `onError` (or `console.error`), never into the response.
 * - **500** when something read the body before the handler (Hono's `c.req.json()`, Fastify's JSON parser in
 *   front of `toNodeHandler`): `onError` gets a `WfaError` saying so and how to mount the handler.
 * - **503** when `verify` or a function of `on`/`onUnknown` has not settled within `handlerTimeoutMs`.
 *
 * @example
 * ```ts
 * // app/api/webhooks/route.ts (Next.js)
 * export const POST = createWebhookHandler({
 *   on: { 'build.completed': (event) => saveDownload(event.workflow_id, event.data.download_url) },
 *   onError: (error, event) => reportError(error, { kind: event?.event }),
 * });
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { on, onUnknown, verify, onError = logError, confirm, unconfirmed = 'reject' } = options;
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  if (!(maxBodyBytes >= 0)) throw new RangeError(`maxBodyBytes must be a non-negative number, got ${maxBodyBytes}`);
  const bodyTimeoutMs = checkMs(options.bodyTimeoutMs ?? 10_000, 'bodyTimeoutMs');
  const handlerTimeoutMs = checkMs(options.handlerTimeoutMs ?? 30_000, 'handlerTimeoutMs');
  const confirmTimeoutMs = checkMs(options.confirmTimeoutMs ?? 10_000, 'confirmTimeoutMs');
  const dedupe = options.dedupe && checkDedupe(options.dedupe, handlerTimeoutMs + confirmTimeoutMs);
  if (confirm !== undefined && typeof confirm?.builds?.get !== 'function')
    invalid('confirm', 'must be a client with workflows.get and builds.get');
  if (!['reject', 'accept', 'handler-decides'].includes(unconfirmed))
    invalid('unconfirmed', "must be 'reject', 'accept' or 'handler-decides'");
  // A user's callback, bounded: it may hang, and a sync throw counts as a rejection.
  const run: Run = (callback) => within(handlerTimeoutMs, Promise.resolve().then(callback));
  const tooLong = (what: string, event: WebhookEvent | undefined) => {
    void report(run, onError, new WfaError(`Webhook ${what} did not settle within ${handlerTimeoutMs} ms (handlerTimeoutMs)`), event);
    return reply(503, { error: `Webhook ${what} did not finish in time` });
  };

  return async (request) => {
    if (request.method !== 'POST') {
      await request.body?.cancel().catch(() => {});
      return methodNotAllowed(request.method);
    }

    const consumed = bodyConsumedError(request);
    if (consumed) {
      await report(run, options.onError ?? logMisconfiguration, consumed, undefined);
      return reply(500, { error: 'Webhook body was already read by the receiving server' });
    }

    const body = await readBody(request, maxBodyBytes, bodyTimeoutMs);
    if (body === tooLarge) return reply(413, { error: `Webhook body is larger than ${maxBodyBytes} bytes` });
    if (body === tooSlow) return reply(408, { error: `Webhook body did not arrive within ${bodyTimeoutMs} ms` });
    if (body === unreadable) return reply(400, { error: 'Webhook body could not be read' });

    if (verify) {
      let verified: boolean | typeof timedOut = false;
      try {
        verified = await run(() => verify(body, request.headers));
      } catch (error) {
        await report(run, onError, error, undefined);
      }
      if (verified === timedOut) return tooLong('verify', undefined);
      if (verified !== true) return reply(401, { error: 'Webhook verification failed' });
    }

    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(body);
    } catch (error) {
      if (error instanceof WebhookParseError) return reply(400, { error: error.message });
      throw error;
    }

    const known = isKnownWebhookEvent(event);
    // `Object.hasOwn`: an event kind must never reach an inherited property of `on`. The cast is sound
    // because `on[kind]` takes events of that kind, but TypeScript cannot correlate the two unions.
    const kind = event.event as KnownWebhookEventKind;
    const callback = (known ? (Object.hasOwn(on, kind) ? on[kind] : undefined) : onUnknown) as
      | ((event: WebhookEvent, request: Request, delivery: WebhookDelivery) => unknown)
      | undefined;
    // Nothing runs for it: acknowledged, with nothing to confirm or to run once.
    if (!callback) return reply(200, { received: true });
    const label = known ? `handler for "${event.event}"` : 'onUnknown';
    const invoke = (delivery: WebhookDelivery) => Promise.resolve().then(() => callback(event, request, delivery));

    if (confirm || dedupe) {
      const { guard } = await import('./guard.js');
      return guard({
        ...{ event, request, body, invoke, run, timedOut, label, confirm, unconfirmed, confirmTimeoutMs, dedupe },
        tooLong: (what) => tooLong(what, event),
        report: (error) => report(run, onError, error, event),
        reply,
      });
    }
    try {
      if ((await run(() => invoke({ confirmed: false }))) === timedOut) return tooLong(label, event);
    } catch (error) {
      await report(run, onError, error, event);
      return reply(500, { error: 'Webhook handler failed' });
    }
    return reply(200, { received: true });
  };
}

/** Set by `toNodeHandler` on a Request it made for a body a framework read and did not keep; `Symbol.for`, so any copy of the SDK reads it. */
export const BODY_READ_BY_FRAMEWORK = Symbol.for('workflow-automation-sdk.webhookBodyReadByFramework');

const RECIPES = 'Recipes for Express, Fastify, Hono and Next.js: node_modules/workflow-automation-sdk/docs/webhooks.md';

/** The receiver's misconfiguration, when something read the body before the handler: a 500, not a 400 blaming the sender. */
function bodyConsumedError(request: Request): WfaError | undefined {
  if ((request as { [BODY_READ_BY_FRAMEWORK]?: true })[BODY_READ_BY_FRAMEWORK]) {
    return new WfaError(
      "Webhook body was already read by a framework's body parser: the request stream had ended and neither req.rawBody nor req.body holds the body (Fastify's default JSON parser does this). " +
        `Mount the handler on the raw, unread body: in Fastify, give its route a content-type parser that leaves the stream alone; in Express, mount it before express.json(). ${RECIPES}`,
    );
  }
  if (request.bodyUsed || request.body?.locked) {
    return new WfaError(
      `Webhook body was already read before the handler got the Request (its body is ${request.bodyUsed ? 'used' : 'locked'}), as after Hono's c.req.json() or request.json() in a route handler. ` +
        `Mount the handler on the raw, unread body: in Hono, return handler(c.req.raw) from a route that reads nothing; in Next.js, export the handler as POST. ${RECIPES}`,
    );
  }
  return undefined;
}

/** The 405 both faces answer to any method but POST. */
export function methodNotAllowed(method: string): Response {
  return reply(405, { error: `Method ${method} not allowed; webhooks are delivered by POST` }, { allow: 'POST' });
}

function invalid(field: string, message: string): never {
  throw new ValidationError('webhook handler options', [{ path: [field], message, code: 'invalid_value' }]);
}

function checkDedupe(dedupe: WebhookDedupeOptions, longestDeliveryMs: number) {
  const { store, idHeaders } = dedupe;
  if (typeof store?.reserve !== 'function') invalid('dedupe.store', 'must be a store such as memoryStore() or redisStore(client)');
  const ttlMs = checkMs(dedupe.ttlMs ?? 24 * 60 * 60 * 1000, 'dedupe.ttlMs');
  const lockMs = checkMs(dedupe.lockMs ?? longestDeliveryMs, 'dedupe.lockMs');
  return { store, ttlMs, lockMs, idHeaders };
}

function checkMs(value: number, name: string): number {
  if (!(typeof value === 'number' && value > 0)) throw new RangeError(`${name} must be a number of milliseconds > 0, got ${String(value)}`);
  return value;
}

const timedOut = Symbol('timed out');
type Run = <T>(callback: () => T | Promise<T>) => Promise<T | typeof timedOut>;

/** What `work` settles with, or `timedOut` after `ms`; the timer never outlives the race. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | typeof timedOut> {
  // setTimeout fires at once past 2^31 - 1 ms: a longer bound is no bound.
  if (ms > 2 ** 31 - 1) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<typeof timedOut>((resolve) => (timer = setTimeout(resolve, ms, timedOut)))]);
  } finally {
    clearTimeout(timer);
  }
}

const tooLarge = Symbol('too large');
const tooSlow = Symbol('too slow');
const unreadable = Symbol('unreadable');

/** Reads the body, counting bytes as they arrive, and gives up as soon as the limit or the deadline is passed. */
async function readBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | typeof tooLarge | typeof tooSlow | typeof unreadable> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await request.body?.cancel().catch(() => {});
    return tooLarge;
  }
  if (!request.body) return new Uint8Array(0);

  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Inside the `try`: a stream that fails to start is a 400, not a crash.
    reader = request.body.getReader();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const read = await within(Math.max(0, deadline - Date.now()), reader.read());
      if (read === timedOut) {
        await reader.cancel().catch(() => {});
        return tooSlow;
      }
      const { done, value } = read;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch {
    return unreadable;
  } finally {
    reader?.releaseLock();
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

async function report(
  run: Run,
  onError: NonNullable<WebhookHandlerOptions['onError']>,
  error: unknown,
  event: WebhookEvent | undefined,
): Promise<void> {
  try {
    await run(() => onError(error, event));
  } catch (hookError) {
    // The hook itself failed: log both rather than lose the original error.
    console.error('workflow-automation-sdk: webhook onError hook threw', hookError, 'while reporting', error);
  }
}

function logMisconfiguration(error: unknown): void {
  console.error('workflow-automation-sdk: webhook receiver is misconfigured', error);
}

function logError(error: unknown, event: WebhookEvent | undefined): void {
  console.error(`workflow-automation-sdk: webhook ${event ? `handler for "${String(event.event)}"` : 'verify'} threw`, error);
}

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
