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

/** Where the recipes are, for every message about mounting. */
export const RECIPES = 'Recipes for Express, Fastify, Hono and Next.js: node_modules/workflow-automation-sdk/docs/webhooks.md';

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

/** Whether `toNodeHandler` rebuilt this request's body from a parser's `req.body`. */
export function isRebuilt(request: Request): boolean {
  return (request as { [BODY_REBUILT]?: true })[BODY_REBUILT] === true;
}
