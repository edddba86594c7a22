/**
 * `npm run bench`: what the SDK costs over hand-written `fetch`, measured in one run on this machine.
 *
 * The service is a node:http server in a separate process (its CPU is not the client's). HTTP variants are
 * interleaved in small blocks, with the order rotated each round, so drift on the machine falls on every
 * variant alike. Each figure is a median; ratios are to raw `fetch` + `res.json()` in the same run.
 * Prints a table with the budgets beside the figures and writes it to bench/results/latest.md.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import OpenAI from 'openai';
// The built package, as users get it (`npm run bench` builds first); typed by the source it is built from.
const { Client } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
import { WorkflowSchema } from '../src/resources/workflows.js';
import { array } from '../src/core/schema.js';
import { safeParse } from '../src/core/schema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 30);
const BLOCK = 20;
const headers = { 'x-api-key': 'bench_key', accept: 'application/json' };

// ---------------------------------------------------------------------------------------------------------
// helpers

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

type Variant = () => Promise<unknown>;

/** Interleaves the variants in blocks; returns per-request wall-time p50 (ms) and CPU per request (µs). */
async function compare(variants: Record<string, Variant>): Promise<Record<string, { p50: number; cpu: number }>> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (const name of names) {
    times[name] = [];
    cpu[name] = [];
    for (let i = 0; i < 50; i++) await variants[name]!(); // warm-up: JIT, sockets
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const run = variants[name]!;
      const before = process.cpuUsage();
      for (let i = 0; i < BLOCK; i++) {
        const start = performance.now();
        await run();
        times[name]!.push(performance.now() - start);
      }
      const used = process.cpuUsage(before);
      cpu[name]!.push((used.user + used.system) / BLOCK);
    }
  }
  return Object.fromEntries(names.map((name) => [name, { p50: median(times[name]!), cpu: median(cpu[name]!) }]));
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

function coldImport(runs: number): { empty: number; sdk: number } {
  const empty: number[] = [];
  const sdk: number[] = [];
  const url = new URL('../dist/index.js', import.meta.url).href;
  const time = (args: string[]) => {
    const start = performance.now();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    return performance.now() - start;
  };
  for (let i = 0; i < runs; i++) {
    empty.push(time(['--input-type=module', '-e', '']));
    sdk.push(time(['--input-type=module', '-e', `await import(${JSON.stringify(url)})`]));
  }
  return { empty: median(empty), sdk: median(sdk) };
}

function paginate(variant: 'raw' | 'sdk', base: string): { items: number; maxRssKb: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/paginate.ts'), variant, base], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as { items: number; maxRssKb: number };
}

// ---------------------------------------------------------------------------------------------------------
// the run

const { base, stop } = await startServer();
const rows: string[][] = [];
const budgets: { name: string; value: string; budget: string; pass: boolean }[] = [];

try {
  const validated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1' });
  const unvalidated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', validateResponses: false });
  const openai = new OpenAI({ apiKey: 'bench_key', baseURL: `${base}/v1` });
  const input = {
    name: 'Bench',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hook' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#a' } }],
  };

  const workloads: Record<string, Record<string, Variant>> = {
    'GET one workflow': {
      'raw fetch': () => fetch(`${base}/v1/workflows/wf_1`, { headers }).then((r) => r.json()),
      'ky alone': () => ky.get(`${base}/v1/workflows/wf_1`, { headers }).json(),
      'sdk, validated': () => validated.workflows.get('wf_1'),
      'sdk, no validation': () => unvalidated.workflows.get('wf_1'),
      'openai-node get()': () => openai.get('/workflows/wf_1'),
    },
    'GET 20-item list': {
      'raw fetch': () => fetch(`${base}/v1/workflows?limit=20`, { headers }).then((r) => r.json()),
      'ky alone': () => ky.get(`${base}/v1/workflows?limit=20`, { headers }).json(),
      'sdk, validated': () => validated.workflows.list({ limit: 20 }).then((p) => p.items),
      'sdk, no validation': () => unvalidated.workflows.list({ limit: 20 }).then((p) => p.items),
      'openai-node get()': () => openai.get('/workflows', { query: { limit: 20 } }),
    },
    'GET 1000-item list': {
      'raw fetch': () => fetch(`${base}/v1/workflows?limit=1000`, { headers }).then((r) => r.json()),
      'ky alone': () => ky.get(`${base}/v1/workflows?limit=1000`, { headers }).json(),
      'sdk, validated': () => validated.workflows.list({ limit: 1000 }).then((p) => p.items),
      'sdk, no validation': () => unvalidated.workflows.list({ limit: 1000 }).then((p) => p.items),
      'openai-node get()': () => openai.get('/workflows', { query: { limit: 1000 } }),
    },
    'POST create': {
      'raw fetch': () =>
        fetch(`${base}/v1/workflows`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        }).then((r) => r.json()),
      'ky alone': () => ky.post(`${base}/v1/workflows`, { headers, json: input }).json(),
      'sdk, validated': () => validated.workflows.create(input),
      'sdk, no validation': () => unvalidated.workflows.create(input),
      'openai-node get()': () => openai.post('/workflows', { body: input }),
    },
  };

  for (const [workload, variants] of Object.entries(workloads)) {
    process.stderr.write(`measuring ${workload}…\n`);
    const result = await compare(variants);
    const rawP50 = result['raw fetch']!.p50;
    const rawCpu = result['raw fetch']!.cpu;
    for (const [variant, { p50, cpu }] of Object.entries(result)) {
      rows.push([workload, variant, fmt(p50, 3), `${fmt(p50 / rawP50)}x`, fmt(cpu, 0), `${fmt(cpu / rawCpu)}x`]);
    }
    if (workload === 'GET 20-item list') {
      const ratio = result['sdk, validated']!.p50 / rawP50;
      const peer = result['openai-node get()']!.p50 / rawP50;
      budgets.push({
        name: 'validated 20-item list GET p50 vs raw fetch',
        value: `${fmt(ratio)}x`,
        budget: '<= 1.30x',
        pass: ratio <= 1.3,
      });
      budgets.push({
        name: '... and below openai-node get() in the same run',
        value: `${fmt(ratio)}x vs ${fmt(peer)}x`,
        budget: '< peer',
        pass: ratio < peer,
      });
    }
  }

  process.stderr.write('measuring validation of a 1000-item list…\n');
  const text = await (await fetch(`${base}/v1/workflows?limit=1000`, { headers })).text();
  const parsedItems = (JSON.parse(text) as { data: unknown[] }).data;
  const listSchema = array(WorkflowSchema);
  const parseMs = timeSync(() => JSON.parse(text), 300);
  // What the SDK runs on a list's items: the check-only pass (zod parses only a body it refuses).
  const validateMs = timeSync(() => {
    if (!safeParse(listSchema, parsedItems).success) throw new Error('the benchmark list does not validate');
  }, 300);
  budgets.push({
    name: 'validating a 1000-item list vs its JSON.parse',
    value: `${fmt(validateMs / parseMs)}x (${fmt(validateMs, 3)} ms vs ${fmt(parseMs, 3)} ms)`,
    budget: '<= 1.0x',
    pass: validateMs <= parseMs,
  });

  process.stderr.write('measuring bundle sizes…\n');
  for (const check of sizeLimit()) {
    budgets.push({
      name: `${check.name}, min+gzip`,
      value: `${fmt(check.size / 1000, 2)} kB`,
      budget: `<= ${fmt(check.sizeLimit / 1000, 2)} kB`,
      pass: check.passed,
    });
  }

  process.stderr.write('measuring cold import…\n');
  const cold = coldImport(Number(process.env['BENCH_IMPORT_RUNS'] ?? 20));
  budgets.push({
    name: 'cold import() of the package vs an empty Node',
    value: `${fmt(cold.sdk / cold.empty)}x (${fmt(cold.sdk, 1)} ms vs ${fmt(cold.empty, 1)} ms)`,
    budget: '<= 2.0x',
    pass: cold.sdk <= 2 * cold.empty,
  });

  process.stderr.write('measuring 100 000 paginated items…\n');
  const rawRun = paginate('raw', base);
  const sdkRun = paginate('sdk', base);
  budgets.push({
    name: '100k paginated items: peak RSS vs a raw fetch loop',
    value: `${fmt(sdkRun.maxRssKb / rawRun.maxRssKb)}x (${fmt(sdkRun.maxRssKb / 1024, 1)} MB vs ${fmt(rawRun.maxRssKb / 1024, 1)} MB; ${sdkRun.items} and ${rawRun.items} items)`,
    budget: '<= 1.1x',
    pass: sdkRun.maxRssKb <= 1.1 * rawRun.maxRssKb && sdkRun.items === rawRun.items,
  });
} finally {
  stop();
}

const table = (head: string[], body: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');

const report = [
  `# Benchmark: ${new Date().toISOString()}`,
  '',
  `Node ${process.version}, ${ROUNDS} rounds of ${BLOCK} requests per variant, interleaved; loopback HTTP/1.1 keep-alive.`,
  '',
  table(['workload', 'variant', 'p50 ms', 'vs raw', 'CPU µs/req', 'vs raw'], rows),
  '',
  table(
    ['budget', 'measured', 'budget', 'result'],
    budgets.map((b) => [b.name, b.value, b.budget, b.pass ? 'pass' : 'FAIL']),
  ),
  '',
].join('\n');

const out = join(root, 'bench/results/latest.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
process.stdout.write(`${report}\nwritten to ${out}\n`);
