/**
 * startMockServer where real time and a real process matter: a client that gives up during the latency, and
 * a Node process that must exit on its own once the server is closed. The rest is in test/testing/server.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
