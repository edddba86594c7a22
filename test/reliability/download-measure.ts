/**
 * One measured 1 GiB download to a file, in a process of its own (started by download-memory.test.ts with the
 * V8 flags under test): prints `{ rss, heap, bytes, ok }` as JSON, the peak growths after a warm-up and a GC.
 */
import { spawn } from 'node:child_process';
import { open, rm } from 'node:fs/promises';
import { Client } from '../../src/index.js';
import { artifactBytes } from '../../src/testing/index.js';

const MB = 1024 * 1024;
const [path = '', size = 0, resetAt = 0] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const server = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./download-server.ts', import.meta.url).pathname, String(size), String(resetAt), '2'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let text = '';
server.stdout.setEncoding('utf8');
for await (const chunk of server.stdout) {
  text += chunk;
  if (text.includes('\n')) break;
}
const { url, apiKey } = JSON.parse(text) as { url: string; apiKey: string };
try {
  const client = new Client({ baseUrl: url, apiKey });
  const workflow = await client.workflows.create({
    name: 'b',
    platform: 'zapier',
    trigger: { type: 'webhook' },
    actions: [{ app: 's', action: 'm' }],
  });
  const build = await client.waitForBuild(workflow);
  // Warm-up: modules, the socket pool and the stream machinery exist before the baseline.
  const warm = (await client.builds.download(build)).getReader();
  for (let i = 0; i < 50; i++) await warm.read();
  await warm.cancel();
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.heap = Math.max(peak.heap, now.heapTotal - base.heapTotal);
  };
  const timer = setInterval(sample, 10);
  const { bytes } = await client.builds.downloadToFile(build, path);
  clearInterval(timer);
  sample();
  // Around each reset (the client resumes a little before it: bytes in flight were lost) and at the ends.
  let ok = true;
  const handle = await open(path, 'r');
  for (const at of [0, resetAt - 600_000, 2 * resetAt - 600_000, size - 65_536]) {
    const buffer = new Uint8Array(65_536);
    await handle.read(buffer, 0, buffer.length, at);
    ok &&= Buffer.compare(buffer, Buffer.from(artifactBytes(size, at, at + buffer.length))) === 0;
  }
  await handle.close();
  await rm(path);
  process.stdout.write(`${JSON.stringify({ rss: peak.rss, heap: peak.heap, bytes, ok, mb: (peak.rss / MB).toFixed(1) })}\n`);
} finally {
  server.kill('SIGTERM');
}
