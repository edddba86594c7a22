/**
 * startMockServer where real time and a real process matter: a client that gives up during the latency, and
 * a Node process that must exit on its own once the server is closed. The rest is in test/testing/server.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockRefusal } from '../../../src/testing/index.js';
import { createWebhookHandler, memoryStore, toNodeHandler } from '../../../src/webhooks/index.js';
import { useStarted, WORKFLOW } from '../../testing/helpers.js';

const { server } = useStarted();

const receivers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of receivers.splice(0)) await close();
});

/** A webhook receiver on 127.0.0.1 serving `listener`; closed after the test. */
async function receiverOf(listener: RequestListener): Promise<string> {
  const receiver = createServer(listener);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receivers.push(
    () =>
      new Promise<void>((resolve) => {
        receiver.closeAllConnections();
        receiver.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

const created = (url: string, key: string) =>
  fetch(`${url}/v1/workflows`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(WORKFLOW),
  });

describe('startMockServer', () => {
  test('a client that gives up during the latency leaves the server serving', async () => {
    const mock = await server({ latencyMs: 200 });
    const headers = { 'x-api-key': mock.apiKey };
    await expect(fetch(`${mock.url}/v1/orders`, { headers, signal: AbortSignal.timeout(20) })).rejects.toThrow();
    expect((await fetch(`${mock.url}/v1/orders`, { headers })).status).toBe(200);
  });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request through `agent` (its pooled sockets); a request left unanswered 10 s fails instead of hanging. */
function send(agent: Agent, url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the wire', () => {
  test('a 413 carries x-request-id and closes the connection, so the next call on the pooled socket is answered', async () => {
    const mock = await server();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { 'x-api-key': mock.apiKey, 'content-type': 'application/json' };
      const refused = await send(agent, `${mock.url}/v1/workflows`, { method: 'POST', headers, body: Buffer.alloc(2 * 1024 * 1024, 'x') });
      const next = await send(agent, `${mock.url}/v1/orders`, { headers });

      expect(refused.status).toBe(413);
      expect(refused.headers['x-request-id']).toMatch(/^req_/);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body)).toEqual({ error: { message: expect.stringMatching(/1048576 bytes/), code: 'payload_too_large' } });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

/** Writes `raw` on a new connection; resolves with all it read once the server closes it, or after 5 s. */
function exchange(port: number, raw: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve({ text, closed: false });
    });
    socket.on('close', () => resolve({ text, closed: true }));
    socket.on('error', () => undefined);
  });
}

describe('methods the service does not serve', () => {
  test.each(['/v1/workflows', '/'])('TRACE %s is a 405 with x-request-id, and echoes nothing', async (path) => {
    const mock = await server();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { 'x-api-key': mock.apiKey, cookie: 'session=secret' };
      const answer = await send(agent, `${mock.url}${path}`, { method: 'TRACE', headers });

      expect(answer.status).toBe(405);
      expect(answer.headers['x-request-id']).toMatch(/^req_/);
      expect(JSON.parse(answer.body)).toEqual({ error: { message: 'TRACE is not allowed', code: 'method_not_allowed' } });
      expect(answer.body).not.toContain('secret');
      expect((await send(agent, `${mock.url}/v1/orders`, { headers })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  test('CONNECT is a 405 with x-request-id, then the connection closes', async () => {
    const mock = await server();
    const { text, closed } = await exchange(mock.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');

    expect(text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
    expect(text).toContain('"code":"method_not_allowed"');
    expect(closed).toBe(true);
  });

  test('TRACK, which Node cannot parse, is a 405 with x-request-id, then the connection closes', async () => {
    const mock = await server();
    const { text, closed } = await exchange(mock.port, `TRACK /v1/workflows HTTP/1.1\r\nHost: x\r\nx-api-key: ${mock.apiKey}\r\n\r\n`);

    expect(text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
    expect(text).toContain('"code":"method_not_allowed"');
    expect(text).not.toContain(mock.apiKey);
    expect(closed).toBe(true);
  });

  test.each(['BREW', 'get'])(
    '%s, a method no one defines (names are case-sensitive), is a 501 with x-request-id, then the connection closes',
    async (method) => {
      const mock = await server();
      const { text, closed } = await exchange(mock.port, `${method} /v1/workflows HTTP/1.1\r\nHost: x\r\n\r\n`);

      expect(text).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
      expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
      expect(text).toContain('"code":"not_implemented"');
      expect(closed).toBe(true);
    },
  );

  test("headers past Node's limit are a 431 with x-request-id, then the connection closes", async () => {
    const mock = await server();
    const { text, closed } = await exchange(mock.port, `GET /v1/workflows HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);

    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
    expect(closed).toBe(true);
  });

  test.each([
    ['a chunk size that is not hex', 'zz\r\n{}\r\n0\r\n\r\n'],
    ['a control character in a chunk extension', '2;\x01\r\n{}\r\n0\r\n\r\n'],
  ])('a chunked body with %s is a 400 with x-request-id, then the connection closes; onRefused is told', async (_, chunks) => {
    const refusals: MockRefusal[] = [];
    const mock = await server({ onRefused: (refusal) => refusals.push(refusal) });
    const head = `POST /v1/workflows HTTP/1.1\r\nHost: x\r\nx-api-key: ${mock.apiKey}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const { text, closed } = await exchange(mock.port, head + chunks);

    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
    expect(text).toContain('"code":"bad_request"');
    expect(closed).toBe(true);
    expect((await fetch(`${mock.url}/v1/workflows`, { headers: { 'x-api-key': mock.apiKey } })).status).toBe(200);
    expect(refusals).toEqual([{ status: 400, message: 'Malformed request', method: 'POST', path: '/v1/workflows' }]);
  });

  test.each([
    ['an HTTP/1.1 request without Host', 'GET /v1/workflows HTTP/1.1\r\n', 400, 'Bad Request', 'Missing Host header', 'bad_request'],
    [
      'an Expect other than 100-continue',
      'GET /v1/workflows HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n',
      417,
      'Expectation Failed',
      'Unsupported Expect: 200-ok',
      'expectation_failed',
    ],
  ])(
    '%s, which Node would answer itself, is the mock’s own answer with x-request-id, then the connection closes; onRefused is told',
    async (_, head, status, reason, message, code) => {
      const refusals: MockRefusal[] = [];
      const mock = await server({ onRefused: (refusal) => refusals.push(refusal) });
      const { text, closed } = await exchange(mock.port, `${head}x-api-key: ${mock.apiKey}\r\n\r\n`);

      expect(text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} ${reason}\r\n`));
      expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/);
      expect(text).toContain(`"code":"${code}"`);
      expect(closed).toBe(true);
      expect(refusals).toEqual([{ status, message, method: 'GET', path: '/v1/workflows' }]);
    },
  );

  test('a refused request in absolute form (http://user:password@host/…): onRefused is told its path only, no password', async () => {
    const refusals: MockRefusal[] = [];
    const mock = await server({ onRefused: (refusal) => refusals.push(refusal) });
    const target = `http://u:pwSecretRefused99@127.0.0.1:${mock.port}/v1/workflows?x=1`;
    const { text } = await exchange(mock.port, `TRACE ${target} HTTP/1.1\r\nHost: x\r\nx-api-key: ${mock.apiKey}\r\n\r\n`);

    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(refusals).toMatchObject([{ status: 405, method: 'TRACE', path: '/v1/workflows' }]);
    expect(JSON.stringify(refusals)).not.toContain('pwSecretRefused99');
  });

  test('a request Node cannot parse after one it answers: the answer first, then a 400 with x-request-id', async () => {
    const mock = await server();
    const raw = `GET /v1/workflows HTTP/1.1\r\nHost: x\r\nx-api-key: ${mock.apiKey}\r\n\r\nGET /v1/workflows HTTP/1.1\r\nHost x\r\n\r\n`;
    const { text, closed } = await exchange(mock.port, raw);

    expect(text.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 200 ', 'HTTP/1.1 400 ']);
    expect(text.split('HTTP/1.1 400')[1]).toMatch(/\r\nx-request-id: req_\w+\r\n/);
    expect(closed).toBe(true);
  });
});

describe('webhook deliveries over the wire', () => {
  test("an endless answer is cut off: the delivery ends, the receiver's connection is dropped, API calls go on", async () => {
    let written = 0;
    let dropped!: () => void;
    const droppedConnection = new Promise<void>((resolve) => (dropped = resolve));
    const url = await receiverOf((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = (): void => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      res.on('close', () => dropped());
      pump();
    });
    const mock = await server({ buildDurationMs: 0, webhookUrl: url });
    await (await created(mock.url, mock.apiKey)).arrayBuffer();
    const stalled = new Promise<string>((resolve) => setTimeout(() => resolve('stalled'), 5_000).unref());

    expect(await Promise.race([mock.service.flush().then(() => 'delivered'), stalled])).toBe('delivered');
    expect(await Promise.race([droppedConnection.then(() => 'dropped'), stalled])).toBe('dropped');
    expect((await fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } })).status).toBe(200);
    expect(mock.service.webhookDeliveries().map((delivery) => delivery.status)).toEqual([200]);
    // What the receiver managed to write before the drop: socket buffers, not 100 MB.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  test("a delivery whose answer was lost is sent again with the same webhook-id, and the SDK's dedupe runs it once", async () => {
    const handled: string[] = [];
    const sdk = toNodeHandler(
      createWebhookHandler({
        on: { 'build.completed': (event) => void handled.push(event.workflow_id) },
        dedupe: { store: memoryStore() },
      }),
    );
    let requests = 0;
    const url = await receiverOf((req, res) => {
      requests += 1;
      // The first answer is lost after the handler ran: the connection drops instead.
      if (requests === 1) res.end = (() => req.socket.destroy()) as never;
      void sdk(req, res);
    });
    const mock = await server({ buildDurationMs: 0, webhookUrl: url, webhookRetryDelaysMs: [50] });
    const workflow = (await (await created(mock.url, mock.apiKey)).json()) as { id: string };
    await mock.service.flush();
    const settled = () => mock.service.webhookDeliveries().filter((d) => d.status !== undefined || d.error !== undefined).length;
    for (let i = 0; i < 250 && settled() < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await mock.service.flush();

    const deliveries = mock.service.webhookDeliveries();
    expect(deliveries.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 1, status: undefined },
      { attempt: 2, status: 200 },
    ]);
    expect(deliveries[0]?.id).toBe(deliveries[1]?.id);
    expect(handled).toEqual([workflow.id]);
  });
});

describe('close()', () => {
  test('lets a Node process exit on its own, with a build running, a webhook due and a connection open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfa-mock-exit-'));
    try {
      const script = join(dir, 'script.mjs');
      const serverModule = fileURLToPath(new URL('../../../src/testing/server.ts', import.meta.url));
      await build({
        stdin: {
          contents: `
            import { startMockServer } from ${JSON.stringify(serverModule)};
            const mock = await startMockServer({ buildDurationMs: 60_000, webhookUrl: 'http://127.0.0.1:9/hooks' });
            const headers = { 'x-api-key': mock.apiKey, 'content-type': 'application/json' };
            await fetch(mock.url + '/v1/workflows', { method: 'POST', headers, body: JSON.stringify(${JSON.stringify(WORKFLOW)}) });
            await (await fetch(mock.url + '/v1/orders', { headers })).arrayBuffer();
            await mock.close();
            console.log('closed');
          `,
          resolveDir: dir,
          loader: 'ts',
        },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: script,
        logLevel: 'silent',
      });
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const killer = setTimeout(() => child.kill(), 5000);
        child.on('exit', (exitCode) => {
          clearTimeout(killer);
          resolve(exitCode);
        });
      });
      expect(output.trim()).toBe('closed');
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
