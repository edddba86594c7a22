/**
 * The Node transport: `node:http` and `node:https` over one keep-alive agent per client, where `fetch` is the
 * slow path. The built-ins come from `process.getBuiltinModule` when the first request is sent, never from an
 * import, so no browser bundler or Worker sees them. Retries, redirects and limits stay above the boundary.
 */
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type * as Zlib from 'node:zlib';
import { statedProtocol } from './agent-protocol.js';
import { NULL_BODY, stoppable, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

type Http = typeof import('node:http');
type Https = typeof import('node:https');
type Readable = IncomingMessage | Zlib.Gunzip;

interface Builtins {
  http: Http;
  https: Https;
  zlib: typeof Zlib;
  pipeline: typeof import('node:stream').pipeline;
}

/** What {@link nodeTransport} sends with: its own agents, or the one a user gave. */
export interface NodeTransportOptions {
  /**
   * Used instead of the transport's own keep-alive agents (proxies, client certificates); Node's own agent of
   * one protocol only for that protocol's requests.
   */
  agent?: Agent | undefined;
}

// Closing idle sockets before a server does avoids most reuse races; a server's `Keep-Alive: timeout=` hint,
// which Node's agent honours, shortens it further.
const KEEP_ALIVE = { keepAlive: true, scheduling: 'lifo', timeout: 4_000 } as const;
// What `fetch` decodes, so both transports ask for the same encodings.
const ACCEPT_ENCODING = 'gzip, deflate, br';
// As many content codings as fetch (undici) decodes: more is refused, as it refuses them.
const MAX_CODINGS = 5;

/** Node's built-ins, or `undefined` where there are none (browsers, Workers, Node before `getBuiltinModule`). */
export function nodeBuiltins(): Builtins | undefined {
  const load = globalThis.process?.getBuiltinModule;
  if (typeof load !== 'function') return undefined;
  return {
    http: load('node:http') as Http,
    https: load('node:https') as Https,
    zlib: load('node:zlib') as typeof Zlib,
    pipeline: (load('node:stream') as typeof import('node:stream')).pipeline,
  };
}

/**
 * A transport over `node:http`/`node:https`. Without an `agent`, one keep-alive agent per protocol, made on
 * first use; its idle sockets are unreferenced, so they never keep a process alive.
 */
export function nodeTransport(options: NodeTransportOptions = {}): Transport {
  let ready: { builtins: Builtins; http: Agent; https: Agent } | undefined;
  return (request) => {
    if (!ready) {
      const builtins = nodeBuiltins();
      if (!builtins) return Promise.reject(new TypeError('node:http is not available in this runtime'));
      const { http, https } = builtins;
      // The caller's agent, unless it is Node's own of the other protocol (a download_url may be either): then ours.
      const given = (protocol: string) => ((statedProtocol(options.agent) ?? protocol) === protocol ? options.agent : undefined);
      ready = { builtins, http: given('http:') ?? new http.Agent(KEEP_ALIVE), https: given('https:') ?? new https.Agent(KEEP_ALIVE) };
    }
    const secure = request.url.startsWith('https:');
    return send({ request, builtins: ready.builtins, agent: secure ? ready.https : ready.http, secure });
  };
}

interface Send {
  request: TransportRequest;
  builtins: Builtins;
  agent: Agent;
  secure: boolean;
}

function send(call: Send): Promise<TransportResponse> {
  const { request, builtins, agent, secure } = call;
  const { abort } = request;
  if (abort.aborted) return Promise.reject(abort.reason);
  return new Promise((resolve, reject) => {
    // Called through the module object, not destructured, so tools that patch `http.request` (nock) still apply.
    const { method, url } = request;
    // Names are lower case, so the call's own `accept-encoding` replaces this default.
    const headers = { 'accept-encoding': ACCEPT_ENCODING, ...request.headers };
    const req: ClientRequest = (secure ? builtins.https : builtins.http).request(url, { method, headers, agent });
    let responded = false;
    let written = false;
    const onAbort = (reason: unknown): void => {
      req.destroy(reason as Error);
    };
    abort.addListener(onAbort);
    const done = (): void => abort.removeListener(onAbort);
    req.on('error', (error: Error & { code?: string }) => {
      if (responded) return;
      done();
      if (abort.aborted) return reject(abort.reason);
      // A pooled socket found closed before a byte was written: nothing reached the server, so another socket
      // takes the request. Once written, a failure is the attempt's, for the retry policy to judge.
      if (req.reusedSocket && !written) return resolve(send(call));
      reject(new TypeError(error.message, { cause: error }));
    });
    // A switch of protocols, or a `100 Continue`, the SDK never asked for (it sends no `Expect`): the connection
    // is dropped at once, as fetch (undici) drops it, instead of waiting out the attempt. With an `Upgrade`
    // header Node emits `upgrade`.
    const unasked = (socket: { destroy(): void } | null, what: string): void => {
      responded = true;
      socket?.destroy();
      req.destroy();
      done();
      reject(new TypeError(`The server sent ${what} unasked; the connection was dropped`));
    };
    req.once('upgrade', (_res, socket) => unasked(socket, 'a switch of protocols (101)'));
    req.once('continue', () => unasked(req.socket, '100 Continue'));
    req.once('response', (res) => {
      if (res.statusCode === 101) return unasked(res.socket, 'a switch of protocols (101)');
      responded = true;
      const status = res.statusCode ?? 0;
      const headers = headersOf(res.rawHeaders);
      const broken = brokenResponse(res, status, headers, request.method);
      if (broken) {
        res.destroy();
        done();
        return reject(new TypeError(broken));
      }
      res.once('close', done);
      resolve({ status, headers, body: bodyOf(res, request, headers, builtins) });
    });
    const write = (): void => {
      if (req.destroyed) return;
      const { socket } = req;
      if (req.reusedSocket && (socket?.destroyed || socket?.readableEnded)) return void req.destroy(new Error('socket closed'));
      written = true;
      req.end(request.body);
    };
    // A pooled socket may have been closed by its server as its last response ended (without `Connection:
    // close`), the close not read yet. Every request on one first waits for one more read of the sockets (two
    // turns of the event loop, no timer), as fetch (undici) waits, for that close to arrive: a request the
    // server may act on is never written to a socket it is closing, and never sent twice.
    if (req.reusedSocket) setImmediate(setImmediate, write);
    else write();
  });
}

function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * Why a response is refused as `fetch` (undici) refuses it, or `undefined`: a status below 100 (Node reads
 * `000` as 0), or more content codings than undici decodes, each one a decoder (counted as undici counts them,
 * only where there is a body to decode).
 */
function brokenResponse(res: IncomingMessage, status: number, headers: Headers, method: string): string | undefined {
  if (status < 100) return `Bad status line "HTTP/${res.httpVersion} ${String(status).padStart(3, '0')}": a status is 100 to 999`;
  const encoding = headers.get('content-encoding');
  if (encoding === null || method === 'HEAD' || NULL_BODY.has(status)) return undefined;
  const count = encoding.split(',').length;
  return count > MAX_CODINGS ? `too many content-encodings in response: ${count}, maximum allowed is ${MAX_CODINGS}` : undefined;
}

/** The body as decoded bytes; reading stops, and the socket is dropped, the moment the reader stops. */
function bodyOf(res: IncomingMessage, request: TransportRequest, headers: Headers, builtins: Builtins): AsyncIterable<Uint8Array> | null {
  if (request.method === 'HEAD' || NULL_BODY.has(res.statusCode ?? 0)) {
    res.resume();
    return null;
  }
  // From the headers already read: `res.headers` would parse them all a second time.
  const decoders = decodersFor(headers.get('content-encoding'), builtins.zlib);
  // A decoder's error, or the reader's stop, destroys every stream of the chain, the response included.
  const stream = decoders.length === 0 ? res : (builtins.pipeline(res, ...(decoders as [Zlib.Gunzip]), () => undefined) as Readable);
  const chunks = stream[Symbol.asyncIterator]();
  const { abort } = request;
  return stoppable(
    // An abort destroys the response, which then fails as a reset would: a read says why it stopped, as `fetch`'s does.
    () => chunks.next().catch((error: unknown) => Promise.reject(abort.aborted ? abort.reason : error)),
    () => stream.destroy(),
  );
}

/** Decoders in the order to apply them (the last coding listed was applied last); none for an unknown coding. */
function decodersFor(encoding: string | null, zlib: typeof Zlib): Zlib.Gunzip[] {
  if (encoding === null) return [];
  // Lenient at the end, as `fetch` is: a body cut short is the connection's error, not the decoder's.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const brotliFlush = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };
  const decoders: Zlib.Gunzip[] = [];
  for (const coding of encoding.toLowerCase().split(',').reverse()) {
    const name = coding.trim();
    if (name === 'gzip' || name === 'x-gzip') decoders.push(zlib.createGunzip(flush));
    else if (name === 'deflate') decoders.push(zlib.createInflate(flush));
    else if (name === 'br') decoders.push(zlib.createBrotliDecompress(brotliFlush) as unknown as Zlib.Gunzip);
    else if (name !== 'identity' && name !== '') return [];
  }
  return decoders;
}
