/**
 * Reading response bodies within a size limit, inside the attempt that fetched them (so its timeout and retries
 * cover them), and writing request bodies as JSON.
 */
import { readBounded } from './bounded-read.js';
import { ValidationError } from './errors.js';
import { AttemptFailure } from './retry.js';
import { contentEncoded, letGo, type TransportResponse } from './transport.js';

/** Default `maxResponseBytes`: 4 MiB. A read costs a few times that at peak, so it bounds a runaway response's heap. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How much of an error body is kept: enough for any message, bounded whatever the service sends. */
export const ERROR_BODY_BYTES = 64 * 1024;
/** How much of an error body is read, so that a credential field past what is kept still hides its copies. */
export const ERROR_BODY_READ = 1024 * 1024;

/**
 * Reads at most `limit` decoded bytes; past it, the head (`truncate`: an error body's head says enough) or
 * `undefined`. A connection that breaks while reading throws the `body-read` failure.
 */
export async function readText(response: TransportResponse, limit: number, truncate: boolean): Promise<string | undefined> {
  if (response.body === null) return '';
  // Transports undo gzip, br and deflate, so with a Content-Encoding the declared length is the wire's, not what
  // the body inflates to: only an unencoded body may be refused by its Content-Length before it is read (none
  // is Number(null), 0: never refused).
  if (!truncate && !contentEncoded(response.headers) && Number(response.headers.get('content-length')) > limit) {
    void letGo(response.body);
    return undefined;
  }
  const iterator = response.body[Symbol.asyncIterator]();
  const { bytes, cut } = await readBounded(() => iterator.next(), limit, truncate).catch((error: unknown) => {
    throw new AttemptFailure({ kind: 'body-read', cause: error });
  });
  if (cut) void letGo(response.body);
  // No final flush on a cut body: a half character would decode to U+FFFD and hide a secret's head from redaction.
  return bytes && (cut ? new TextDecoder().decode(bytes, { stream: true }) : UTF8.decode(bytes));
}

// One decoder for every whole body: Node builds a decoder's converter on its first use, which costs more than
// decoding a small body. Decoding in one go, not chunk by chunk, is faster again.
const UTF8 = new TextDecoder();

/** Values `JSON.stringify` would silently turn into `{}` or drop, by what the caller is told they are. */
const NOT_JSON: [string, (value: object) => boolean][] = [
  ['a stream', (v) => typeof ReadableStream !== 'undefined' && v instanceof ReadableStream],
  ['a Blob', (v) => typeof Blob !== 'undefined' && v instanceof Blob],
  ['FormData', (v) => typeof FormData !== 'undefined' && v instanceof FormData],
  ['URLSearchParams', (v) => v instanceof URLSearchParams],
  ['binary data', (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v)],
  ['a Map or Set', (v) => v instanceof Map || v instanceof Set || v instanceof WeakMap || v instanceof WeakSet],
  ['a Promise', (v) => v instanceof Promise],
];

/** A value JSON cannot carry is the caller's mistake: reported before sending, not as a silent `{}`. */
export function jsonBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body, refuseNonJson);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    // A stack overflow (V8's and JavaScriptCore's "call stack", Firefox's "too much recursion"): the body is
    // deeper than the runtime's JSON.stringify can recurse.
    const message = error instanceof Error ? error.message : '';
    const why = /call stack|recursion/i.test(message)
      ? `is nested ${depthOf(body)} levels deep, more than JSON.stringify can write`
      : /circular/i.test(message)
        ? 'has a circular reference'
        : 'has a value JSON cannot carry, such as a BigInt';
    throw new ValidationError('request body', [{ path: [], message: `cannot be sent as JSON: it ${why}`, code: 'invalid_json' }]);
  }
}

/** How deep objects and arrays nest in `value`, walked without recursion (what recursion could not do). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  const seen = new Set<unknown>();
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null || seen.has(item)) continue;
    seen.add(item);
    deepest = Math.max(deepest, depth + 1);
    for (const inner of Object.values(item)) pending.push([inner, depth + 1]);
  }
  return deepest;
}

function refuseNonJson(this: unknown, key: string, value: unknown): unknown {
  // `this[key]` is the value before any toJSON: a Date is fine, and so is anything else with a toJSON.
  const raw: unknown = (this as Record<string, unknown>)[key];
  let what: string | undefined;
  if (typeof raw === 'function' || typeof raw === 'symbol') what = `a ${typeof raw}`;
  else if (typeof raw === 'object' && raw !== null && typeof (raw as { toJSON?: unknown }).toJSON !== 'function') {
    what = NOT_JSON.find(([, test]) => test(raw))?.[0];
  }
  if (what) {
    const message = `is ${what}, which JSON cannot carry: send plain objects, arrays, strings, numbers and booleans`;
    throw new ValidationError('request body', [{ path: key === '' ? [] : [key], message, code: 'invalid_json' }]);
  }
  return value;
}
