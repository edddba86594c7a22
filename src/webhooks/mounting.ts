/**
 * A receiver mounted behind a body parser: how `toNodeHandler` tells the handler what a framework did to the
 * body, and how the handler tells. The errors and warning that name the parser and the fix are in
 * `rebuilt-body.ts`, loaded only when one is needed.
 *
 * @module
 */

/** Set by `toNodeHandler` on a Request it made for a body a framework read and did not keep; `Symbol.for`, so any copy of the SDK reads it. */
export const BODY_READ_BY_FRAMEWORK = Symbol.for('workflow-automation-sdk.webhookBodyReadByFramework');

/** Set by `toNodeHandler` on a Request whose body it rebuilt from a parsed `req.body` (an object, or text). */
export const BODY_REBUILT = Symbol.for('workflow-automation-sdk.webhookBodyRebuilt');

/** How the body was read before the handler got the Request, if it was: `rebuilt-body.ts` words the error. */
export type BodyConsumed = 'framework' | 'used' | 'locked';

/**
 * The receiver's misconfiguration, when something read the body before the handler (a 500, not a 400 blaming
 * the sender). Only the test is here: its message, with the fix, is loaded when it happens.
 */
export function bodyConsumed(request: Request): BodyConsumed | undefined {
  if ((request as { [BODY_READ_BY_FRAMEWORK]?: true })[BODY_READ_BY_FRAMEWORK]) return 'framework';
  if (request.bodyUsed) return 'used';
  return request.body?.locked ? 'locked' : undefined;
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
