/**
 * A Fetch-style endpoint (`(request) => Promise<Response>`) that receives the service's webhook deliveries,
 * with bounds on body size, body time and callback time, so that a delivery can never hang or flood it.
 *
 * @module
 */

import { WebhookParseError, WfaError } from '../core/errors.js';
import type { WebhookDelivery } from './guard.js';
import { handlerSettings, type WebhookHandlerOptions } from './handler-options.js';
import { bodyConsumed, isRebuilt } from './mounting.js';
import { isKnownWebhookEvent, parseWebhookEvent, type KnownWebhookEventKind, type WebhookEvent } from './parse.js';
import type { Seen } from './observe.js';
import { methodNotAllowed, readBody, reply, report, timedOut, tooLarge, tooSlow, unreadable, within, type Run } from './receive.js';

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

/**
 * Creates the endpoint that receives webhook deliveries. Its responses:
 *
 * - **200** `{"received":true}` when the event was handled, or is of a kind without a function (known or
 *   unknown) and so acknowledged. 200 with a body rather than 204, so that a proxy or a log shows what happened.
 * - **400** `{"error":"<what is wrong>"}` when the body is not a valid event (the message of
 *   {@link WebhookParseError}).
 * - **401** `{"error":"Webhook verification failed"}` when `verify` returns `false` or throws. When the body
 *   was rebuilt from a body parser's `req.body` (see `toNodeHandler`), `onError` gets a `WfaError` naming the fix.
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
  const settings = handlerSettings(options);
  const {
    on,
    onUnknown,
    verify,
    onError = logError,
    onDelivery,
    confirm,
    unconfirmed,
    maxBodyBytes,
    bodyTimeoutMs,
    handlerTimeoutMs,
  } = settings;
  // A user's callback, bounded: it may hang, and a sync throw counts as a rejection.
  const run: Run = (callback) => within(handlerTimeoutMs, Promise.resolve().then(callback));
  const tooLong = (what: string, event: WebhookEvent | undefined) => {
    void report(run, onError, new WfaError(`Webhook ${what} did not settle within ${handlerTimeoutMs} ms (handlerTimeoutMs)`), event);
    return reply(503, { error: `Webhook ${what} did not finish in time` });
  };

  const receive = async (request: Request, seen: Seen): Promise<Response> => {
    if (request.method !== 'POST') {
      await request.body?.cancel().catch(() => {});
      return methodNotAllowed(request.method);
    }

    const consumed = bodyConsumed(request);
    if (consumed) {
      const { bodyConsumedError } = await import('./rebuilt-body.js');
      await report(run, settings.onError ?? logMisconfiguration, bodyConsumedError(consumed), undefined);
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
      if (verified !== true) {
        // A body rebuilt by a parser fails any signature: say so, or it looks like a wrong secret.
        if (isRebuilt(request)) {
          const { rebuiltBodyError } = await import('./rebuilt-body.js');
          await report(run, settings.onError ?? logMisconfiguration, rebuiltBodyError(), undefined);
        }
        return reply(401, { error: 'Webhook verification failed' });
      }
    }

    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(body);
    } catch (error) {
      if (error instanceof WebhookParseError) return reply(400, { error: error.message });
      throw error;
    }

    seen.event = event;
    const known = isKnownWebhookEvent(event);
    // `Object.hasOwn`: an event kind must never reach an inherited property of `on`. The cast is sound
    // because `on[kind]` takes events of that kind, but TypeScript cannot correlate the two unions.
    const kind = event.event as KnownWebhookEventKind;
    const callback = (known ? (Object.hasOwn(on, kind) ? on[kind] : undefined) : onUnknown) as
      | ((event: WebhookEvent, request: Request, delivery: WebhookDelivery) => unknown)
      | undefined;
    // Nothing runs for it: acknowledged, with nothing to confirm or to run once.
    if (!callback) {
      seen.outcome = 'acknowledged';
      return reply(200, { received: true });
    }
    const label = known ? `handler for "${event.event}"` : 'onUnknown';
    const invoke = (delivery: WebhookDelivery) => Promise.resolve().then(() => callback(event, request, delivery));

    if (confirm || settings.dedupe) {
      const { guard } = await import('./guard.js');
      return guard({
        ...{ event, body, request, seen, invoke, run, timedOut, label, confirm, unconfirmed },
        ...{ confirmTimeoutMs: settings.confirmTimeoutMs, dedupe: settings.dedupe },
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

  return async (request) => {
    const seen: Seen = {};
    const response = await receive(request, seen);
    if (onDelivery) {
      // Loaded on first use, like the guard: a handler without an observer carries none of it.
      const { observe } = await import('./observe.js');
      observe(onDelivery, response, seen);
    }
    return response;
  };
}

function logMisconfiguration(error: unknown): void {
  console.error('workflow-automation-sdk: webhook receiver is misconfigured', error);
}

function logError(error: unknown, event: WebhookEvent | undefined): void {
  console.error(`workflow-automation-sdk: webhook ${event ? `handler for "${String(event.event)}"` : 'verify'} threw`, error);
}
