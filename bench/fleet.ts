/**
 * The whole job at scale (issue 32): N workflows created and waited for until their download URL, against the
 * mock over loopback, limited to 20 requests a second per key (a token bucket, no rate headers), each build
 * finishing 3-10 s after its creation. (a) one client doing 200; (b) 4 processes of 50 sharing a redis-server;
 * (c) the same 4 without Redis. Each once with the gate off (today's behaviour) and once gated. Requests and
 * 429s are counted by the mock. Alone: node --import tsx bench/fleet.ts [abc] [--gated]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { startLoggedMock } from '../test/helpers/logged-mock.js';
import { startRedis, type RedisServer } from '../test/helpers/redis.js';
import type { WorkerResult } from './fleet-worker.js';

/** One budget line, as `npm run bench` prints it. */
export interface FleetRow {
  name: string;
  measured: string;
  budget: string;
  pass: boolean;
}

const RATE = 20;
const BUILD_MS = { min: 3_000, max: 10_000 };
const WORKER = new URL('./fleet-worker.ts', import.meta.url).pathname;

interface Scenario {
  name: string;
  processes: number;
  each: number;
  redis: boolean;
  /** Budget of the gated run: the most 429s as a share of requests, and the most wall time over its lower bound. */
  max429: number;
  maxWall?: number;
}

const SCENARIOS: Scenario[] = [
  { name: '(a) 200 jobs, one client', processes: 1, each: 200, redis: false, max429: 0.02, maxWall: 1.5 },
  { name: '(b) 4 processes x 50, sharing Redis', processes: 4, each: 50, redis: true, max429: 0.03 },
  { name: '(c) 4 processes x 50, no Redis', processes: 4, each: 50, redis: false, max429: 0.15 },
];

/** What one run of a scenario measured. */
interface Measured {
  jobs: number;
  failed: Record<string, number>;
  requests: number;
  tooMany: number;
  wallMs: number;
  lowerBoundMs: number;
  /** When the 429s arrived, ms after the start. */
  refusedAt: number[];
  /** The runners' `warn` lines about the rate store: each is a fall back to pacing alone. */
  storeFailures: number;
}

/** Starts the runners, lets them go at once, and collects their results. */
async function runWorkers(args: string[][]): Promise<WorkerResult[]> {
  const children = args.map((a) => spawn(process.execPath, ['--import', 'tsx', WORKER, ...a], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = children.map((child) => {
    const lines = createInterface({ input: child.stdout });
    const ready = new Promise<void>((resolve) => lines.once('line', () => resolve()));
    const result = new Promise<WorkerResult>((resolve, reject) => {
      lines.on('line', (line) => {
        if (line.startsWith('{')) resolve(JSON.parse(line) as WorkerResult);
      });
      child.once('exit', (code) => reject(new Error(`a fleet runner exited with ${code} before its result`)));
    });
    return { ready, result };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const child of children) child.stdin.write('go\n');
  return Promise.all(outputs.map((o) => o.result));
}

async function measure(scenario: Scenario, gated: boolean, redis: RedisServer | undefined): Promise<Measured> {
  const mock = await startLoggedMock({ rateLimit: { requestsPerSecond: RATE }, buildDurationMs: BUILD_MS });
  const { server } = mock;
  try {
    const mode = gated ? 'gated' : 'off';
    const shared = gated && scenario.redis && redis ? [redis.url] : [];
    const args = Array.from({ length: scenario.processes }, () => [server.url, server.apiKey, String(scenario.each), mode, ...shared]);
    const results = await runWorkers(args);
    const failed: Record<string, number> = {};
    let storeFailures = 0;
    for (const result of results) {
      for (const [name, n] of Object.entries(result.failed)) failed[name] = (failed[name] ?? 0) + n;
      for (const [what, n] of Object.entries(result.warnings)) if (what.startsWith('rate store')) storeFailures += n;
    }
    const start = Math.min(...results.map((r) => r.startedAt));
    const end = Math.max(...results.map((r) => r.endedAt));
    const lastBuild = Math.max(0, ...results.map((r) => r.lastFinishedAt - start));
    const jobs = scenario.processes * scenario.each;
    const counts = server.service.requestCounts(server.apiKey);
    return {
      jobs,
      failed,
      requests: counts.requests,
      tooMany: counts.tooManyRequests,
      wallMs: end - start,
      // Each job sends at least two requests (the create and one poll), at RATE a second at best.
      lowerBoundMs: Math.max(lastBuild, ((2 * jobs) / RATE) * 1000),
      refusedAt: mock.arrivals.filter((a) => a.status === 429).map((a) => a.at - start),
      storeFailures,
    };
  } finally {
    await mock.close();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (m: Measured) => (m.requests ? (100 * m.tooMany) / m.requests : 0);

function describe(m: Measured): string {
  const failed = Object.values(m.failed).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(m.failed)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
  // Where the 429s fell tells a learning overshoot (early) from probes of the pace (spread out).
  const when = m.refusedAt.length > 20 ? '' : `; 429s at ${m.refusedAt.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s`;
  return (
    `${failed} of ${m.jobs} failed${kinds ? ` (${kinds})` : ''}, ${m.requests} requests, ${pct(m).toFixed(1)}% 429, ` +
    `wall ${s(m.wallMs)} = ${(m.wallMs / m.lowerBoundMs).toFixed(2)}x its lower bound ${s(m.lowerBoundMs)}${m.refusedAt.length ? when : ''}` +
    (m.storeFailures ? `; the Redis store failed ${m.storeFailures} times (paced alone 5 s each)` : '')
  );
}

/** Every scenario, the gate off then on; one row each (the baseline's is a figure, the gated run's a budget). */
export async function fleet(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  only: { scenarios?: string; gatedOnly?: boolean } = {},
): Promise<FleetRow[]> {
  const rows: FleetRow[] = [];
  const redis = await startRedis();
  try {
    for (const scenario of SCENARIOS.filter((s) => !only.scenarios || only.scenarios.includes(s.name[1] ?? ''))) {
      for (const gated of only.gatedOnly ? [true] : [false, true]) {
        log(`measuring fleet ${scenario.name}, ${gated ? 'gated' : 'gate off'}…`);
        const m = await measure(scenario, gated, redis);
        const failed = Object.values(m.failed).reduce((a, b) => a + b, 0);
        const wallOk = scenario.maxWall === undefined || m.wallMs <= scenario.maxWall * m.lowerBoundMs;
        const budget = `0 failed, 429s <= ${scenario.max429 * 100}%${scenario.maxWall ? `, wall <= ${scenario.maxWall}x` : ''}`;
        rows.push({
          name: `fleet ${scenario.name}, ${gated ? 'gated' : 'gate off (today, baseline)'}`,
          measured: describe(m),
          budget: gated ? budget : 'none (baseline)',
          pass: !gated || (failed === 0 && pct(m) <= scenario.max429 * 100 && wallOk),
        });
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `bench/fleet.ts ab --gated`: scenarios (a) and (b), gated runs only; for tuning the gate.
  const [scenarios, gated] = process.argv.slice(2);
  for (const row of await fleet(undefined, { scenarios, gatedOnly: gated === '--gated' }))
    console.log(`| ${row.name} | ${row.measured} | ${row.budget} | ${row.pass ? 'pass' : 'FAIL'} |`);
}
