/**
 * `node --import tsx bench/layers.ts [rounds]`: where a sequential GET of one workflow spends its CPU, layer by
 * layer, in one process: the hand-written node:http floor, the SDK's transport alone (a fresh AbortSource per
 * request, as the core gives one per attempt, and the same with one shared source), the SDK without validation,
 * and the SDK. Blocks interleaved, order rotated; each figure is the median over rounds of that round's CPU per
 * request divided by the floor's in the same round, so machine load falls on every layer alike. Runs the source
 * (tsx), not dist/, so a change can be measured before it is built. A tool for A/B work, not a budget.
 */
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { nodeTransport } from '../src/core/node-transport.js';
import { AbortSource } from '../src/core/timing.js';
import type { TransportRequest } from '../src/core/transport.js';
import { Client } from '../src/index.js';
import { jsonOverHttp } from './node-http.js';

const ROUNDS = Number(process.argv[2] ?? 40);
const BLOCK = 50;
const server = spawn(process.execPath, [new URL('./server.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((resolve) => server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
const base = `http://127.0.0.1:${port}`;
const headers = { 'x-api-key': 'bench_key', accept: 'application/json' };
const url = `${base}/v1/workflows/wf_1`;

const agent = new Agent({ keepAlive: true });
const transport = nodeTransport();
const shared = new AbortSource();
/** The transport's response read whole and parsed, as the core reads a JSON body. */
async function overTransport(abort: AbortSource): Promise<unknown> {
  const request: TransportRequest = { method: 'GET', url, headers, body: undefined, abort };
  const { body } = await transport(request);
  const chunks: Uint8Array[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
const sdk = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1' });
const unvalidated = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1', validateResponses: false });

const layers: Record<string, () => Promise<unknown>> = {
  'node:http floor': () => jsonOverHttp(agent, url, { method: 'GET', headers }),
  'transport, one source shared': () => overTransport(shared),
  'transport, a source per request': () => overTransport(new AbortSource()),
  'sdk, no validation': () => unvalidated.workflows.get('wf_1'),
  sdk: () => sdk.workflows.get('wf_1'),
};
const names = Object.keys(layers);
const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
// Warm-up: JIT, sockets.
for (const name of names) {
  for (let i = 0; i < 300; i++) await layers[name]!();
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names.map((_, i) => names[(i + round) % names.length]!)) {
    const run = layers[name]!;
    const before = process.cpuUsage();
    for (let i = 0; i < BLOCK; i++) await run();
    const used = process.cpuUsage(before);
    cpu[name]!.push((used.user + used.system) / BLOCK);
  }
}
server.kill('SIGTERM');
agent.destroy();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const floor = cpu['node:http floor']!;
process.stdout.write(`Node ${process.version}, ${ROUNDS} rounds of ${BLOCK}, load ${loadavg()[0]!.toFixed(1)}\n`);
for (const name of names) {
  const ratio = median(cpu[name]!.map((value, i) => value / floor[i]!));
  process.stdout.write(
    `${name.padEnd(34)} ${median(cpu[name]!).toFixed(1).padStart(7)} µs CPU per request, ${ratio.toFixed(2)}x the floor\n`,
  );
}
