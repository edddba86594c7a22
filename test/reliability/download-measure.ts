/**
 * One measured 1 GiB download to a file, in a process of its own (started by download-memory.test.ts with the
 * V8 flags under test): prints `{ rss, heap, bytes, ok }` as JSON, the peak growths after a warm-up and a GC.
 * `sdk` is `downloadToFile` over the project's transport; `fetch` and `http` are the same loop, one chunk written at a
 * time, by hand.
 */
import { spawn } from 'node:child_process';
import { open, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { Client } from '../../src/index.js';
import { artifactBytes } from '../../src/testing/index.js';

const MB = 1024 * 1024;
const [path = '', size = 0, resetAt = 0, how = 'sdk'] = [
  process.argv[2],
  Number(process.argv[3]),
  Number(process.argv[4]),
  process.argv[5],
];
const server = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./download-server.ts', import.meta.url).pathname, String(size), String(resetAt), how === 'sdk' ? '2' : '0'],
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

/** The baselines cannot resume: their server never resets. */
async function byHand(source: AsyncIterable<Uint8Array>, limit = Infinity): Promise<number> {
  const handle = await open(path, 'w');
  let bytes = 0;
  let chunks = 0;
  try {
    for await (const chunk of source) {
      await handle.write(chunk, 0, chunk.byteLength, bytes);
      bytes += chunk.byteLength;
      if (++chunks >= limit) break;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}
const viaFetch = async (from: string, limit?: number) => byHand((await fetch(from)).body!, limit);
const viaHttp = (from: string, limit?: number) =>
  new Promise<number>((resolve, reject) => get(from, (response) => byHand(response, limit).then(resolve, reject)).on('error', reject));

try {
  // The transport of the test's project (test/helpers/transport.ts): node:http, or `fetch` when it says so.
  const viaFetchOption =
    process.env['WFA_TEST_TRANSPORT'] === 'fetch' ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) } : {};
  const client = new Client({ baseUrl: url, apiKey, ...viaFetchOption });
  const workflow = await client.workflows.create({
    name: 'b',
    platform: 'zapier',
    trigger: { type: 'webhook' },
    actions: [{ app: 's', action: 'm' }],
  });
  const build = await client.waitForBuild(workflow);
  const plain = build.download_url!;
  // Warm-up: modules, the socket pool and the stream machinery exist before the baseline.
  if (how === 'sdk') {
    const warm = (await client.builds.download(build)).getReader();
    for (let i = 0; i < 50; i++) await warm.read();
    await warm.cancel();
  } else await (how === 'fetch' ? viaFetch : viaHttp)(plain, 50);
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.heap = Math.max(peak.heap, now.heapTotal - base.heapTotal);
  };
  const timer = setInterval(sample, 10);
  const bytes =
    how === 'sdk' ? (await client.builds.downloadToFile(build, path)).bytes : await (how === 'fetch' ? viaFetch : viaHttp)(plain);
  clearInterval(timer);
  sample();
  // Around each reset (the client resumes a little before it: bytes in flight were lost) and at the ends.
  let ok = true;
  const handle = await open(path, 'r');
  for (const at of how === 'sdk' ? [0, resetAt - 600_000, 2 * resetAt - 600_000, size - 65_536] : [0, size - 65_536]) {
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
