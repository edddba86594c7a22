/**
 * What a receiver behind a body parser is told: the warning `toNodeHandler` gives once, and the error for
 * `onError` when a signature check failed on a rebuilt body. The handler loads it only on that failure.
 *
 * @module
 */

import { WfaError } from '../core/errors.js';
import { RECIPES } from './mounting.js';

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
