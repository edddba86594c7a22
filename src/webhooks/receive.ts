/**
 * The handler's bounded steps: reading a body within a size and a time limit, running a user's callback
 * within a time limit, and the JSON responses it sends.
 *
 * @module
 */

import { readBounded } from '../core/bounded-read.js';
import { atDeadline, now } from '../core/timing.js';
import type { WebhookEvent } from './parse.js';

/** What a bounded step settles with when its time ran out. */
export const timedOut = Symbol('timed out');

/** What `work` settles with, or {@link timedOut} after `ms`; the timer never outlives the race. */
export function within<T>(ms: number, work: Promise<T>): Promise<T | typeof timedOut> {
  let disarm!: () => void;
  const timer = new Promise<typeof timedOut>((resolve) => (disarm = atDeadline(now() + ms, () => resolve(timedOut))));
  return Promise.race([work, timer]).finally(disarm);
}

/** Runs a user's callback within the handler's time bound: a sync throw counts as a rejection. */
export type Run = <T>(callback: () => T | Promise<T>) => Promise<T | typeof timedOut>;

export const tooLarge = Symbol('too large');
export const tooSlow = Symbol('too slow');
export const unreadable = Symbol('unreadable');

/** Reads the body, counting bytes as they arrive, and gives up as soon as the limit or the deadline is passed. */
export async function readBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | typeof tooLarge | typeof tooSlow | typeof unreadable> {
  // Without the header, Number(null) is 0: no refusal before reading.
  if (Number(request.headers.get('content-length')) > limit) {
    await request.body?.cancel().catch(() => {});
    return tooLarge;
  }
  if (!request.body) return new Uint8Array(0);

  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    // Inside the `try`: a stream that fails to start is a 400, not a crash.
    reader = request.body.getReader();
    const deadline = now() + timeoutMs;
    const next = async () => {
      const read = await within(deadline - now(), reader!.read());
      if (read === timedOut) throw tooSlow;
      return read;
    };
    const { bytes } = await readBounded(next, limit);
    if (bytes) return bytes;
    await reader.cancel().catch(() => {});
    return tooLarge;
  } catch (error) {
    if (error !== tooSlow) return unreadable;
    await reader?.cancel().catch(() => {});
    return tooSlow;
  } finally {
    reader?.releaseLock();
  }
}

/** Gives `error` to `onError` within the bound; an `onError` that fails itself is logged with the error. */
export async function report(
  run: Run,
  onError: (error: unknown, event: WebhookEvent | undefined) => unknown,
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

/** A JSON response. */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The 405 both faces send for any method but POST. */
export function methodNotAllowed(method: string): Response {
  return reply(405, { error: `Method ${method} not allowed; webhooks are delivered by POST` }, { allow: 'POST' });
}
