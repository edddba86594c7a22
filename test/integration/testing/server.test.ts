/**
 * startMockServer where real time and a real process matter: a client that gives up during the latency, and
 * a Node process that must exit on its own once the server is closed. The rest is in test/testing/server.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { useStarted, WORKFLOW } from '../../testing/helpers.js';

const { server } = useStarted();

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
