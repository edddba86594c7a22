/**
 * Reading response bodies within bounds, and writing request bodies as JSON.
 *
 * A body is read inside the attempt that fetched it (so the attempt's timeout and retries cover it), and never
 * past a size limit: a service that answers with 50 MB must not take 200 MB of a caller's heap.
 */
import { ValidationError } from './errors.js';
import { BodyReadError } from './retry.js';

/**
 * Default `maxResponseBytes`: 4 MiB, over ten times a 1000-item list. Reading an answer costs about three times
 * its size at peak (the stream's buffers and ours), so this bounds a runaway answer to about 14 MB of heap.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How much of an error body is kept: enough for any message, bounded whatever the service sends. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** The answer was larger than the limit. */
export class ResponseTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`is larger than maxResponseBytes (${limit} bytes)`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * Reads a body as text, at most `limit` bytes. Past the limit it either stops and returns what it has
 * (`truncate`, for error bodies: their head says all there is to say) or throws {@link ResponseTooLarge}.
 * A failure of the connection while reading throws {@link BodyReadError}.
 */
export async function readText(response: Response, limit: number, truncate: boolean): Promise<string> {
  if (response.status === 204 || response.status === 205 || response.body === null) return '';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared <= limit) {
    // The common case: a declared, acceptable length; the platform's own reader is fastest.
    try {
      return await response.text();
    } catch (error) {
      throw new BodyReadError(error);
    }
  }
  if (Number.isFinite(declared) && !truncate) {
    void response.body.cancel().catch(() => undefined);
    throw new ResponseTooLarge(limit);
  }
  // Chunks are kept as bytes and decoded once at the end: an answer that turns out too large costs no string.
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        if (!truncate) {
          chunks.length = 0;
          throw new ResponseTooLarge(limit);
        }
        chunks.push(value.subarray(0, value.byteLength - (size - limit)));
        break;
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ResponseTooLarge) throw error;
    throw new BodyReadError(error);
  }
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * Serialises a request body, before anything is sent: a value JSON cannot carry (a BigInt, a cycle) is the
 * caller's mistake, reported as such, not a network failure.
 */
export function jsonBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch (error) {
    const why = error instanceof Error && /circular/i.test(error.message) ? 'contains a circular reference' : 'holds a value JSON cannot carry (such as a BigInt)';
    throw new ValidationError('request body', [{ path: [], message: `cannot be sent as JSON: it ${why}`, code: 'invalid_json' }]);
  }
}
