/**
 * Request bodies on the HTTP server: read up to the service's limit, and after a body too large, the rest
 * read and dropped (within bounds) so that the connection can close cleanly after the 413.
 */

import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from './validate.js';

// After a body too large, the rest is read and dropped before the answer and the close, so that the sender
// gets a FIN after the 413, not a reset that may destroy the 413 unread. Past these bounds it gets the reset.
const DISCARD_BYTES = 64 * MAX_BODY_BYTES;
const DISCARD_MS = 10_000;

/**
 * Reads the body up to one byte past the service's limit, then pauses: the service answers 413 for that, and
 * `cut` says the connection must then close, as the rest of the body was never read.
 */
export function readBody(req: IncomingMessage): Promise<{ body: Uint8Array<ArrayBuffer>; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (cut: boolean): void => {
      req.off('data', onData).off('end', onEnd).off('error', reject);
      if (cut) req.pause();
      // A copy into a plain Uint8Array: what Fetch's BodyInit accepts across @types/node versions.
      resolve({ body: new Uint8Array(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1)), cut });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_BODY_BYTES) done(true);
    };
    const onEnd = (): void => done(false);
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/** Reads and drops the rest of a cut body; false when the sender went past the bounds. */
export function discardRest(req: IncomingMessage): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let size = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onEnd).off('close', onEnd);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > DISCARD_BYTES) finish(false);
    };
    const onEnd = (): void => finish(req.complete);
    const timer = setTimeout(() => finish(false), DISCARD_MS);
    req.on('data', onData).on('end', onEnd).on('error', onEnd).on('close', onEnd);
    req.resume();
  });
}
