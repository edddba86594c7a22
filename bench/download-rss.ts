/**
 * Issue 27's download memory goal: the peak RSS growth of `downloadToFile` for 1 GiB against a hand-written
 * `node:http` loop writing the same file, each in a fresh process, medians over RUNS of each. This process is
 * the loopback server (1 GiB generated on the fly, so its buffers are not the clients'); `node --import tsx
 * bench/download-rss.ts [runs]`. Budget: the SDK's median at most 1.25x the loop's, and no run over 64 MB.
 */
import { execFile } from 'node:child_process';
import { open, rm } from 'node:fs/promises';
import { Agent, createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '../src/index.js';

const MB = 1024 * 1024;
const SIZE = 1024 * MB;
const [mode = 'parent', how = '', url = '', path = ''] = process.argv.slice(2);

/** The parent: serves `/big` (1 GiB) and `/small` (1 MiB, the warm-up), and runs the children in turn. */
async function parent(runs: number): Promise<void> {
  const block = Buffer.alloc(64 * 1024, 0x5a);
  const server = createServer((req, res) => {
    const size = req.url === '/small' ? MB : SIZE;
    res.writeHead(200, { 'content-length': size, 'accept-ranges': 'bytes', etag: '"v1"' });
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        const chunk = block.subarray(0, Math.min(block.length, size - sent));
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const script = new URL(import.meta.url).pathname;
  const figures: Record<string, number[]> = { sdk: [], hand: [] };
  for (let i = 0; i < runs; i++) {
    for (const kind of ['sdk', 'hand']) {
      const file = join(tmpdir(), `wfa-download-rss-${process.pid}-${kind}.bin`);
      const args = ['--expose-gc', '--import', 'tsx', script, 'child', kind, base, file];
      const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 600_000 });
      const { rss, bytes } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rss: number; bytes: number };
      if (bytes !== SIZE) throw new Error(`${kind} wrote ${bytes} bytes`);
      figures[kind]!.push(rss / MB);
      console.log(`run ${i + 1} ${kind}: ${(rss / MB).toFixed(1)} MB`);
    }
  }
  server.close();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const sdk = median(figures['sdk']!);
  const hand = median(figures['hand']!);
  const worst = Math.max(...figures['sdk']!);
  const show = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
  console.log(`sdk (downloadToFile, node:http): ${show(figures['sdk']!)}; median ${sdk.toFixed(1)} MB, max ${worst.toFixed(1)} MB`);
  console.log(`hand loop (node:http):           ${show(figures['hand']!)}; median ${hand.toFixed(1)} MB`);
  console.log(`ratio of medians ${(sdk / hand).toFixed(2)}x (budget <= 1.25x); max ${worst.toFixed(1)} MB (budget <= 64 MB)`);
}

/** The hand-written loop: one keep-alive `node:http` request, each chunk written before the next is read. */
function byHand(agent: Agent, from: string, to: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(from, { agent }, async (response) => {
      const handle = await open(to, 'w');
      let bytes = 0;
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          await handle.write(chunk, 0, chunk.byteLength, bytes);
          bytes += chunk.byteLength;
        }
        resolve(bytes);
      } catch (error) {
        reject(error);
      } finally {
        await handle.close();
      }
    }).on('error', reject);
  });
}

/** A child: warms up on 1 MiB, collects, then downloads 1 GiB to `path` while sampling its RSS every 10 ms. */
async function child(): Promise<void> {
  const client = new Client({ baseUrl: url, apiKey: 'wfa_bench_key' });
  const agent = new Agent({ keepAlive: true });
  const download = (size: string) =>
    how === 'sdk'
      ? client.builds.downloadToFile({ status: 'completed', download_url: `${url}/${size}` }, path).then((file) => file.bytes)
      : byHand(agent, `${url}/${size}`, path);
  await download('small');
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage.rss();
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage.rss() - start);
  };
  const timer = setInterval(sample, 10);
  const bytes = await download('big');
  clearInterval(timer);
  sample();
  await rm(path, { force: true });
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ rss: peak, bytes })}\n`);
}

if (mode === 'child') await child();
else await parent(Number(mode) || 9);
