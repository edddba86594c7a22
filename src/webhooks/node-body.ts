/**
 * The request side of `toNodeHandler`: what it reads of a `node:http` request, the body streamed as the handler
 * asks for it, and after an early answer (a 413 while the sender uploads) the rest read and dropped, within bounds.
 *
 * @module
 */

/**
 * What `toNodeHandler` reads of a request: a `node:http` `IncomingMessage`, or an Express `Request`
 * (which adds `body` and `originalUrl`).
 *
 * @example
 * ```ts
 * createServer((req, res) => {
 *   const request: NodeWebhookRequest = req; // an IncomingMessage fits as it is
 * });
 * ```
 */
export interface NodeWebhookRequest {
  /** The method; `undefined` only for requests that did not come from a server. */
  method?: string | undefined;
  /** The path and query, as on the request line. */
  url?: string | undefined;
  /** Express's path before a router stripped its mount point: preferred over `url` so `Request.url` is whole. */
  originalUrl?: string | undefined;
  /** Lower-cased header names; repeated headers as arrays. */
  headers: { readonly [name: string]: string | string[] | undefined };
  /** Read only to tell TLS connections (`encrypted: true`) apart, for the `Request`'s URL scheme. */
  socket?: unknown;
  /** Whether the whole body was received: if not, the rest is drained after a 413, or the connection closed. */
  complete: boolean;
  /** Whether the body stream was read to the end, which means a framework read it first. */
  readableEnded: boolean;
  /** The body as a framework's parser left it (`express.json()`, `.raw()`, `.text()`). */
  body?: unknown;
  /** The exact bytes received, as Firebase and some `express.json({ verify })` setups keep them. */
  rawBody?: unknown;
  /** Stops the flow of `data` events: backpressure while the handler has not asked for more. */
  pause(): unknown;
  /** Resumes the flow of `data` events. */
  resume(): unknown;
  /** Subscribes to a body chunk. */
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** Subscribes to the end of the body, or the connection closing. */
  on(event: 'end' | 'close', listener: () => void): unknown;
  /** Subscribes to a stream error. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Unsubscribes what `on` subscribed. */
  off(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** Unsubscribes what `on` subscribed. */
  off(event: 'end' | 'close', listener: () => void): unknown;
  /** Unsubscribes what `on` subscribed. */
  off(event: 'error', listener: (error: Error) => void): unknown;
  /** Closes the connection: a sender still uploading past the bound after an early answer is cut off. */
  destroy?(): unknown;
}

/**
 * After an answer sent before the whole body arrived (413, 405), the rest is read and dropped, up to this
 * much and this long: closing while a sender is still uploading resets the connection, and a reset can
 * destroy the answer before the sender reads it. A sender that goes on past either bound is cut off.
 */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 10_000;

export function drain(req: NodeWebhookRequest): void {
  let bytes = 0;
  const stop = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', stop);
    req.off('close', stop);
    req.off('error', stop);
  };
  const cut = (): void => {
    stop();
    req.destroy?.();
  };
  const onData = (chunk: Uint8Array | string): void => {
    bytes += chunk.length;
    if (bytes > DRAIN_BYTES) cut();
  };
  const timer = setTimeout(cut, DRAIN_MS);
  req.on('data', onData);
  req.on('end', stop);
  req.on('close', stop);
  req.on('error', stop);
  req.resume();
}

/** The body as a Web stream that reads from `req` only as the handler asks; `beforeFirstRead` runs once, first. */
export function streamOf(req: NodeWebhookRequest, beforeFirstRead: () => void): ReadableStream<Uint8Array> {
  let listening = false;
  const encoder = new TextEncoder();
  let stop = (): void => {};
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true;
          beforeFirstRead();
          const onData = (chunk: Uint8Array | string): void => {
            controller.enqueue(
              typeof chunk === 'string' ? encoder.encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength),
            );
            // Backpressure: Node delivers no more than the handler has asked for, so a limit is never overrun by much.
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          };
          const onEnd = (): void => {
            stop();
            controller.close();
          };
          const onError = (error: unknown): void => {
            stop();
            controller.error(error);
          };
          const onClose = (): void => {
            if (!req.readableEnded) onError(new Error('The request was closed before its body was received'));
          };
          stop = () => {
            req.off('data', onData);
            req.off('end', onEnd);
            req.off('error', onError);
            req.off('close', onClose);
          };
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onError);
          req.on('close', onClose);
        }
        req.resume();
      },
      cancel() {
        stop();
        req.pause();
      },
    },
    // Zero: nothing is read from the socket until the handler asks, so a 405 or a 413 by Content-Length reads nothing.
    { highWaterMark: 0 },
  );
}
