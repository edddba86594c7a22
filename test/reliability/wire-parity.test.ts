/**
 * What a server writes byte by byte ends the same way on both transports (this file runs once per transport):
 * a server that closes after every response without `Connection: close`, an unsolicited `101 Switching
 * Protocols`, a header name with a space, an obs-fold line, a status past 599 and one below 100. A raw TCP server on
 * 127.0.0.1 writes each response exactly as given.
 */
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Client, ConnectionError, InternalServerError, TimeoutError } from '../../src/index.js';
import { workflowBody } from './fault-server.js';
import { activeHandles, openHandlesSince, recordOpenHandles } from './summary.js';

const TRANSPORT = process.env['WFA_TEST_TRANSPORT'] === 'fetch' ? 'fetch' : 'node:http';
const BODY = JSON.stringify(workflowBody());

interface Raw {
  /** The response to each request: its text, and whether the server then ends the connection. */
  answer: { text: string; end: boolean };
  requests: number;
  connections: number;
  /** When set, the server ends each connection this long after each response, still without `Connection: close`. */
  closeAfterMs?: number;
  /** The body of each request the server read. */
  bodies: string[];
}

let server: Server;
let url: string;
const raw: Raw = { answer: { text: '', end: false }, requests: 0, connections: 0, bodies: [] };
const sockets = new Set<Socket>();
let baseline: Map<string, number>;

/** A request ends with its head (GET) or its JSON body (POST): enough for the SDK's requests. */
function complete(text: string): boolean {
  const head = text.indexOf('\r\n\r\n');
  if (head === -1) return false;
  const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
  return Buffer.byteLength(text.slice(head + 4)) >= length;
}

beforeAll(async () => {
  baseline = activeHandles();
  server = createServer((socket) => {
    raw.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let text = '';
    let closing = false;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (!complete(text)) return;
      raw.bodies.push(text.slice(text.indexOf('\r\n\r\n') + 4));
      text = '';
      // A request that crosses the server's close is read (it may have been acted on) and never answered.
      if (closing) return;
      raw.requests++;
      if (raw.answer.end) socket.end(raw.answer.text);
      else socket.write(raw.answer.text);
      const close = raw.closeAfterMs;
      if (close !== undefined)
        setTimeout(() => {
          closing = true;
          socket.end();
        }, close);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  recordOpenHandles('wire-parity.test.ts', await openHandlesSince(baseline));
});

function answer(text: string, end = false): void {
  raw.answer = { text, end };
  raw.requests = 0;
  raw.connections = 0;
  raw.bodies = [];
  raw.closeAfterMs = undefined;
}

const response = (head: string, body = BODY) => `${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
  new Client({ baseUrl: url, apiKey: 'wfa_live_wire_Kp4Zt8', apiPrefix: '/v1', maxRetries: 0, ...options });
const create = (c: Client) => c.workflows.create({ name: 'n', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
const settle = (call: Promise<unknown>) =>
  call.then(
    () => 'resolved' as const,
    (error: unknown) => error,
  );

describe(`the wire, on ${TRANSPORT}`, () => {
  it('a server that ends every connection after its response, without Connection: close: 60 POSTs in a row all answered, each sent once', async () => {
    answer(response('HTTP/1.1 201 Created\r\ncontent-type: application/json'), true);
    const c = client();
    let failed = 0;
    for (let i = 0; i < 60; i++) if ((await settle(create(c))) !== 'resolved') failed++;
    expect(failed).toBe(0);
    expect(raw.requests).toBe(60);
    expect(raw.connections).toBe(60);
  });

  // Decided (issue 35): undici's pool gives no honest signal that a POST on a socket closing under it was not
  // sent, so on `fetch` some POSTs fail with ConnectionError (UND_ERR_SOCKET) and none is sent again; node:http
  // checks the socket first, and fails only when the close crosses the request on the wire (a few, or none).
  it('a server that ends each connection 1–20 ms after its response: each POST answered or a ConnectionError, none sent twice', async () => {
    answer(response('HTTP/1.1 201 Created\r\ncontent-type: application/json'));
    // Retries allowed: a POST that may have been acted on must still not go again.
    const c = client({ maxRetries: 2 });
    let failed = 0;
    for (let i = 0; i < 60; i++) {
      raw.closeAfterMs = 1 + (i % 20);
      const result = await settle(c.workflows.create({ name: `post ${i}`, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }));
      if (result === 'resolved') continue;
      failed++;
      expect(result).toBeInstanceOf(ConnectionError);
    }
    const names = raw.bodies.map((body) => (JSON.parse(body) as { name: string }).name);
    expect(names.length - new Set(names).size).toBe(0);
    console.info(`[wire-parity] ${TRANSPORT}: ${failed} of 60 POSTs failed against a close 1-20 ms after each response`);
    // The pool (fetch's is global) must not hand a later test a socket whose close is still on its way.
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('the same server: 60 GETs in a row all answered, each sent once (maxRetries 0: no hidden resend)', async () => {
    answer(response('HTTP/1.1 200 OK\r\ncontent-type: application/json'), true);
    const c = client();
    let failed = 0;
    for (let i = 0; i < 60; i++) if ((await settle(c.workflows.get('wf_1'))) !== 'resolved') failed++;
    expect(failed).toBe(0);
    expect(raw.requests).toBe(60);
  });

  it('a node:http server that ends each socket once its response is flushed: 60 DELETEs, each sent once and each a success', async () => {
    const seen = new Map<string, number>();
    const closing = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = req.url ?? '';
        seen.set(id, (seen.get(id) ?? 0) + 1);
        const first = seen.get(id) === 1;
        res.writeHead(first ? 204 : 404, { 'content-type': 'application/json' });
        res.end(first ? '' : '{"error":{"code":"not_found","message":"gone"}}', () => req.socket.end());
      });
    });
    closing.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const c = new Client({
      baseUrl: `http://127.0.0.1:${(closing.address() as AddressInfo).port}`,
      apiKey: 'wfa_live_wire_Kp4Zt8',
      apiPrefix: '/v1',
      maxRetries: 0,
    });
    let failed = 0;
    for (let i = 0; i < 60; i++) if ((await settle(c.workflows.delete(`wf_${i}`))) !== 'resolved') failed++;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    expect([...seen.values()].filter((count) => count > 1)).toEqual([]);
    expect(failed).toBe(0);
  });

  it('an unsolicited 101 Switching Protocols fails the attempt at once with ConnectionError, not at timeoutMs', async () => {
    answer('HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n');
    const started = performance.now();
    const error = await settle(client({ timeoutMs: 20_000 }).workflows.get('wf_1'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('a bare 101 (no Upgrade header): node:http fails at once, fetch waits out timeoutMs (undici reads it as a 1xx and gives no hook)', async () => {
    answer('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    const error = await settle(client({ timeoutMs: 1_000 }).workflows.get('wf_1'));
    expect(error).toBeInstanceOf(TRANSPORT === 'node:http' ? ConnectionError : TimeoutError);
    if (TRANSPORT === 'node:http') expect(error).not.toBeInstanceOf(TimeoutError);
  });

  it('an unsolicited 100 Continue (the SDK never sends Expect), then nothing: ConnectionError at once, not a TimeoutError at timeoutMs', async () => {
    answer('HTTP/1.1 100 Continue\r\n\r\n');
    const error = await settle(client({ timeoutMs: 20_000 }).workflows.get('wf_1'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
  });

  it.each([
    ['a space in a header name', 'x bad: 1'],
    ['a space before the colon', 'x-bad : 1'],
  ])('%s: ConnectionError, the response refused as malformed', async (_, line) => {
    answer(response(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${line}`));
    const error = await settle(client().workflows.get('wf_1'));
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it('an obs-fold line: node:http refuses it with ConnectionError, fetch folds it into spaces (it leaves no trace to refuse)', async () => {
    answer(response('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-folded: a\r\n  b'));
    const result = await client()
      .workflows.get('wf_1')
      .withResponse()
      .then(
        ({ response }) => response.headers.get('x-folded'),
        (error: unknown) => error,
      );
    expect(result).toEqual(TRANSPORT === 'node:http' ? expect.any(ConnectionError) : 'a  b');
  });

  it.each(['099', '010', '000'])('status line "HTTP/1.1 %s": ConnectionError, not a success and not a hidden redirect', async (status) => {
    answer(response(`HTTP/1.1 ${status} Odd\r\ncontent-type: application/json`, '{}'));
    const error = await settle(client().request({ method: 'POST', path: '/workflows', body: {} }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).not.toMatch(/redirect/);
    // fetch (undici) refuses the line inside its parser and says only that an assertion failed.
    if (TRANSPORT === 'node:http') expect((error as Error).message).toContain(`Bad status line "HTTP/1.1 ${status}"`);
  });

  it.each([600, 799, 999])('status %i: an ApiError with that status, not an InternalServerError, and not retried', async (status) => {
    answer(response(`HTTP/1.1 ${status} Odd\r\ncontent-type: application/json`, '{"error":{"message":"odd"}}'));
    const error = await settle(client({ maxRetries: 2 }).workflows.get('wf_1'));
    expect(ApiError.is(error) && error.status).toBe(status);
    expect(InternalServerError.is(error)).toBe(false);
    expect(raw.requests).toBe(1);
  });
});

describe(`a redirect between /api/v1 and /v1 with apiPrefix 'auto', on ${TRANSPORT}`, () => {
  /** `/api/v1/…` answers `status` to `/v1/…`, which answers `answer` (a router's bare 404, or a workflow). */
  function redirecting(status: number, answer: 404 | 200) {
    return serving((url, res) => {
      if (url.startsWith('/api/v1/')) res.writeHead(status, { location: url.slice(4), 'content-length': 0 }).end();
      else if (answer === 404) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    });
  }

  /** A server answering each request as `answer` says, and the requests it was sent, with their bodies. */
  async function serving(answer: (url: string, res: ServerResponse) => void) {
    const sent: string[] = [];
    const http = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        sent.push(`${req.method} ${req.url}${body ? ` ${body.length} bytes` : ''}`);
        answer(req.url ?? '', res);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const c = new Client({
      baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      apiKey: 'wfa_live_wire_Kp4Zt8',
      maxRetries: 0,
    });
    const close = async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    };
    return { c, sent, close };
  }

  it.each([301, 307, 308])(
    '%i, then a 404 under /v1: the 404 is the error, /v1 is not sent again nor said to be "also tried"',
    async (status) => {
      const { c, sent, close } = await redirecting(status, 404);
      const error = await settle(c.workflows.delete('wf_1'));
      await close();
      expect(sent).toEqual(['DELETE /api/v1/workflows/wf_1', 'DELETE /v1/workflows/wf_1']);
      expect(ApiError.is(error) && error.status).toBe(404);
      expect((error as Error).message).not.toContain('also tried');
    },
  );

  it('308, then a 200 under /v1: /v1 is the prefix confirmed, and the next calls go there directly', async () => {
    const { c, sent, close } = await redirecting(308, 200);
    for (let i = 0; i < 3; i++) await c.workflows.get('wf_1');
    await close();
    expect(c.toJSON()).toMatchObject({ apiPrefix: '/v1', prefixConfirmed: true });
    expect(sent).toEqual(['GET /api/v1/workflows/wf_1', 'GET /v1/workflows/wf_1', 'GET /v1/workflows/wf_1', 'GET /v1/workflows/wf_1']);
  });

  it.each([301, 302, 307, 308])(
    'a 404 under /api/v1 whose fallback under /v1 is a %i back to it: the POST is not sent there a second time',
    async (status) => {
      const { c, sent, close } = await serving((url, res) => {
        if (url.startsWith('/api/v1/')) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        else res.writeHead(status, { location: `/api${url}`, 'content-length': 0 }).end();
      });
      const error = await settle(c.workflows.create({ name: 'once', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }));
      await close();
      const [first, fallback] = sent;
      expect(first).toMatch(/^POST \/api\/v1\/workflows \d+ bytes$/);
      expect(fallback).toMatch(/^POST \/v1\/workflows \d+ bytes$/);
      expect(sent).toHaveLength(2);
      expect(ApiError.is(error) && [error.status, error.url]).toEqual([404, `${c.toJSON().baseUrl}/api/v1/workflows`]);
      expect((error as Error).message).toContain('also tried /v1/workflows');
      expect(c.toJSON()).toMatchObject({ prefixConfirmed: false });
    },
  );

  it.each(['/api/v1/workflows#x', '/api/v1/workflows?', '/api/v1/%77orkflows', '/api/v1/workflows?#'])(
    'a redirect back to the first URL spelled %s is the same request: the POST is not sent again',
    async (back) => {
      const { c, sent, close } = await serving((url, res) => {
        const location = url === '/api/v1/workflows' ? '/api/v1/other' : back;
        res.writeHead(307, { location, 'content-length': 0 }).end();
      });
      const error = await settle(c.workflows.create({ name: 'once', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }));
      await close();
      // As the service reads the path: `%77` is `w`.
      expect(sent.filter((line) => decodeURI(line).startsWith('POST /api/v1/workflows'))).toHaveLength(1);
      expect((error as Error).message).toContain('already sent');
    },
  );

  it('a DELETE whose fallback redirects back: each URL is sent once', async () => {
    const { c, sent, close } = await serving((url, res) => {
      if (url.startsWith('/api/v1/')) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      else res.writeHead(308, { location: `/api${url}`, 'content-length': 0 }).end();
    });
    const error = await settle(c.workflows.delete('wf_1'));
    await close();
    expect(sent).toEqual(['DELETE /api/v1/workflows/wf_1', 'DELETE /v1/workflows/wf_1']);
    expect(ApiError.is(error) && error.status).toBe(404);
  });
});

describe(`a redirect whose Location carries user:password@, on ${TRANSPORT}`, () => {
  it('is refused at once, naming it, without the credentials and without sending Basic auth from it', async () => {
    const seen: { url: string | undefined; authorization: string | undefined }[] = [];
    const http = createHttpServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      const { port } = http.address() as AddressInfo;
      res.writeHead(307, { location: `http://evil:pw_Secret9@127.0.0.1:${port}/v1/workflows/wf_2`, 'content-length': 0 }).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const c = new Client({
      baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      apiKey: 'wfa_live_wire_Kp4Zt8',
      apiPrefix: '/v1',
    });
    const error = await settle(c.workflows.get('wf_1'));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    expect(seen).toEqual([{ url: '/v1/workflows/wf_1', authorization: undefined }]);
    expect(ApiError.is(error) && error.status).toBe(307);
    expect((error as Error).message).toMatch(/Redirect to a URL with user:password@ not followed/);
    expect(JSON.stringify(error) + String(error)).not.toMatch(/pw_Secret9|evil/);
  });
});
