// One runner of bench/fleet.ts: one client, `count` whole jobs at once (create a workflow, wait for its build,
// take its download URL). Prints `ready`, starts on a line on stdin, then prints its result as JSON. From source
// (tsx), so that running the fleet alone never measures a stale build. Arguments: base URL, API key, count,
// `gated` or `off` (today's behaviour, `rateLimit: false`), and a Redis URL to share the gate through.
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { Client, type WorkflowCreateParams } from '../src/index.js';
import { redisRateStore } from '../src/redis/index.js';

/** What a runner prints at its end. */
export interface WorkerResult {
  /** Jobs that ended with an error, by error class. */
  failed: Record<string, number>;
  /** The client's `warn` lines, by their first words (`rate limit: 429`, `rate store: book failed`, ...). */
  warnings: Record<string, number>;
  /** The latest `finished_at` among the builds it saw complete, epoch ms (0: none). */
  lastFinishedAt: number;
  /** When it started and ended, epoch ms. */
  startedAt: number;
  endedAt: number;
}

const [base = '', apiKey = '', count = '0', mode = 'gated', redisUrl] = process.argv.slice(2);
const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true }) : undefined;
await redis?.connect();
const result: WorkerResult = { failed: {}, warnings: {}, lastFinishedAt: 0, startedAt: 0, endedAt: 0 };
// A `warn` line counted by what it is about, so that a store that fell back (`rate store: ...`) shows.
const warn = (line: string) => {
  const what = line
    .replace(/^\[wfa\] /, '')
    .split(/[(;]/)[0]!
    .trim();
  result.warnings[what] = (result.warnings[what] ?? 0) + 1;
};
const client = new Client({
  baseUrl: base,
  apiKey,
  rateLimit: mode === 'off' ? false : redis ? { store: redisRateStore(redis) } : undefined,
  logger: { error: warn, warn, info: () => {}, debug: () => {} },
  logLevel: 'warn',
});

const input = (i: number): WorkflowCreateParams => ({
  name: `Fleet ${process.pid} ${i}`,
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#builds' } }],
});

async function job(i: number): Promise<void> {
  try {
    const workflow = await client.workflows.create(input(i));
    const build = await client.waitForBuild(workflow);
    if (!build.download_url) throw new Error('a completed build without its download URL');
    result.lastFinishedAt = Math.max(result.lastFinishedAt, Date.parse(String(build.finished_at)) || 0);
  } catch (error) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    result.failed[name] = (result.failed[name] ?? 0) + 1;
  }
}

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();
result.startedAt = Date.now();
await Promise.all(Array.from({ length: Number(count) }, (_, i) => job(i)));
result.endedAt = Date.now();
await redis?.quit();
process.stdout.write(`${JSON.stringify(result)}\n`);
