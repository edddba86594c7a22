/**
 * The boundary to the network: one request out, a status, headers and a body stream back. Retries, redirects,
 * limits and redaction live above it, once, so a second transport changes none of them.
 */
import type { FetchLike } from './options.js';
import type { AbortSource } from './timing.js';

/** One HTTP request, as the core hands it to a transport. Redirects are the core's to follow. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts the request and any read of its body; its `signal` (an `AbortSignal`, made when read) is for `fetch`. */
  abort: AbortSource;
  /**
   * Downloads only, which send nothing secret: `fetch` may follow redirects to any host, since a browser hides
   * them (status 0). Transports that do not follow them hand back the 3xx.
   */
  redirect?: 'follow' | undefined;
}

/** What came back. `status` is 0 where a browser hid a redirect from scripts. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The body as it arrives, gzip, deflate and br already undone; `null` when there is none. */
  body: AsyncIterable<Uint8Array> | null;
}

/** Sends one request. Rejects only when no response came (a network failure or an abort). */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * The transport over a Fetch function: `fetchLike`, or the global `fetch` looked up at each call, so tools
 * that patch it after the client exists still work.
 */
export function fetchTransport(fetchLike?: FetchLike): Transport {
  return async ({ method, url, headers, body, abort, redirect }) => {
    const init: RequestInit = { method, headers, body: body ?? null, signal: abort.signal, redirect: redirect ?? 'manual' };
    return fromResponse(await (fetchLike ? fetchLike(url, init) : fetch(url, init)));
  };
}

/**
 * Headers that frame the message, manage the connection or name the host: each transport sets them itself and
 * treats a caller's differently (sent, refused, or the request hangs), and `host` would carry the key elsewhere.
 */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'keep-alive',
  'expect',
  'trailer',
  'te',
  'host',
]);

/** An HTTP token (RFC 9110): what a header name is. */
export const TOKEN = /^[!#$%&'*+.^`|~\w-]+$/;

/**
 * A Fetch `Response` as a transport gives it. A header name that is no token (a space in it, or before its
 * colon) fails the response as a malformed one, as Node's parser does: undici lets it through, and a `Headers`
 * copy of it would throw.
 */
export function fromResponse(response: Response): TransportResponse {
  const { status, headers, body } = response;
  for (const [name] of headers) {
    if (TOKEN.test(name)) continue;
    void body?.cancel().catch(() => undefined);
    throw new TypeError('The response has a header name that is not a token (a space in it, or before its colon)');
  }
  return { status, headers, body: body && chunksOf(body) };
}

// Read with a reader, not `for await` over the stream: browsers' streams are not async iterable.
function chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  return stoppable(
    () => reader.read() as Promise<IteratorResult<Uint8Array, undefined>>,
    () => void reader.cancel().catch(() => undefined),
  );
}

/**
 * A body whose reader may stop at any point, before its first read too (a generator's `return()` would skip
 * its `finally` then): stopping lets the connection go.
 */
export function stoppable(read: () => Promise<IteratorResult<Uint8Array, undefined>>, stop: () => void): AsyncIterable<Uint8Array> {
  const iterator: AsyncIterator<Uint8Array, undefined> = {
    next: read,
    return: async () => {
      stop();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** Stops a body, read or not: its connection goes, and whatever waits for its end (`untilEnd`) is told. Never rejects. */
export async function letGo(body: AsyncIterable<Uint8Array> | null | undefined): Promise<void> {
  await Promise.resolve(body?.[Symbol.asyncIterator]().return?.()).catch(() => undefined);
}

/** True when a body is content-encoded: transports undo gzip, br and deflate, so its Content-Length is the wire's. */
export function contentEncoded(headers: Headers): boolean {
  return (headers.get('content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity';
}

/** Statuses whose response has no body, as `fetch` gives them (the Fetch standard's null body statuses); a `Response` refuses one. */
export const NULL_BODY = new Set([101, 204, 205, 304]);

/** A Fetch `Response` built from a transport's, for `asResponse()`: its body unread. */
export function asResponse(response: TransportResponse): Response {
  const { status, headers } = response;
  const body = NULL_BODY.has(status) ? null : response.body;
  let iterator: AsyncIterator<Uint8Array> | undefined;
  const stream =
    body &&
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        iterator ??= body[Symbol.asyncIterator]();
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        iterator ??= body[Symbol.asyncIterator]();
        await iterator.return?.();
      },
    });
  // A `Response` cannot carry status 0 or a 1xx; a raw success is always 2xx.
  return new Response(stream, { status, headers });
}

/**
 * Makes `abort` follow `signal` too (a caller's, which a raw body's read must still obey). The returned function
 * stops following it, so that a long-lived caller's signal keeps no listener once what it guarded has ended.
 */
export function abortWith(abort: AbortSource, signal: AbortSignal): () => void {
  const onAbort = (): void => abort.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** `body`, calling `end` when it is read to its end, fails, or is stopped. */
export function untilEnd(body: AsyncIterable<Uint8Array>, end: () => void): AsyncIterable<Uint8Array> {
  let iterator: AsyncIterator<Uint8Array, undefined> | undefined;
  const inner = () => (iterator ??= body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array, undefined>);
  return stoppable(
    async () => {
      try {
        const next = await inner().next();
        if (next.done) end();
        return next;
      } catch (error) {
        end();
        throw error;
      }
    },
    () => {
      end();
      void Promise.resolve(inner().return?.()).catch(() => undefined);
    },
  );
}
