/**
 * What the HTTP server answers itself, for requests that never reach the service: still the service's error
 * shape, with an `x-request-id`. Some Node never hands to a request handler (CONNECT, a method or line its
 * parser refuses); those are written on the socket, which then closes.
 */

import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestId, type Random } from './random.js';
import { BODY_TOO_LARGE, MAX_BODY_BYTES } from './validate.js';

/** Methods Fetch refuses to carry, so the service never sees them: TRACE and TRACK would echo the request. */
export const UNSERVED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A request the server answered itself, never handing it to the service. */
export interface MockRefusal {
  /** The status answered: 400, 405, 408, 413, 417, 431, 500 or 501. */
  status: number;
  /** The answer's error message. */
  message: string;
  /** The request's method, where Node parsed that far. */
  method?: string | undefined;
  /** The request's path without its query (of an absolute-form target, its path alone), where Node parsed that far. */
  path?: string | undefined;
}

/** What the server answers by itself with: the ids of its `x-request-id`, and who is told of each refusal. */
export interface Refuser {
  ids: Random;
  onRefused?: ((refusal: MockRefusal) => void) | undefined;
}

/** A request target's path, no query: of an absolute-form one (`http://u:p@host/x`) only its path, so no refusal repeats a password. */
function targetPath(target: string): string | undefined {
  if (target.startsWith('/')) return target.split('?')[0];
  return URL.canParse(target) ? new URL(target).pathname : undefined;
}

/** The body and headers of an answer the server gives itself; `onRefused` is told of it. */
export function errorAnswer({ ids, onRefused }: Refuser, status: number, message: string, code: string, req?: IncomingMessage) {
  try {
    onRefused?.({ status, message, method: req?.method, path: req?.url === undefined ? undefined : targetPath(req.url) });
  } catch {
    // An observer's failure is not the answer's.
  }
  const body = JSON.stringify({ error: { message, code } });
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': requestId(ids) };
  return { body, headers };
}

/** Answers a request the server refuses itself, then closes the connection (its body is never read). */
function answerAndClose(res: ServerResponse, self: Refuser, [status, message, code]: Refusal, req: IncomingMessage): void {
  const { body, headers } = errorAnswer(self, status, message, code, req);
  res.writeHead(status, { ...headers, connection: 'close' });
  res.end(body);
}

/**
 * A request sent with `Expect: 100-continue` (Node's `checkContinue`): one whose declared length is over the
 * service's limit is refused before `100 Continue`, so the sender never uploads it, and the connection closes
 * (its body was never read). Returns whether it was refused; otherwise the sender is asked for the body.
 */
export function refusedBeforeContinue(req: IncomingMessage, res: ServerResponse, self: Refuser): boolean {
  if (!(Number(req.headers['content-length']) > MAX_BODY_BYTES)) {
    res.writeContinue();
    return false;
  }
  answerAndClose(res, self, [BODY_TOO_LARGE.status, BODY_TOO_LARGE.message, BODY_TOO_LARGE.code], req);
  return true;
}

/** Any other `Expect` (Node's `checkExpectation`) is a 417, as Node would answer, but with an `x-request-id`. */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse, self: Refuser): void {
  answerAndClose(res, self, [417, `Unsupported Expect: ${req.headers.expect}`, 'expectation_failed'], req);
}

/**
 * An HTTP/1.1 request without `Host` is a 400, as Node would answer (the server turns its own check off, to
 * answer with an `x-request-id`). Returns whether it was refused.
 */
export function refusedWithoutHost(req: IncomingMessage, res: ServerResponse, self: Refuser): boolean {
  if (req.headers.host !== undefined || req.httpVersion === '1.0') return false;
  answerAndClose(res, self, [400, 'Missing Host header', 'bad_request'], req);
  return true;
}

/** Writes an answer on a socket Node has given up parsing, then closes it. */
function answerOnSocket(socket: Duplex, self: Refuser, [status, message, code]: Refusal, req?: IncomingMessage): void {
  const { body, headers } = errorAnswer(self, status, message, code, req);
  const head = Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.on('error', () => undefined);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`);
}

/** `CONNECT` never reaches a request handler in Node: it is answered on the socket, which then closes. */
export function refuseConnect(req: IncomingMessage, socket: Duplex, self: Refuser): void {
  answerOnSocket(socket, self, [405, 'CONNECT is not allowed: the service is not a proxy', 'method_not_allowed'], req);
}

/**
 * A request Node's parser refused (Node's `clientError`). Method names are case-sensitive, so `get` is as
 * unknown as `BREW`: a 501, as RFC 9110 asks; TRACK (Node knows no such method) a 405, as TRACE is.
 * `after` is the socket's last unfinished response, which must go out first, unless the error is in its body.
 */
export function refuseUnparsed(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
  self: Refuser,
  after?: ServerResponse,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  // A bad chunk in the body still being read is that request's: it is never answered, so the refusal is its.
  if (after && !after.writableFinished && after.req.complete) return void after.once('close', () => refuseUnparsed(error, socket, self));
  answerOnSocket(socket, self, refusalOf(error), after?.req.complete === false ? after.req : undefined);
}

type Refusal = [status: number, message: string, code: string];

function refusalOf(error: Error & { code?: string; rawPacket?: Buffer }): Refusal {
  if (error.code === 'HPE_INVALID_METHOD') {
    const method = /^[^ ]*/.exec(error.rawPacket?.toString('latin1') ?? '')?.[0] ?? '';
    if (UNSERVED_METHODS.has(method)) return [405, `${method} is not allowed`, 'method_not_allowed'];
    return [501, 'Unknown method (method names are case-sensitive)', 'not_implemented'];
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'Request headers too large', 'headers_too_large'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request timed out', 'request_timeout'];
  return [400, 'Malformed request', 'bad_request'];
}
