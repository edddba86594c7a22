/**
 * What a receiver behind a body parser is told: the warning `toNodeHandler` gives once, the error for
 * `onError` when a signature check failed on a rebuilt body, and the error when the body was read before the
 * handler. The handler loads it only on such a failure.
 *
 * @module
 */

import { WfaError } from '../core/errors.js';
import type { BodyConsumed } from './mounting.js';

/** Where the recipes are, for every message about mounting. */
const RECIPES = 'Recipes for Express, Fastify, Hono and Next.js: node_modules/workflow-automation-sdk/docs/webhooks.md';

const EXPRESS_FIX = "mount the webhook route before express.json(), or behind express.raw({ type: '*/*' })";

/** For `onError` when `verify` refused a rebuilt body: the likely cause is the parser, not the secret. */
export function rebuiltBodyError(): WfaError {
  return new WfaError(
    'Webhook verification failed on a body rebuilt from req.body: a body parser (such as express.json() or express.text()) read the request before toNodeHandler, ' +
      `so verify checked re-serialised text, not the bytes that were signed. This usually means a mounting problem, not a wrong secret: ${EXPRESS_FIX}. ${RECIPES}`,
  );
}

/** Said once per `toNodeHandler`, even when nothing fails: a signature check or dedupe on a rebuilt body is wrong. */
export const REBUILT_BODY_WARNING =
  'workflow-automation-sdk: a body parser (such as express.json()) read the webhook request before toNodeHandler, which rebuilt the body from req.body. ' +
  `Those are not the bytes that were sent: a signature check on them fails, and dedupe keys on the rebuilt text. Fix: ${EXPRESS_FIX}. ${RECIPES}`;

/** The receiver's misconfiguration when something read the body before the handler, with the fix. */
export function bodyConsumedError(how: BodyConsumed): WfaError {
  if (how === 'framework') {
    return new WfaError(
      "Webhook body was already read by a framework's body parser: the request stream had ended and neither req.rawBody nor req.body holds the body (Fastify's default JSON parser does this). " +
        `Mount the handler on the raw, unread body: in Fastify, give its route a content-type parser that leaves the stream alone; in Express, mount it before express.json(). ${RECIPES}`,
    );
  }
  return new WfaError(
    `Webhook body was already read before the handler got the Request (its body is ${how}), as after Hono's c.req.json() or request.json() in a route handler. ` +
      `Mount the handler on the raw, unread body: in Hono, return handler(c.req.raw) from a route that reads nothing; in Next.js, export the handler as POST. ${RECIPES}`,
  );
}
