/**
 * `onDelivery`: what happened to each delivery, told to an observer that cannot change or delay the answer.
 *
 * @module
 */

import type { WebhookEvent } from './parse.js';

/**
 * What became of a delivery:
 * - `'handled'`: its callback ran and succeeded (200);
 * - `'acknowledged'`: no callback for its kind, so it was answered 200 and nothing ran;
 * - `'duplicate'`: with `dedupe`, already handled (200), or being handled right now (503 with `Retry-After`);
 * - `'rejected'`: refused before its callback: not a valid event (400), `verify` or `confirm` said no (401),
 *   too large (413) or too slow (408);
 * - `'failed'`: its callback threw (500) or took too long (503), or a store or the service could not answer (503).
 */
export type WebhookOutcome = 'handled' | 'acknowledged' | 'duplicate' | 'rejected' | 'failed';

/** What `onDelivery` is told about one delivery, once its answer is decided. */
export interface WebhookDeliveryReport {
  /** What became of the delivery: handled, acknowledged, a duplicate, rejected or failed. */
  outcome: WebhookOutcome;
  /** The status the delivery was answered with. */
  status: number;
  /** The event, once its body was read and parsed (not for a body too large, unreadable or not an event). */
  event?: WebhookEvent | undefined;
  /** With `dedupe`: the delivery's key, as the callback sees it in `delivery.key`. */
  key?: string | undefined;
  /** For an answer other than 2xx: its `error` text, as the sender gets it. */
  error?: string | undefined;
}

/** What the handler learned about a delivery on the way to its answer. */
export interface Seen {
  event?: WebhookEvent | undefined;
  key?: string | undefined;
  outcome?: WebhookOutcome | undefined;
}

/**
 * Tells `onDelivery` what became of a delivery, without waiting for it: it may hang, throw or reject, and the
 * response is neither changed nor delayed (a failure is logged with `console.error`).
 */
export function observe(onDelivery: (report: WebhookDeliveryReport) => unknown, response: Response, seen: Seen): void {
  const { status } = response;
  // Cloned now, before the response is returned and its body read; read after.
  const copy = status >= 300 ? response.clone() : undefined;
  const outcome = seen.outcome ?? (status < 300 ? 'handled' : status < 500 ? 'rejected' : 'failed');
  const tell = async () => {
    const body: unknown = await copy?.json().catch(() => undefined);
    const error = (body as { error?: unknown } | undefined)?.error;
    await onDelivery({
      outcome,
      status,
      ...(seen.event === undefined ? {} : { event: seen.event }),
      ...(seen.key === undefined ? {} : { key: seen.key }),
      ...(typeof error === 'string' ? { error } : {}),
    });
  };
  tell().catch((error: unknown) => console.error('workflow-automation-sdk: webhook onDelivery threw', error));
}
