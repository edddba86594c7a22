/**
 * The HTTP face of the mock service: a real `node:http` server on loopback, for integration tests, the demo
 * and `wfa mock`. It only converts between Node's request/response and Fetch's; all behaviour is the
 * service's. Node only, and no msw.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockNetworkError } from './faults.js';
import { createMockService } from './service.js';
import type { MockService, MockServiceOptions } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

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

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  // A copy into a plain Uint8Array: what Fetch's BodyInit accepts across @types/node versions.
  return new Uint8Array(Buffer.concat(chunks));
}

async function toRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  // The Host header, so that download URLs point where the client connected.
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? fallbackHost}`);
  return new Request(url, { method, headers, body, signal });
}

async function writeResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
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

function writePlainError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message, code: status === 413 ? 'payload_too_large' : 'bad_request' } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

async function respond(service: MockService, req: IncomingMessage, res: ServerResponse, fallbackHost: string) {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let request: Request;
  try {
    request = await toRequest(req, fallbackHost, controller.signal);
  } catch (error) {
    if (error instanceof BodyTooLarge) writePlainError(res, 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    else writePlainError(res, 400, 'Malformed request');
    return;
  }
  try {
    await writeResponse(res, await service.handle(request), request.method);
  } catch (error) {
    if (error instanceof MockNetworkError) req.socket.destroy();
    else if (!controller.signal.aborted) writePlainError(res, 500, 'Mock server error');
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
  const { port = 0, host = '127.0.0.1', service: given, ...serviceOptions } = options;
  const service = given ?? createMockService(serviceOptions);
  let fallbackHost = host;
  const server = createServer((req, res) => {
    void respond(service, req, res, fallbackHost);
  });
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
