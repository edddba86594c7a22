/**
 * The Node transport alone, against servers on 127.0.0.1 that each test starts: what it sends, what it gives
 * back (decoded), and how each fault of the wire, of TLS and of keep-alive reaches the core.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { Client } from '../../src/index.js';
import { nodeTransport } from '../../src/core/node-transport.js';
import { AbortSource } from '../../src/core/timing.js';
import type { Transport, TransportRequest } from '../../src/core/transport.js';

type Handler = (req: IncomingMessage, res: ServerResponse, seen: { requests: number; connections: number }) => void;

interface Served {
  url: string;
  seen: { requests: number; connections: number };
  sockets: Socket[];
}

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server on 127.0.0.1 that counts requests and connections, stopped after the test. */
async function serve(handler: Handler, tls?: { key: Buffer; cert: Buffer }): Promise<Served> {
  const seen = { requests: 0, connections: 0 };
  const sockets: Socket[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    seen.requests++;
    handler(req, res, seen);
  };
  const server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  server.keepAliveTimeout = 60_000;
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    seen.connections++;
    sockets.push(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen, sockets };
}

const get = (url: string, more: Partial<TransportRequest> = {}): TransportRequest => ({
  method: 'GET',
  url,
  headers: {},
  body: undefined,
  abort: new AbortSource(),
  ...more,
});

async function text(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** What a failed send or body read carried: Node's code, on the error or its cause. */
function codeOf(error: unknown): string | undefined {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return cause?.code ?? code;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('did not fail'),
    (error: unknown) => error,
  );

describe('a request', () => {
  it('sends method, headers and body, with a Content-Length and the encodings fetch asks for', async () => {
    let received: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        received = { method: req.method, headers: req.headers, body };
        res.end();
      });
    });
    const body = JSON.stringify({ name: 'ü' });
    await nodeTransport()(get(`${url}/workflows?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect(received.method).toBe('POST');
    expect(received.body).toBe(body);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('leaves an Accept-Encoding of the caller alone, in any case', async () => {
    let received: string[] = [];
    const { url } = await serve((req, res) => {
      received = req.rawHeaders.filter((_, i) => req.rawHeaders[i - 1]?.toLowerCase() === 'accept-encoding');
      res.end();
    });
    await nodeTransport()(get(url, { headers: { 'Accept-Encoding': 'identity' } }));
    expect(received).toEqual(['identity']);
  });

  it('gives status, every header (repeated ones too) and the body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(201, { 'x-request-id': 'req_1', 'set-cookie': ['a=1', 'b=2'] });
      res.end('{"id":"wf_1"}');
    });
    const response = await nodeTransport()(get(url));
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await text(response.body)).toBe('{"id":"wf_1"}');
  });

  it('has no body for HEAD, 204 and 304, as fetch gives them', async () => {
    const { url } = await serve((req, res) => {
      res.statusCode = req.url === '/304' ? 304 : req.url === '/204' ? 204 : 200;
      res.end();
    });
    const send = nodeTransport();
    expect((await send(get(`${url}/204`))).body).toBeNull();
    expect((await send(get(`${url}/304`))).body).toBeNull();
    expect((await send(get(url, { method: 'HEAD' }))).body).toBeNull();
  });

  it('does not follow redirects', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const response = await nodeTransport()(get(url));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(seen.requests).toBe(1);
  });

  it('reuses one keep-alive connection for calls in sequence', async () => {
    const { url, seen } = await serve((_req, res) => res.end('ok'));
    const send = nodeTransport();
    for (let i = 0; i < 3; i++) await text((await send(get(url))).body);
    expect(seen.connections).toBe(1);
  });

  it('uses the agent given instead of its own', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const agent = new Agent({ keepAlive: true });
    await text((await nodeTransport({ agent })(get(url))).body);
    // The connection went back to the pool of the agent given.
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    agent.destroy();
  });
});

describe('compressed bodies', () => {
  const json = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `wf_${i}` })) });
  const encoded: Record<string, Buffer> = {
    gzip: gzipSync(json),
    'x-gzip': gzipSync(json),
    deflate: deflateSync(json),
    br: brotliCompressSync(json),
    'gzip, br': brotliCompressSync(gzipSync(json)),
    identity: Buffer.from(json),
  };

  it.each(Object.keys(encoded))('are decoded: %s', async (encoding) => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': encoding, 'content-length': encoded[encoding]!.length });
      res.end(encoded[encoding]);
    });
    expect(await text((await nodeTransport()(get(url))).body)).toBe(json);
  });

  it('with a coding it does not know, arrive as sent', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd' });
      res.end('as sent');
    });
    expect(await text((await nodeTransport()(get(url))).body)).toBe('as sent');
  });

  it('are decoded as read: a reader that stops early ends the stream and drops the connection', async () => {
    // 16 MiB of zeros, 16 KiB on the wire: the reader stops after 1 MiB.
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
    const { url, seen, sockets } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    });
    const send = nodeTransport();
    let decoded = 0;
    for await (const chunk of (await send(get(url))).body!) {
      decoded += chunk.byteLength;
      if (decoded > 1024 * 1024) break;
    }
    expect(decoded).toBeLessThan(2 * 1024 * 1024);
    await new Promise((resolve) => sockets[0]!.once('close', resolve));
    await text((await send(get(url, { method: 'HEAD' }))).body);
    expect(seen.connections).toBe(2);
  });
});

describe('faults surface as rejected sends or body reads, with Node codes', () => {
  it('a refused connection: ECONNREFUSED on a TypeError, as fetch rejects', async () => {
    const { url } = await serve(() => undefined);
    const port = new URL(url).port;
    for (const server of servers.splice(0)) server.close();
    const error = await failure(nodeTransport()(get(`http://127.0.0.1:${port}`)));
    expect(error).toBeInstanceOf(TypeError);
    expect(codeOf(error)).toBe('ECONNREFUSED');
  });

  it('a reset before the response, on a new connection: ECONNRESET, sent once', async () => {
    const { url, seen } = await serve((req) => req.socket.destroy());
    const error = await failure(nodeTransport()(get(url)));
    expect(error).toBeInstanceOf(TypeError);
    expect(codeOf(error)).toBe('ECONNRESET');
    expect(seen.requests).toBe(1);
  });

  it('a Content-Length larger than the body, then a close: the body read fails with ECONNRESET', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-length': 1000 });
      res.write('{"partial":');
      setImmediate(() => req.socket.destroy());
    });
    const response = await nodeTransport()(get(url));
    const error = await failure(text(response.body));
    expect(codeOf(error)).toBe('ECONNRESET');
  });

  it('a gzip body cut short: the body read fails', async () => {
    const cut = gzipSync(Buffer.alloc(100_000, 'a')).subarray(0, 200);
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': 5000 });
      res.write(cut);
      setImmediate(() => req.socket.destroy());
    });
    const response = await nodeTransport()(get(url));
    expect(codeOf(await failure(text(response.body)))).toBe('ECONNRESET');
  });

  it('an abort before the response rejects with the signal reason and closes the connection', async () => {
    const { url, sockets } = await serve(() => undefined);
    const controller = new AbortSource();
    const sending = failure(nodeTransport()(get(url, { abort: controller })));
    while (sockets.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await sending).toBe(reason);
    await new Promise((resolve) => sockets[0]!.once('close', resolve));
  });

  it('an abort while the body trickles in ends the read and closes the connection', async () => {
    const { url, sockets } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('{"first":');
    });
    const controller = new AbortSource();
    const response = await nodeTransport()(get(url, { abort: controller }));
    const iterator = response.body![Symbol.asyncIterator]();
    await iterator.next();
    const reading = failure(iterator.next());
    controller.abort(new Error('stop'));
    expect(await reading).toBeInstanceOf(Error);
    await new Promise((resolve) => sockets[0]!.once('close', resolve));
  });

  it('an already aborted signal sends nothing', async () => {
    const { url, seen } = await serve((_req, res) => res.end());
    const reason = new Error('before');
    const aborted = new AbortSource();
    aborted.abort(reason);
    expect(await failure(nodeTransport()(get(url, { abort: aborted })))).toBe(reason);
    expect(seen.connections).toBe(0);
  });
});

describe('TLS', () => {
  let dir: string;
  let tls: { key: Buffer; cert: Buffer };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfa-tls-'));
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(key), cert: readFileSync(cert) };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an untrusted certificate rejects the send with its code', async () => {
    const { url, seen } = await serve((_req, res) => res.end('secret'), tls);
    const error = await failure(nodeTransport()(get(url)));
    expect(error).toBeInstanceOf(TypeError);
    expect(codeOf(error)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(seen.requests).toBe(0);
  });

  it('an agent of the caller may trust it (a private CA, client certificates)', async () => {
    const { url } = await serve((_req, res) => res.end('ok'), tls);
    const agent = new HttpsAgent({ ca: tls.cert, keepAlive: true });
    expect(await text((await nodeTransport({ agent })(get(url))).body)).toBe('ok');
    agent.destroy();
  });

  it("an agent of the other protocol than the URL's (a download_url elsewhere): the transport's own agent sends it", async () => {
    const plain = await serve((_req, res) => res.end('ok'));
    const secure = await serve((_req, res) => res.end('ok'), tls);
    const httpsAgent = new HttpsAgent({ ca: tls.cert });
    const httpAgent = new Agent();
    expect(await text((await nodeTransport({ agent: httpsAgent })(get(plain.url))).body)).toBe('ok');
    // Node's own https agent: the TLS handshake happens and checks the certificate, no ERR_INVALID_PROTOCOL.
    expect(codeOf(await failure(nodeTransport({ agent: httpAgent })(get(secure.url))))).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    httpsAgent.destroy();
    httpAgent.destroy();
  });

  it('https to a server that speaks plain HTTP: EPROTO', async () => {
    const { url } = await serve((_req, res) => res.end());
    const error = await failure(nodeTransport()(get(url.replace('http:', 'https:'))));
    expect(codeOf(error)).toBe('EPROTO');
  });
});

describe('keep-alive faults', () => {
  /** A connection used once, then closed by the server while the client still holds it as idle. */
  async function closedWhileIdle(): Promise<{ send: Transport; served: Served }> {
    const served = await serve((_req, res) => res.end('ok'));
    const send = nodeTransport();
    await text((await send(get(served.url))).body);
    return { send, served };
  }

  it('a socket the server closed while idle: a GET goes again on a new connection', async () => {
    const { send, served } = await closedWhileIdle();
    // Closed and sent in the same turn of the event loop: the client cannot have seen the close.
    served.sockets[0]!.destroy();
    expect(await text((await send(get(served.url))).body)).toBe('ok');
    expect(served.seen.connections).toBe(2);
  });

  it('a socket the server closed while idle, as a POST takes it: the POST waits for the close, and goes once on a new connection', async () => {
    const { send, served } = await closedWhileIdle();
    served.sockets[0]!.destroy();
    expect(await text((await send(get(served.url, { method: 'POST', body: '{}' }))).body)).toBe('ok');
    expect(served.seen.requests).toBe(2);
    expect(served.seen.connections).toBe(2);
  });

  it('a pooled socket found closed before anything was written: even a POST goes again', async () => {
    const served = await serve((_req, res) => res.end('ok'));
    const agent = new Agent({ keepAlive: true });
    const send = nodeTransport({ agent });
    await text((await send(get(served.url))).body);
    const [pooled] = Object.values(agent.freeSockets)[0]!;
    // Sent the moment the client reads the server's close, before its agent has dropped the socket.
    const sending = new Promise<Awaited<ReturnType<Transport>>>((resolve, reject) => {
      pooled!.once('end', () => send(get(served.url, { method: 'POST', body: '{}' })).then(resolve, reject));
    });
    served.sockets[0]!.end();
    expect(await text((await sending).body)).toBe('ok');
    expect(served.seen.requests).toBe(2);
    agent.destroy();
  });

  it('ECONNRESET on a reused socket after the request arrived: the attempt fails, GET and POST alike, never sent again unseen', async () => {
    const served = await serve((req, res) => {
      // The second request of each connection is cut: the server read it, then dropped the connection.
      const socket = req.socket as Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served === 2) socket.destroy();
      else res.end('ok');
    });
    const send = nodeTransport();
    await text((await send(get(served.url))).body);
    expect(codeOf(await failure(send(get(served.url))))).toBe('ECONNRESET');
    expect(served.seen.requests).toBe(2);

    await text((await send(get(served.url))).body);
    expect(codeOf(await failure(send(get(served.url, { method: 'POST', body: '{}' }))))).toBe('ECONNRESET');
    expect(served.seen.requests).toBe(4);
  });
});

describe('idle sockets', () => {
  it('never keep a process alive: one that made calls has no open socket holding it', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const module = fileURLToPath(new URL('../../src/core/node-transport.ts', import.meta.url));
    const timing = fileURLToPath(new URL('../../src/core/timing.ts', import.meta.url));
    const script = `
      import { nodeTransport } from ${JSON.stringify(module)};
      import { AbortSource } from ${JSON.stringify(timing)};
      const send = nodeTransport();
      for (let i = 0; i < 3; i++) {
        const { body } = await send({ method: 'GET', url: ${JSON.stringify(url)}, headers: {}, body: undefined, abort: new AbortSource() });
        for await (const _ of body) {}
      }
      setImmediate(() => console.log(JSON.stringify(process.getActiveResourcesInfo())));
    `;
    // Not execFileSync: the server answering the child runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).not.toContain('TCPSocketWrap');
  });
});

describe('the choice of transport', () => {
  // The unit suite's setup selects fetch for msw (test/helpers/transport.ts): this is the SDK's own choice.
  const choose = async () =>
    (await vi.importActual<typeof import('../../src/core/choose-transport.js')>('../../src/core/choose-transport.js')).chooseTransport;

  it('on Node with no fetch option: node:http, loaded on the first request', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const chosen = (await choose())({});
    expect(chosen.name).toBe('node:http');
    expect(await text((await chosen.send(get(url))).body)).toBe('ok');
  });

  it('with a fetch option: that fetch', async () => {
    const fetch = vi.fn(async () => new Response('from fetch'));
    const chosen = (await choose())({ fetch });
    expect(chosen.name).toBe('fetch');
    expect(await text((await chosen.send(get('http://127.0.0.1:1'))).body)).toBe('from fetch');
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('refuses an agent of the other protocol than baseUrl, naming agent; a proxy agent, which serves both, passes', () => {
    const refusal = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error as ValidationError;
      }
      throw new Error('not refused');
    };
    const https = new HttpsAgent();
    const http = new Agent();
    expect(refusal(() => new Client({ baseUrl: 'http://127.0.0.1:1', agent: https }))).toMatchObject({ field: 'agent' });
    expect(refusal(() => new Client({ baseUrl: 'http://127.0.0.1:1', agent: https })).message).toMatch(/https\.Agent.*http/);
    expect(refusal(() => new Client({ baseUrl: 'https://127.0.0.1:1', agent: http }))).toMatchObject({ field: 'agent' });
    expect(() => new Client({ baseUrl: 'https://127.0.0.1:1', agent: https })).not.toThrow();
    // As agent-base (https-proxy-agent) does: `protocol` an accessor that follows the request, no data of its own.
    class ProxyAgent extends HttpsAgent {
      get protocol(): string {
        return 'https:';
      }
      set protocol(_: string) {}
    }
    expect(() => new Client({ baseUrl: 'http://127.0.0.1:1', agent: new ProxyAgent() })).not.toThrow();
  });

  it('refuses an agent beside a fetch option, and an agent that is none, as client options', () => {
    const agent = new Agent();
    const baseUrl = 'http://127.0.0.1:1';
    expect(() => new Client({ baseUrl, agent, fetch: globalThis.fetch })).toThrow(ValidationError);
    expect(() => new Client({ baseUrl, agent, fetch: globalThis.fetch })).toThrow(/agent/);
    expect(() => new Client({ baseUrl, agent: {} as Agent })).toThrow(/agent.*http\.Agent/s);
  });
});
