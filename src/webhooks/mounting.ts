/**
 * A receiver mounted behind a body parser: how `toNodeHandler` tells the handler what a framework did to the
 * body, and the errors and warning that name the parser and the fix.
 *
 * @module
 */

import { WfaError } from '../core/errors.js';

/** Set by `toNodeHandler` on a Request it made for a body a framework read and did not keep; `Symbol.for`, so any copy of the SDK reads it. */
export const BODY_READ_BY_FRAMEWORK = Symbol.for('workflow-automation-sdk.webhookBodyReadByFramework');

/** Set by `toNodeHandler` on a Request whose body it rebuilt from a parsed `req.body` (an object, or text). */
export const BODY_REBUILT = Symbol.for('workflow-automation-sdk.webhookBodyRebuilt');

const RECIPES = 'Recipes for Express, Fastify, Hono and Next.js: docs/webhooks.md';
const EXPRESS_FIX = "mount the webhook route before express.json(), or behind express.raw({ type: '*/*' })";

/** The receiver's misconfiguration, when something read the body before the handler: a 500, not a 400 blaming the sender. */
export function bodyConsumedError(request: Request): WfaError | undefined {
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

/** Marks `request` as carrying a body rebuilt from what a parser left in `req.body`. */
export function markRebuilt(request: Request): Request {
  Object.defineProperty(request, BODY_REBUILT, { value: true });
  return request;
}

/** For `onError` when `verify` refused a rebuilt body: the likely cause is the parser, not the secret. */
export function rebuiltBodyError(request: Request): WfaError | undefined {
  if (!(request as { [BODY_REBUILT]?: true })[BODY_REBUILT]) return undefined;
  return new WfaError(
    'Webhook verification failed on a body rebuilt from req.body: a body parser (such as express.json() or express.text()) read the request before toNodeHandler, ' +
      `so verify checked re-serialised text, not the bytes that were signed. This usually means a mounting problem, not a wrong secret: ${EXPRESS_FIX}. ${RECIPES}`,
  );
}

/** Said once per `toNodeHandler`, even when nothing fails: a signature check or dedupe on a rebuilt body is wrong. */
export const REBUILT_BODY_WARNING =
  'workflow-automation-sdk: a body parser (such as express.json()) read the webhook request before toNodeHandler, which rebuilt the body from req.body. ' +
  `Those are not the bytes that were sent: a signature check on them fails, and dedupe keys on the rebuilt text. Fix: ${EXPRESS_FIX}. ${RECIPES}`;
