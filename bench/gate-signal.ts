/**
 * `node --import tsx bench/gate-signal.ts [calls] [shared|none]`: how long `calls` requests take to queue at a
 * closed rate gate, with one shared `AbortSignal` or none, and whether Node warns about that signal's listeners.
 * Nothing is sent: the gate is closed by a 429 first and the process ends before it reopens.
 */
import { createServer } from 'node:http';
import { Client } from '../src/index.js';

const calls = Number(process.argv[2] ?? 20_000);
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.name));

const server = createServer((_, response) => {
  response.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' });
  response.end('{"error":{"code":"rate_limited","message":"slow down"}}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as { port: number };

async function enqueue(signal: AbortSignal | undefined): Promise<number> {
  const client = new Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k_bench', maxRetries: 0 });
  await client.request({ method: 'GET', path: '/close' }).catch(() => undefined);
  const started = performance.now();
  const pending = Array.from({ length: calls }, () => client.request({ method: 'GET', path: '/x', signal }).catch(() => undefined));
  // Every call reaches the gate within the microtasks of its start; one macrotask later all are queued.
  await new Promise((resolve) => setImmediate(resolve));
  const ms = performance.now() - started;
  void pending;
  return ms;
}

// One measure per process run, so that neither pays for the other's 20 000 pending calls: `shared` or `none`.
const controller = new AbortController();
const which = process.argv[3] ?? 'shared';
const ms = await enqueue(which === 'shared' ? controller.signal : undefined);
controller.abort();
console.log(JSON.stringify({ calls, signal: which, enqueueMs: Math.round(ms), warnings }));
process.exit(0);
