/**
 * A real `node:http` server on 127.0.0.1 that misbehaves on command and logs every request it receives.
 *
 * Not msw: the faults that matter (a reset socket, a response that stops after its headers, a refused
 * connection) only exist on real sockets. Each test starts its own server (a free port), tells it what to do
 * with the next requests (`plan`) and with every other one (`otherwise`), runs the SDK against it, and reads
 * the log: how many attempts arrived, when, with which raw path and headers.
 *
 * Everything is bounded: `close()` destroys every socket (stalled ones included) and resolves once the port is
 * released, so a test that ends, however it ends, leaves nothing open.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as the server received it, after its body was read to the end. */
export interface LoggedRequest {
  /** 1 for the first request this server received. */
  readonly seq: number;
  /** `performance.now()` when the request's body had been read. */
  readonly at: number;
  readonly method: string;
  /** The request target exactly as it came off the wire: `/v1/workflows/..%2Fauth?x=1`. */
  readonly rawUrl: string;
  /** The raw path, without the query. */
  readonly path: string;
  /** The query, parsed. */
  readonly query: URLSearchParams;
  /** Header names in lower case, as Node gives them. */
  readonly headers: IncomingHttpHeaders;
  /** The body as text (`''` when there was none). */
  readonly body: string;
}

/**
 * What the server does with one request. Every fault reads the whole request first, so a request that is in
 * the log was certainly received in full (that is what "the service may have acted on it" means).
 */
export type Fault =
  /** A JSON answer. */
  | { readonly kind: 'json'; readonly status?: number; readonly body: unknown; readonly headers?: Record<string, string> }
  /** Any body as given, with `content-length`; `''` is an empty body. */
  | { readonly kind: 'raw'; readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  /** The connection is destroyed after the request was read, before a single byte of response. */
  | { readonly kind: 'reset' }
  /** Status line, headers (announcing a longer body) and part of the body; then the connection is destroyed. */
  | { readonly kind: 'reset-mid-response'; readonly status: number; readonly partial: string }
  /** Status line, headers and part of the body; then nothing, ever (until the server closes). */
  | { readonly kind: 'stall-after-headers'; readonly status: number; readonly partial: string }
  /** No answer at all (until the server closes). */
  | { readonly kind: 'stall' }
  /** A big body written in chunks, with backpressure, so the server holds only one chunk. */
  | {
      readonly kind: 'stream';
      readonly status: number;
      readonly contentType: string;
      readonly head: string;
      readonly fillBytes: number;
      readonly tail: string;
    }
  /** Anything else: the handler writes the response itself. */
  | { readonly kind: 'custom'; readonly handle: (req: IncomingMessage, res: ServerResponse, logged: LoggedRequest) => void };

/** A fault, or a function choosing one from the request (and the requests before it). */
export type Behaviour = Fault | ((request: LoggedRequest, log: readonly LoggedRequest[]) => Fault);

/** A workflow body that passes the SDK's schema, for answers that should succeed. */
export function workflowBody(id = 'wf_1', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: 'Notify on order',
    platform: 'zapier',
    status: 'building',
    created_at: '2024-01-01T00:00:00.000Z',
    build_id: `bld_${id}`,
    ...extra,
  };
}

/** The catalogue of faults, by the names the tests use. */
export const faults = {
  ok: (body: unknown = workflowBody(), status = 200, headers: Record<string, string> = {}): Fault => ({
    kind: 'json',
    status,
    body,
    headers,
  }),
  noContent: (): Fault => ({ kind: 'raw', status: 204, body: '' }),
  reset: (): Fault => ({ kind: 'reset' }),
  resetMidResponse: (): Fault => ({ kind: 'reset-mid-response', status: 200, partial: '{"id":"wf_1","name":"Noti' }),
  stallAfterHeaders: (): Fault => ({ kind: 'stall-after-headers', status: 200, partial: '{"id":"wf_1",' }),
  stall: (): Fault => ({ kind: 'stall' }),
  /** A complete HTTP response whose JSON stops in the middle. */
  truncatedJson: (): Fault => ({
    kind: 'raw',
    status: 200,
    body: '{"id":"wf_1","name":"Notify on ord',
    headers: { 'content-type': 'application/json' },
  }),
  /** What nginx answers when the service behind it is down. */
  htmlBadGateway: (): Fault => ({
    kind: 'raw',
    status: 502,
    body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n',
    headers: { 'content-type': 'text/html' },
  }),
  emptyServerError: (): Fault => ({ kind: 'raw', status: 500, body: '' }),
  status: (status: number, body: unknown = { error: { message: `status ${status}` } }, headers: Record<string, string> = {}): Fault => ({
    kind: 'json',
    status,
    body,
    headers,
  }),
  /** A 200 whose body is not JSON at all. */
  notJson: (): Fault => ({ kind: 'raw', status: 200, body: 'OK', headers: { 'content-type': 'text/plain' } }),
  /** A 429, with the given rate-limit headers (none: no `Retry-After`). */
  rateLimited: (headers: Record<string, string> = {}): Fault => ({
    kind: 'raw',
    status: 429,
    body: '{"error":"Too many requests"}',
    headers: { 'content-type': 'application/json', ...headers },
  }),
  redirect: (status: number, location: string): Fault => ({ kind: 'raw', status, body: '', headers: { location } }),
} as const;

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every request received, oldest first (empty when started with `keepLog: false`). */
  readonly log: readonly LoggedRequest[];
  /** How many requests were received, whether or not they are kept in the log. */
  readonly received: number;
  /** The next requests get these behaviours, one each, in order; later ones get `otherwise`. */
  plan(...behaviours: Behaviour[]): FaultServer;
  /** What every request gets once the plan is used up. Default: `faults.ok()`. */
  otherwise(behaviour: Behaviour): FaultServer;
  /** Requests received whose path starts with `pathPrefix` (all of them without one). */
  requests(pathPrefix?: string): LoggedRequest[];
  /** Forgets the log and the plan. */
  reset(): void;
  /** Destroys every connection and stops listening. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link startFaultServer}. */
export interface FaultServerOptions {
  /** What every request gets (default `faults.ok()`). */
  otherwise?: Behaviour;
  /**
   * `false`: count requests but keep none, so that a long run's heap figures measure the SDK, not the log.
   * Default `true`.
   */
  keepLog?: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61); // 'a'

/**
 * Starts a fault server on 127.0.0.1 and a free port.
 *
 * @example
 * ```ts
 * const server = await startFaultServer();
 * server.plan(faults.reset(), faults.htmlBadGateway()).otherwise(faults.ok());
 * await client.workflows.get('wf_1');
 * expect(server.log).toHaveLength(3);
 * await server.close();
 * ```
 */
export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const log: LoggedRequest[] = [];
  const planned: Behaviour[] = [];
  let fallback: Behaviour = options.otherwise ?? faults.ok();
  const sockets = new Set<Socket>();
  const keepLog = options.keepLog ?? true;
  let received = 0;

  // Large `maxHeaderSize`: a 5000-character unicode id makes a 45 KB request line, and the test must see it.
  const server = createServer({ maxHeaderSize: 1024 * 1024, keepAliveTimeout: 5_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined);
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      received++;
      const logged: LoggedRequest = {
        seq: received,
        at: performance.now(),
        method: req.method ?? 'GET',
        rawUrl,
        path: q === -1 ? rawUrl : rawUrl.slice(0, q),
        query: new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (keepLog) log.push(logged);
      const behaviour = planned.length > 0 ? planned.shift()! : fallback;
      const fault = typeof behaviour === 'function' ? behaviour(logged, log) : behaviour;
      act(fault, req, res, logged);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Parse errors and the like must not crash the test process; the client sees a closed connection.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog: 1000 clients connecting at once must queue, not be dropped.
    server.listen(0, '127.0.0.1', 4096, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  const faultServer: FaultServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    get received() {
      return received;
    },
    plan(...behaviours) {
      planned.push(...behaviours);
      return faultServer;
    },
    otherwise(behaviour) {
      fallback = behaviour;
      return faultServer;
    },
    requests(pathPrefix) {
      return pathPrefix === undefined ? [...log] : log.filter((r) => r.path.startsWith(pathPrefix));
    },
    reset() {
      log.length = 0;
      received = 0;
      planned.length = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
  return faultServer;
}

function act(fault: Fault, req: IncomingMessage, res: ServerResponse, logged: LoggedRequest): void {
  switch (fault.kind) {
    case 'json': {
      const body = JSON.stringify(fault.body);
      res.writeHead(fault.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        ...fault.headers,
      });
      res.end(body);
      return;
    }
    case 'raw': {
      const headers: Record<string, string> = { ...fault.headers };
      if (fault.status !== 204 && fault.status !== 304) headers['content-length'] = String(Buffer.byteLength(fault.body));
      res.writeHead(fault.status, headers);
      res.end(fault.status === 204 || fault.status === 304 ? undefined : fault.body);
      return;
    }
    case 'reset':
      req.socket.destroy();
      return;
    case 'reset-mid-response':
      res.writeHead(fault.status, { 'content-type': 'application/json', 'content-length': String(fault.partial.length + 1000) });
      res.write(fault.partial, () => {
        // Give the bytes time to reach the client, so it really is mid-response.
        setTimeout(() => req.socket.destroy(), 100);
      });
      return;
    case 'stall-after-headers':
      res.writeHead(fault.status, { 'content-type': 'application/json', 'content-length': String(fault.partial.length + 1000) });
      res.write(fault.partial);
      return;
    case 'stall':
      return;
    case 'stream': {
      res.writeHead(fault.status, { 'content-type': fault.contentType });
      res.write(fault.head);
      let sent = 0;
      const pump = (): void => {
        while (sent < fault.fillBytes) {
          const n = Math.min(CHUNK.length, fault.fillBytes - sent);
          sent += n;
          if (!res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(fault.tail);
      };
      res.on('error', () => undefined);
      pump();
      return;
    }
    case 'custom':
      fault.handle(req, res, logged);
      return;
  }
}

/**
 * The URL of a port on 127.0.0.1 where nothing listens: a connection to it is refused. The port was just
 * released by the OS, so nothing else is on it.
 */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
