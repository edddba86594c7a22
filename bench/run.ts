/**
 * `npm run bench`: what the SDK costs over hand-written `fetch`, against its peers, in one run on this machine.
 *
 * The service is a node:http server in a separate process (its CPU is not the client's). HTTP variants are
 * interleaved in small blocks, with the order rotated each round, so drift on the machine falls on every
 * variant alike. Each figure is a median; ratios are to raw `fetch` + `res.json()` in the same run. Memory runs
 * each get a process of their own. Prints one table of every budget, measured, with pass or FAIL, and writes
 * it to bench/results/latest.md. Timings are reported here, never asserted by a test.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axios from 'axios';
import ky from 'ky';
import { ofetch } from 'ofetch';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { request as undiciRequest } from 'undici';
import { coldImport } from './cold-start.js';
import { jsonOverHttp } from './node-http.js';
// The built package, as users get it (`npm run bench` builds first); typed by the source it is built from.
const { Client } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
const { parseWebhookEvent } = (await import(
  new URL('../dist/webhooks.js', import.meta.url).href
)) as typeof import('../src/webhooks/index.js');
import { workflowSchema } from '../src/resources/workflow.js';
import { array, safeParse } from '../src/core/schema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 20);
const headers = { 'x-api-key': 'bench_key', accept: 'application/json' };
const RAW = 'raw fetch';
const SDK = 'sdk, validated';
// On Node the SDK sends over node:http (issue 27); the same client over fetch is measured beside it.
const SDK_FETCH = 'sdk over fetch, validated';
const FLOOR = 'node:http keep-alive (floor)';
const UNGATED = 'sdk, validated, rateLimit: false';
// A second client made exactly as UNGATED: the pair's difference is the run's own noise (an A/A comparison).
const AGAIN = 'sdk, validated, rateLimit: false (again)';
// The peers the SDK must be ahead of; stripe-node (node:http, keep-alive agent) is reported beside them.
const FETCH_PEERS = ['openai-node', 'ky', 'ofetch', 'axios'];

// ---------------------------------------------------------------------------------------------------------
// helpers

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function startServer(): Promise<{ base: string; port: number; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, port: Number(port), stop: () => child.kill('SIGTERM') };
}

type Variant = () => Promise<unknown>;

/**
 * The variants in a new order each round, shuffled from a fixed seed: no variant always follows the same one, so
 * what one leaves behind (garbage to collect, sockets) falls on each in turn. A plain rotation kept neighbours.
 */
function orderOf(names: string[], round: number): string[] {
  let seed = 0x9e3779b9 ^ (round + 1);
  const random = () => {
    seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5;
    return ((seed ^ (seed >>> 14)) >>> 0) / 2 ** 32;
  };
  const order = [...names];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Per variant, a figure for each round, in round order: to compare two variants round by round. */
type PerRound = Record<string, number[]>;

/** Interleaves the variants in blocks; returns per-request wall-time p50 (ms) and CPU per request (µs), with each round's. */
async function compare(
  variants: Record<string, Variant>,
  rounds: number,
  block: number,
): Promise<{ result: Record<string, { p50: number; cpu: number }>; p50s: PerRound; cpus: PerRound }> {
  const names = Object.keys(variants);
  const times: PerRound = {};
  const p50s: PerRound = {};
  const cpus: PerRound = {};
  for (const name of names) {
    times[name] = [];
    p50s[name] = [];
    cpus[name] = [];
    for (let i = 0; i < 30; i++) await variants[name]!(); // warm-up: JIT, sockets
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of orderOf(names, round)) {
      const run = variants[name]!;
      const before = process.cpuUsage();
      const own: number[] = [];
      for (let i = 0; i < block; i++) {
        const start = performance.now();
        await run();
        own.push(performance.now() - start);
      }
      const used = process.cpuUsage(before);
      times[name]!.push(...own);
      p50s[name]!.push(median(own));
      cpus[name]!.push((used.user + used.system) / block);
    }
  }
  const result = Object.fromEntries(names.map((name) => [name, { p50: median(times[name]!), cpu: median(cpus[name]!) }]));
  return { result, p50s, cpus };
}

/** Requests per second with `concurrency` in flight, `total` per burst; bursts interleaved like `compare`. */
async function throughput(variants: Record<string, Variant>, rounds: number, concurrency: number, total: number) {
  const names = Object.keys(variants);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const burst = async (run: Variant) => {
    let left = total;
    const worker = async () => {
      while (left-- > 0) await run();
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return total / ((performance.now() - start) / 1000);
  };
  for (const name of names) await burst(variants[name]!); // warm-up: a socket per worker
  for (let round = 0; round < rounds; round++) {
    for (const name of orderOf(names, round)) rates[name]!.push(await burst(variants[name]!));
  }
  return { rates: Object.fromEntries(names.map((name) => [name, median(rates[name]!)])), perRound: rates };
}

/**
 * The rate gate's cost when nothing limits, against the run's own noise (issue 32): per round, the gated client's
 * figure over the `rateLimit: false` one's; the noise is the same ratio for two identical `rateLimit: false`
 * clients. Within noise: the gated median ratio is no worse than the A/A pair's worse quartile.
 */
function gateCost(name: string, perRound: PerRound, higherIsBetter: boolean): Budget {
  const ratios = (variant: string) => perRound[variant]!.map((value, i) => value / perRound[UNGATED]![i]!);
  const gated = median(ratios(SDK));
  const noise = ratios(AGAIN).sort((a, b) => a - b);
  const quartile = (q: number) => noise[Math.round(q * (noise.length - 1))]!;
  const bound = higherIsBetter ? quartile(0.25) : quartile(0.75);
  return {
    name: `the rate gate open, ${name}: gated / rateLimit: false, within the A/A noise`,
    measured: `${fmt(gated, 3)}x (A/A median ${fmt(median(noise), 3)}x, quartiles ${fmt(quartile(0.25), 3)}-${fmt(quartile(0.75), 3)}x)`,
    budget: higherIsBetter ? `>= ${fmt(bound, 3)}x` : `<= ${fmt(bound, 3)}x`,
    pass: higherIsBetter ? gated >= bound : gated <= bound,
  };
}

/** Median time of `fn` over `n` runs, in ms. */
function timeSync(fn: () => unknown, n: number): number {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** The size budgets of `npm run check:size` (.size-limit.mjs), measured by size-limit on dist/. */
function sizeLimit(): { name: string; size: number; sizeLimit: number; passed: boolean }[] {
  // size-limit exits 1 when a budget fails; its JSON is on stdout either way.
  const { stdout, stderr } = spawnSync(process.execPath, [join(root, 'node_modules/size-limit/bin.js'), '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (!stdout.trim().startsWith('[')) throw new Error(`size-limit --json failed:\n${stdout}${stderr}`);
  return JSON.parse(stdout);
}

interface ChildRun {
  count: number;
  ms: number;
  maxRssKb: number;
}

/** `bench/child.ts` in a process of its own, `runs` times per variant alternating; medians. */
function child(mode: 'walk' | 'requests', base: string, runs: number): Record<'raw' | 'sdk', ChildRun> {
  const results: Record<'raw' | 'sdk', ChildRun[]> = { raw: [], sdk: [] };
  for (let i = 0; i < runs; i++) {
    for (const variant of (i % 2 ? ['sdk', 'raw'] : ['raw', 'sdk']) as ('raw' | 'sdk')[]) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/child.ts'), mode, variant, base], {
        cwd: root,
        encoding: 'utf8',
      });
      results[variant].push(JSON.parse(out) as ChildRun);
    }
  }
  const pick = (runs: ChildRun[]): ChildRun => ({
    count: runs[0]!.count,
    ms: median(runs.map((r) => r.ms)),
    maxRssKb: median(runs.map((r) => r.maxRssKb)),
  });
  return { raw: pick(results.raw), sdk: pick(results.sdk) };
}

// ---------------------------------------------------------------------------------------------------------
// the run

const { base, port, stop } = await startServer();
const rows: string[][] = [];
/** One budget line; `bench/wait-lag.ts` returns rows of the same shape. */
interface Budget {
  name: string;
  measured: string;
  budget: string;
  pass: boolean;
}
const budgets: Budget[] = [];

/** A budget on peak RSS: the SDK's child process against the raw one's. */
function rssBudget(name: string, run: Record<'raw' | 'sdk', ChildRun>, limit: number): Budget {
  const [sdk, raw] = [run.sdk.maxRssKb, run.raw.maxRssKb];
  return {
    name,
    measured: `${ratio(sdk, raw)} (${fmt(sdk / 1024, 1)} MB vs ${fmt(raw / 1024, 1)} MB)`,
    budget: `<= ${limit.toFixed(2)}x`,
    pass: sdk <= limit * raw,
  };
}
const ratio = (a: number, b: number) => `${fmt(a / b)}x`;

try {
  const validated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1' });
  const overFetch = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', fetch: (input, init) => fetch(input, init) });
  const unvalidated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', validateResponses: false });
  // The rate gate's cost when nothing limits (issue 32): the same client without it, in the same run.
  const ungated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', rateLimit: false });
  const again = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', rateLimit: false });
  const openai = new OpenAI({ apiKey: 'bench_key', baseURL: `${base}/v1`, maxRetries: 0 });
  const stripe = new Stripe('sk_test_bench', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  const input = {
    name: 'Bench',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hook' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#a' } }],
  };
  // The floor (docs/design.md, "Transport"): the same request by hand on node:http with a keep-alive agent, and
  // on undici's request() for comparison.
  const agent = new Agent({ keepAlive: true });
  const viaHttp = (method: string, path: string, body?: string) => jsonOverHttp(agent, `${base}/v1${path}`, { method, headers, body });
  const viaUndici = (method: 'GET' | 'POST', path: string, body?: string) =>
    undiciRequest(`${base}/v1${path}`, { method, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, body }).then(
      (r) => r.body.json(),
    );
  const get = (path: string) => ({
    'undici request() (experiment)': () => viaUndici('GET', path),
    [FLOOR]: () => viaHttp('GET', path),
    [RAW]: () => fetch(`${base}/v1${path}`, { headers }).then((r) => r.json()),
    'openai-node': () => openai.get(path),
    ky: () => ky.get(`${base}/v1${path}`, { headers }).json(),
    ofetch: () => ofetch(`${base}/v1${path}`, { headers }),
    axios: () => axios.get(`${base}/v1${path}`, { headers }).then((r) => r.data),
    'stripe-node': () => stripe.rawRequest('GET', `/v2${path}`),
  });
  const listOf = (limit: number) => ({
    ...get(`/workflows?limit=${limit}`),
    [SDK]: () => validated.workflows.list({ limit }).then((p) => p.items),
    [SDK_FETCH]: () => overFetch.workflows.list({ limit }).then((p) => p.items),
    'sdk, no validation': () => unvalidated.workflows.list({ limit }).then((p) => p.items),
  });

  const workloads: [string, Record<string, Variant>, number, number][] = [
    [
      'GET one workflow',
      {
        ...get('/workflows/wf_1'),
        [SDK]: () => validated.workflows.get('wf_1'),
        [SDK_FETCH]: () => overFetch.workflows.get('wf_1'),
        'sdk, no validation': () => unvalidated.workflows.get('wf_1'),
        [UNGATED]: () => ungated.workflows.get('wf_1'),
        [AGAIN]: () => again.workflows.get('wf_1'),
      },
      ROUNDS,
      20,
    ],
    ['GET 20-item list', listOf(20), ROUNDS, 20],
    // About 5 ms a request: fewer, or this one workload would take most of the run.
    ['GET 1000-item list', listOf(1000), Math.ceil(ROUNDS / 2), 5],
    [
      'POST create',
      {
        [RAW]: () =>
          fetch(`${base}/v1/workflows`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          }).then((r) => r.json()),
        'openai-node': () => openai.post('/workflows', { body: input }),
        ky: () => ky.post(`${base}/v1/workflows`, { headers, json: input }).json(),
        ofetch: () => ofetch(`${base}/v1/workflows`, { method: 'POST', headers, body: input }),
        axios: () => axios.post(`${base}/v1/workflows`, input, { headers }).then((r) => r.data),
        'stripe-node': () => stripe.rawRequest('POST', '/v2/workflows', input),
        'undici request() (experiment)': () => viaUndici('POST', '/workflows', JSON.stringify(input)),
        [FLOOR]: () => viaHttp('POST', '/workflows', JSON.stringify(input)),
        [SDK]: () => validated.workflows.create(input),
        [SDK_FETCH]: () => overFetch.workflows.create(input),
        'sdk, no validation': () => unvalidated.workflows.create(input),
      },
      ROUNDS,
      20,
    ],
  ];

  /** The SDK is ahead of every fetch-based peer: a lower p50, or a higher throughput. */
  const aheadOf = (workload: string, score: Record<string, number>, higherIsBetter: boolean) => {
    const sdk = score[SDK]!;
    const behind = FETCH_PEERS.filter((peer) => (higherIsBetter ? score[peer]! >= sdk : score[peer]! <= sdk));
    const nearest = FETCH_PEERS.map((peer) => [peer, score[peer]! / score[RAW]!] as const).sort((a, b) =>
      higherIsBetter ? b[1] - a[1] : a[1] - b[1],
    )[0]!;
    budgets.push({
      name: `${workload}: ahead of openai-node, ky, ofetch, axios`,
      measured: `sdk ${ratio(sdk, score[RAW]!)}, nearest ${nearest[0]} ${fmt(nearest[1])}x, stripe-node ${ratio(score['stripe-node']!, score[RAW]!)}`,
      budget: higherIsBetter ? 'highest throughput' : 'lowest p50',
      pass: behind.length === 0,
    });
  };

  for (const [workload, variants, rounds, block] of workloads) {
    process.stderr.write(`measuring ${workload}…\n`);
    const { result, p50s, cpus } = await compare(variants, rounds, block);
    const raw = result[RAW]!;
    if (UNGATED in variants) budgets.push(gateCost(`${workload} p50`, p50s, false), gateCost(`${workload} CPU`, cpus, false));
    for (const [variant, { p50, cpu }] of Object.entries(result)) {
      rows.push([workload, variant, fmt(p50, 3), ratio(p50, raw.p50), fmt(cpu, 0), ratio(cpu, raw.cpu)]);
    }
    const sdk = result[SDK]!.p50 / raw.p50;
    if (workload === 'GET 20-item list') {
      budgets.push({ name: 'validated 20-item list GET p50 vs raw fetch', measured: `${fmt(sdk)}x`, budget: '<= 1.20x', pass: sdk <= 1.2 });
    }
    if (workload === 'POST create') {
      budgets.push({ name: 'validated POST create p50 vs raw fetch', measured: `${fmt(sdk)}x`, budget: '<= 1.15x', pass: sdk <= 1.15 });
    }
    aheadOf(workload, Object.fromEntries(Object.entries(result).map(([name, r]) => [name, r.p50])), false);
    if (workload !== 'GET 1000-item list') {
      const stripe = result['stripe-node']!.p50;
      budgets.push({
        name: `${workload} p50: sdk (node:http) vs stripe-node`,
        measured: `${ratio(result[SDK]!.p50, stripe)} (floor ${ratio(result[FLOOR]!.p50, stripe)}, sdk over fetch ${ratio(result[SDK_FETCH]!.p50, stripe)})`,
        budget: '<= 1.00x',
        pass: result[SDK]!.p50 <= stripe,
      });
    }
  }

  process.stderr.write('measuring 64-concurrent throughput…\n');
  const one = workloads[0]![1];
  const { rates, perRound } = await throughput(one, Math.max(3, Math.ceil(ROUNDS / 2)), 64, 1280);
  budgets.push(gateCost('64 concurrent GETs', perRound, true));
  for (const [variant, rate] of Object.entries(rates)) {
    rows.push(['64 concurrent GETs (req/s)', variant, fmt(rate, 0), ratio(rate, rates[RAW]!), '', '']);
  }
  aheadOf('64-concurrent throughput', rates, true);
  budgets.push({
    name: '64-concurrent throughput: sdk (node:http) vs stripe-node, and vs the node:http floor',
    measured: `${ratio(rates[SDK]!, rates['stripe-node']!)} of stripe-node, ${ratio(rates[SDK]!, rates[FLOOR]!)} of the floor`,
    budget: '>= 1.00x and >= 0.85x',
    pass: rates[SDK]! >= rates['stripe-node']! && rates[SDK]! >= 0.85 * rates[FLOOR]!,
  });

  process.stderr.write('measuring validation of a 1000-item list…\n');
  const text = await (await fetch(`${base}/v1/workflows?limit=1000`, { headers })).text();
  const parsedItems = (JSON.parse(text) as { data: unknown[] }).data;
  const listSchema = array(workflowSchema());
  const parseMs = timeSync(() => JSON.parse(text), 200);
  // What a list page does (resources/list.ts): zod's parse. A figure, not a budget: validation costs what zod costs.
  if (!safeParse(listSchema, parsedItems).success) throw new Error('the benchmark list does not validate');
  const zodMs = timeSync(() => safeParse(listSchema, parsedItems), 50);
  budgets.push({
    name: 'validating a 1000-item list vs its JSON.parse (a figure: the budget was withdrawn in #25)',
    measured: `${ratio(zodMs, parseMs)} (${fmt(zodMs, 3)} ms vs ${fmt(parseMs, 3)} ms)`,
    budget: 'none',
    pass: true,
  });

  process.stderr.write('measuring parseWebhookEvent…\n');
  // A 1 KB delivery; the hand-written check is what a careful user writes: JSON.parse, the fields' types, and
  // the download URL parsed once for its protocol.
  const delivery = JSON.stringify({
    event: 'build.completed',
    workflow_id: 'wf_1',
    data: { download_url: 'https://files.example.com/builds/wf_1.zip', note: 'x'.repeat(880) },
  });
  const byHand = (body: string) => {
    const event = JSON.parse(body);
    if (typeof event !== 'object' || event === null || typeof event.event !== 'string' || typeof event.workflow_id !== 'string') {
      throw new Error('bad event');
    }
    if (typeof event.data !== 'object' || event.data === null || typeof event.data.download_url !== 'string') throw new Error('bad data');
    if (!/^https?:$/.test(new URL(event.data.download_url).protocol)) throw new Error('bad url');
    return event;
  };
  const batch = (fn: (body: string) => unknown) => () => {
    for (let i = 0; i < 200; i++) fn(delivery);
  };
  let handMs = 0;
  let sdkMs = 0;
  for (let i = 0; i < 5; i++) {
    handMs += timeSync(batch(byHand), 60);
    sdkMs += timeSync(batch(parseWebhookEvent), 60);
  }
  budgets.push({
    name: `parseWebhookEvent speed vs a hand-written check (${delivery.length} B body)`,
    measured: `${ratio(handMs, sdkMs)} (${fmt((sdkMs / 5 / 200) * 1000, 2)} µs vs ${fmt((handMs / 5 / 200) * 1000, 2)} µs)`,
    budget: '>= 0.90x',
    pass: handMs / sdkMs >= 0.9,
  });

  process.stderr.write('measuring for await over 100 000 items…\n');
  const walk = child('walk', base, 3);
  budgets.push({
    name: 'for await over 100 000 items (pages of 100): wall time vs a raw loop',
    measured: `${ratio(walk.sdk.ms, walk.raw.ms)} (${fmt(walk.sdk.ms, 0)} ms vs ${fmt(walk.raw.ms, 0)} ms; ${walk.sdk.count} and ${walk.raw.count} items)`,
    budget: '<= 1.10x',
    pass: walk.sdk.ms <= 1.1 * walk.raw.ms && walk.sdk.count === walk.raw.count,
  });
  budgets.push(rssBudget('... and its peak RSS', walk, 1.1));

  process.stderr.write('measuring peak RSS over 20 000 requests…\n');
  const many = child('requests', base, 1);
  budgets.push(rssBudget('peak RSS over 20 000 sequential GETs vs raw fetch', many, 1.1));

  process.stderr.write('measuring cold import…\n');
  const cold = coldImport(Number(process.env['BENCH_IMPORT_RUNS'] ?? 15));
  budgets.push({
    name: 'cold import() of the package vs node -e 0',
    measured: `${ratio(cold.sdk, cold.empty)} (${fmt(cold.sdk, 1)} ms vs ${fmt(cold.empty, 1)} ms)`,
    budget: '<= 1.20x',
    pass: cold.sdk <= 1.2 * cold.empty,
  });

  process.stderr.write('measuring bundle sizes…\n');
  for (const check of sizeLimit()) {
    budgets.push({
      name: `${check.name}, min+gzip`,
      measured: `${fmt(check.size / 1000, 2)} kB`,
      budget: `<= ${fmt(check.sizeLimit / 1000, 2)} kB`,
      pass: check.passed,
    });
  }
} finally {
  stop();
}

// The whole job at scale (issue 32): child processes against the mock, real time, about three minutes.
process.stderr.write('measuring the fleet (bench/fleet.ts)…\n');
const { fleet } = await import('./fleet.js');
budgets.push(...(await fleet()));

// Hook for the build-wait budgets (issue 16): bench/wait-lag.ts, when present, exports
// `waitLag(): Promise<Budget[]>`, run last because it replaces the clock while it runs.
const waitLagFile = join(root, 'bench/wait-lag.ts');
if (existsSync(waitLagFile)) {
  process.stderr.write('measuring build-wait lag…\n');
  const { waitLag } = (await import(new URL('./wait-lag.ts', import.meta.url).href)) as { waitLag: () => Promise<Budget[]> };
  budgets.push(...(await waitLag()));
} else {
  budgets.push({ name: 'build waits (bench/wait-lag.ts)', measured: 'not measured: no bench/wait-lag.ts', budget: '', pass: false });
}

// The MCP server (packages/mcp, built by `npm run bench` too): a tool call and its start.
process.stderr.write('measuring the MCP server…\n');
const { mcpRows } = await import('./mcp.js');
budgets.push(...(await mcpRows(root)));

const table = (head: string[], body: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');

const report = [
  `# Benchmark: ${new Date().toISOString()}`,
  '',
  `Node ${process.version}, ${ROUNDS} rounds per variant, interleaved; loopback HTTP/1.1 keep-alive; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}.`,
  '',
  table(['workload', 'variant', 'p50 ms (or req/s)', 'vs raw', 'CPU µs/req', 'vs raw'], rows),
  '',
  table(
    ['budget', 'measured', 'budget', 'result'],
    budgets.map((b) => [b.name, b.measured, b.budget, b.pass ? 'pass' : 'FAIL']),
  ),
  '',
].join('\n');

const out = join(root, 'bench/results/latest.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
process.stdout.write(`${report}\nwritten to ${out}\n`);
