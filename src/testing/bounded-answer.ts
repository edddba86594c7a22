/**
 * What a webhook sender reads of a receiver's answer, the mock's deliveries as `wfa listen`'s: the body means
 * nothing to the sender, and may be endless, so it is read up to a bound and the connection then dropped.
 */
import { readBounded } from '../core/bounded-read.js';

/** The most a webhook sender reads of a receiver's answer. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Reads at most {@link MAX_ANSWER_BYTES} of a body; false when there was more (the caller then drops the connection). */
export async function readBoundedAnswer(body: ReadableStream<Uint8Array> | null): Promise<boolean> {
  if (body === null) return true;
  // Read rather than cancel(): under msw's fetch interceptor, cancelling a passed-through body never settles.
  const reader = body.getReader();
  return !(await readBounded(() => reader.read(), MAX_ANSWER_BYTES)).cut;
}
