/**
 * The webhook handler for `node:http` and Express. Node's request and response are described by the few
 * members the adapter uses, not imported from `node:http`, so that the published types need no `@types/node`.
 *
 * @module
 */

import type { WebhookHandler } from './handler.js';
import { BODY_READ_BY_FRAMEWORK, markRebuilt } from './mounting.js';
import { drain, type NodeWebhookRequest, streamOf } from './node-body.js';
import { REBUILT_BODY_WARNING } from './rebuilt-body.js';
import { methodNotAllowed } from './receive.js';

export type { NodeWebhookRequest } from './node-body.js';

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
  /** Sends `100 Continue`: used by {@link NodeWebhookHandler.checkContinue} once the handler reads the body. */
  writeContinue?(): unknown;
}

/**
 * A `node:http` request listener, which is also an Express route handler.
 *
 * @example
 * ```ts
 * const listener: NodeWebhookHandler = toNodeHandler(createWebhookHandler({ on: {} }));
 * ```
 */
export interface NodeWebhookHandler {
  (req: NodeWebhookRequest, res: NodeWebhookResponse): void;
  /**
   * The same endpoint as a listener of the server's `checkContinue` event, for a request sent with
   * `Expect: 100-continue` (curl's default above 1 MiB): `100 Continue` is sent only once the handler reads the
   * body, so a body that is too large by its `Content-Length` is refused with 413 before it is uploaded.
   *
   * @example
   * ```ts
   * const webhooks = toNodeHandler(handler);
   * createServer(webhooks).on('checkContinue', webhooks.checkContinue).listen(3000);
   * ```
   */
  readonly checkContinue: (req: NodeWebhookRequest, res: NodeWebhookResponse) => void;
}

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
  const listener = (req: NodeWebhookRequest, res: NodeWebhookResponse, awaitingContinue: boolean): void => {
    handle(handler, req, res, warnOnce, awaitingContinue).catch((error: unknown) => {
      console.error('workflow-automation-sdk: webhook request failed', error);
      if (res.writableEnded) return;
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Webhook handler failed' }));
    });
  };
  return Object.assign((req: NodeWebhookRequest, res: NodeWebhookResponse) => listener(req, res, false), {
    checkContinue: (req: NodeWebhookRequest, res: NodeWebhookResponse) => listener(req, res, true),
  });
}

async function handle(
  handler: WebhookHandler,
  req: NodeWebhookRequest,
  res: NodeWebhookResponse,
  warnOnce: () => void,
  awaitingContinue: boolean,
): Promise<void> {
  // With `checkContinue`, the sender waits for `100 Continue` before uploading: sent when the handler first reads.
  let continueSent = !awaitingContinue;
  const sendContinue = (): void => {
    if (!continueSent) res.writeContinue?.();
    continueSent = true;
  };
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
        init.body = streamOf(req, sendContinue);
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
  // A body not received to the end: a sender still uploading a body too large gets its 413 and the rest is
  // drained (bounded), so that closing does not reset the answer away. Otherwise (a 408 for a sender too slow,
  // a 413 before `100 Continue`, which the sender will not upload) the connection is closed once answered.
  const early = !req.complete;
  const draining = early && response.status === 413 && continueSent && req.destroy !== undefined;
  if (early && !draining) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  res.end(body);
  if (draining) drain(req);
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
