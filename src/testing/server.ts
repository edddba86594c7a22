/**
 * The HTTP face of the mock service: a real `node:http` server on loopback, for integration tests, the demo
 * and `wfa mock`. It only converts between Node's request/response and Fetch's; all behaviour is the
 * service's. Node only, and no msw.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { MockNetworkError } from './faults.js';
import { createRandom, randomSeed } from './random.js';
import { createMockService } from './service.js';
import type { MockService, MockServiceOptions } from './types.js';
import { discardRest, readBody } from './server-body.js';
import {
  errorAnswer,
  type MockRefusal,
  refuseConnect,
  refusedBeforeContinue,
  refusedWithoutHost,
  refuseExpectation,
  type Refuser,
  refuseUnparsed,
  UNSERVED_METHODS,
} from './server-refusals.js';

/**
 * Options of {@link startMockServer}: where to listen, plus the service's options (or a service).
 *
 * @example
 * ```ts
 * await startMockServer({ port: 4010, buildDurationMs: 2000, prefixes: ['/v1'] });
 * ```
 */
export interface MockServerOptions extends MockServiceOptions {
  /** Default 0: a free port, read back from `url`. */
  port?: number | undefined;
  /** Default `'127.0.0.1'`. */
  host?: string | undefined;
  /** Serve this service instead of creating one; the other service options are then not used. */
  service?: MockService | undefined;
  /**
   * Told of each request the server answers itself, never handing it to the service: one Node's parser refuses
   * (a bad chunk included), CONNECT or TRACE, a body declared too large, the server's own failure.
   */
  onRefused?: ((refusal: MockRefusal) => void) | undefined;
}

/**
 * A running mock server.
 *
 * @example
 * ```ts
 * const { url, apiKey, close } = await startMockServer();
 * const client = new Client({ baseUrl: url, apiKey });
 * await close();
 * ```
 */
export interface MockServer {
  /** The origin, without a trailing slash: `http://127.0.0.1:4010`. */
  url: string;
  /** The port it listens on: the free one chosen when `port` was 0. */
  port: number;
  /** A key valid on this server, issued to the default user `demo@example.com`. */
  apiKey: string;
  /** The service behind the server, to inject faults (`failNext`), reset it, or read what it stored. */
  service: MockService;
  /**
   * Stops listening, destroys open connections, and stops the service's timers and deliveries (unless the
   * service was passed in), so that the process can exit. Idempotent.
   */
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Promise<{ request: Request; cut: boolean }> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const { body, cut } = method === 'GET' || method === 'HEAD' ? { body: undefined, cut: false } : await readBody(req);
  // The Host header, so that download URLs point where the client connected.
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? fallbackHost}`);
  return { request: new Request(url, { method, headers, body, signal }), cut };
}

async function writeResponse(res: ServerResponse, response: Response, method: string, close = false): Promise<void> {
  // A body of declared length (an artifact) is streamed, with backpressure; one that fails resets the socket.
  if (response.body !== null && method !== 'HEAD' && response.headers.has('content-length')) {
    await streamResponse(res, response, response.body);
    return;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = String(body.byteLength);
  if (close) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : body);
}

async function streamResponse(res: ServerResponse, response: Response, body: ReadableStream<Uint8Array>): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) throw new Error('client gone');
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
    }
    res.end();
  } catch {
    void reader.cancel().catch(() => undefined);
    res.destroy();
  }
}

function writePlainError(res: ServerResponse, self: Refuser, status: number, message: string, code = 'bad_request'): void {
  // A connection already answered (a bad chunk in this request's body is refused on the socket) takes no more.
  if (res.headersSent || !res.req.socket.writable) {
    res.destroy();
    return;
  }
  const { body, headers } = errorAnswer(self, status, message, code, res.req);
  res.writeHead(status, headers);
  res.end(body);
}

async function respond(service: MockService, req: IncomingMessage, res: ServerResponse, fallbackHost: string, self: Refuser) {
  if (UNSERVED_METHODS.has(req.method ?? '')) {
    writePlainError(res, self, 405, `${req.method} is not allowed`, 'method_not_allowed');
    return;
  }
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let request: Request;
  let cut: boolean;
  try {
    ({ request, cut } = await toRequest(req, fallbackHost, controller.signal));
  } catch {
    writePlainError(res, self, 400, 'Malformed request');
    return;
  }
  try {
    const response = await service.handle(request);
    if (cut && !(await discardRest(req))) {
      req.socket.destroy();
      return;
    }
    await writeResponse(res, response, request.method, cut);
  } catch (error) {
    if (error instanceof MockNetworkError) req.socket.destroy();
    else if (!controller.signal.aborted) writePlainError(res, self, 500, 'Mock server error', 'internal_error');
  }
}

// A wildcard address is where the server listens, not an address a client can call.
function clientHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/**
 * Starts the mock service as an HTTP server (default `127.0.0.1`, a free port).
 *
 * @example
 * ```ts
 * const server = await startMockServer({ port: 4010 });
 * const res = await fetch(`${server.url}/v1/workflows`, { headers: { 'X-API-Key': server.apiKey } });
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', service: given, onRefused, ...serviceOptions } = options;
  const service = given ?? createMockService(serviceOptions);
  let fallbackHost = host;
  // Ids for the answers the server gives itself; the service's own come from its seeded stream.
  const self: Refuser = { ids: createRandom(randomSeed()), onRefused };
  // Each connection's latest response: a request Node cannot parse is answered after it.
  const latest = new WeakMap<Duplex, ServerResponse>();
  // Node's own answers (a missing Host, an unknown Expect) carry no x-request-id: the server gives them itself.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    latest.set(req.socket, res);
    if (!refusedWithoutHost(req, res, self)) void respond(service, req, res, fallbackHost, self);
  });
  server.on('checkContinue', (req, res) => {
    latest.set(req.socket, res);
    if (!refusedWithoutHost(req, res, self) && !refusedBeforeContinue(req, res, self)) void respond(service, req, res, fallbackHost, self);
  });
  server.on('checkExpectation', (req, res) => {
    latest.set(req.socket, res);
    if (!refusedWithoutHost(req, res, self)) refuseExpectation(req, res, self);
  });
  server.on('connect', (req, socket) => refuseConnect(req, socket, self));
  server.on('clientError', (error, socket) => refuseUnparsed(error, socket, self, latest.get(socket)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if (!given) service.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  fallbackHost = `${clientHost(address)}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${fallbackHost}`,
    port: address.port,
    apiKey: service.apiKey,
    service,
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!given) service.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
