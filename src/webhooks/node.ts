/**
 * The webhook handler for `node:http` and Express. Node's request and response are described by the few
 * members the adapter uses, not imported from `node:http`, so that the published types need no `@types/node`.
 *
 * @module
 */

import type { WebhookHandler } from './handler.js';
import { BODY_READ_BY_FRAMEWORK, markRebuilt } from './mounting.js';
import { REBUILT_BODY_WARNING } from './rebuilt-body.js';
import { methodNotAllowed } from './receive.js';

/**
 * What {@link toNodeHandler} reads of a request: a `node:http` `IncomingMessage`, or an Express `Request`
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
  /** Whether the whole body was received: if not, the connection is closed after the response. */
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
}

/**
 * What {@link toNodeHandler} uses of a response: a `node:http` `ServerResponse`, or an Express `Response`.
 *
 * @example
 * ```ts
 * createServer((req, res) => {
 *   const response: NodeWebhookResponse = res; // a ServerResponse fits as it is
 * });
 * ```
 */
export interface NodeWebhookResponse {
  /** Whether the status line and headers were sent: after that, a failure can only end the response. */
  readonly headersSent: boolean;
  /** Whether the response was already ended, so a late failure leaves it alone. */
  readonly writableEnded: boolean;
  /** Sends the status and headers. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Sends the body and ends the response. */
  end(body: Uint8Array | string): unknown;
}

/**
 * A `node:http` request listener, which is also an Express route handler.
 *
 * @example
 * ```ts
 * const listener: NodeWebhookHandler = toNodeHandler(createWebhookHandler({ on: {} }));
 * ```
 */
export type NodeWebhookHandler = (req: NodeWebhookRequest, res: NodeWebhookResponse) => void;

/**
 * Adapts a handler from `createWebhookHandler` to `node:http` and Express, with the same responses.
 *
 * The body is streamed from `req` into the handler, which stops reading past `maxBodyBytes`. When a
 * framework has already read the body, what it kept is used instead, best first: `req.rawBody` (bytes, as
 * Firebase and many `express.json({ verify })` setups keep), then `req.body` as bytes or a string (what
 * `express.raw()` and `express.text()` give), then `req.body` as an object, serialized back to JSON. That
 * last form is not the bytes that were sent, so a `verify` that checks a signature needs the route mounted
 * before `express.json()`, or behind `express.raw({ type: '*\/*' })`: a body rebuilt from a parsed `req.body`
 * (an object or text) is warned about once with `console.warn`, and a `verify` that refuses it gives `onError` a
 * `WfaError` naming the parser and the fix. A body that was read and kept nowhere here (Fastify's JSON parser
 * keeps it on its own request) gets a 500, with a `WfaError` for `onError`.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';
 *
 * const app = express();
 * app.all('/webhooks', toNodeHandler(createWebhookHandler({
 *   on: { 'build.completed': (event) => console.log('built', event.workflow_id, event.data.download_url) },
 * })));
 * app.use(express.json()); // other routes; mounted after, so the webhook route reads the raw body itself
 * app.listen(3000);
 * ```
 */
export function toNodeHandler(handler: WebhookHandler): NodeWebhookHandler {
  let warned = false;
  const warnOnce = () => {
    if (!warned) console.warn(REBUILT_BODY_WARNING);
    warned = true;
  };
  return (req, res) => {
    handle(handler, req, res, warnOnce).catch((error: unknown) => {
      console.error('workflow-automation-sdk: webhook request failed', error);
      if (res.writableEnded) return;
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Webhook handler failed' }));
    });
  };
}

async function handle(handler: WebhookHandler, req: NodeWebhookRequest, res: NodeWebhookResponse, warnOnce: () => void): Promise<void> {
  const method = req.method ?? 'GET';
  let response: Response;
  // Answered here: a `Request` cannot even be made for TRACE, CONNECT or TRACK.
  if (method !== 'POST') response = methodNotAllowed(method);
  else {
    const init: RequestInit & { duplex?: 'half' } = { method, headers: headersOf(req) };
    const preRead = bodyReadByFramework(req);
    if (preRead === lost) {
      // No body: the handler sees the mark and responds 500 with a WfaError for `onError`.
      const request = new Request(urlOf(req), init);
      Object.defineProperty(request, BODY_READ_BY_FRAMEWORK, { value: true });
      response = await handler(request);
    } else {
      if (preRead !== undefined) init.body = preRead.body;
      else {
        init.body = streamOf(req);
        // Required by the Fetch standard for a streamed request body.
        init.duplex = 'half';
      }
      const request = new Request(urlOf(req), init);
      if (preRead?.rebuilt) warnOnce();
      response = await handler(preRead?.rebuilt ? markRebuilt(request) : request);
    }
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(body.byteLength);
  // The body was not received to the end (413, 405): close rather than read the rest to keep the connection.
  if (!req.complete) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  res.end(body);
}

const lost = Symbol('lost');

/** What a framework kept of a body it read; `rebuilt` when that is not the bytes sent (parsed JSON, decoded text). */
type PreRead = { body: Uint8Array<ArrayBuffer> | string; rebuilt: boolean };

function bodyReadByFramework(req: NodeWebhookRequest): PreRead | typeof lost | undefined {
  // A body parser that skipped this request (wrong content type) may still set `req.body = {}`; only a
  // stream that was read to the end means the body is elsewhere.
  if (!req.readableEnded) return undefined;
  if (req.rawBody instanceof Uint8Array) return { body: ownBytes(req.rawBody), rebuilt: false };
  const body = req.body;
  if (body instanceof Uint8Array) return { body: ownBytes(body), rebuilt: false };
  if (typeof body === 'string') return { body, rebuilt: true };
  if (body !== undefined && body !== null) return { body: JSON.stringify(body), rebuilt: true };
  // Read, and kept nowhere we can see (Fastify keeps it on its own request object): lost, unless none was sent.
  const length = req.headers['content-length'];
  const sent = req.headers['transfer-encoding'] !== undefined || (typeof length === 'string' && Number(length) > 0);
  return sent ? lost : { body: new Uint8Array(0), rebuilt: false };
}

// A `Request` body may not be a view of shared memory: copy only in that rare case.
function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

function streamOf(req: NodeWebhookRequest): ReadableStream<Uint8Array> {
  let listening = false;
  const encoder = new TextEncoder();
  let stop = (): void => {};
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true;
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

function headersOf(req: NodeWebhookRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not valid Fetch header names.
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function urlOf(req: NodeWebhookRequest): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const path = req.originalUrl ?? req.url ?? '/';
  try {
    return new URL(path, `${encrypted ? 'https' : 'http'}://${req.headers['host'] ?? 'localhost'}`).href;
  } catch {
    // A Host header that is not a host name must not turn a delivery into a crash.
    return new URL(path.startsWith('/') ? path : '/', 'http://localhost').href;
  }
}
