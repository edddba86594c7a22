// One memory-sensitive run in its own process, so its peak RSS is its own. `walk`: 100 000 items in pages of
// 100, by a hand-written node:http loop or the SDK's `for await`. `requests`: 20 000 sequential GETs of one workflow.
// Prints `{ count, ms, maxRssKb }` as JSON.
import { Agent } from 'node:http';
import { jsonOverHttp } from './node-http.js';
// The built package, as users get it (`npm run bench` builds first); typed by the source it is built from.
const { Client } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');

const [mode, variant, base] = process.argv.slice(2) as ['walk' | 'requests', 'raw' | 'sdk', string];
const headers = { 'x-api-key': 'bench_key', accept: 'application/json' };
const LIMIT = 100; // the server pages 100 000 items when asked for 100 at a time
const REQUESTS = 20_000;
const client = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1' });
let count = 0;
const start = performance.now();

// The walk's raw loop runs over the SDK's transport on Node (node:http, a keep-alive agent), as issue 27 asks.
const agent = new Agent({ keepAlive: true });

if (mode === 'walk' && variant === 'raw') {
  for (let page = 1; ; page++) {
    const body = (await jsonOverHttp(agent, `${base}/v1/workflows?limit=${LIMIT}&page=${page}`, { method: 'GET', headers })) as {
      data: { id: string }[];
      has_more: boolean;
    };
    for (const item of body.data) if (item.id) count++;
    if (!body.has_more) break;
  }
} else if (mode === 'walk') {
  for await (const item of client.workflows.list({ limit: LIMIT })) if (item.id) count++;
} else if (variant === 'raw') {
  for (let i = 0; i < REQUESTS; i++) {
    const body = (await (await fetch(`${base}/v1/workflows/wf_1`, { headers })).json()) as { id: string };
    if (body.id) count++;
  }
} else {
  for (let i = 0; i < REQUESTS; i++) if ((await client.workflows.get('wf_1')).id) count++;
}
const ms = performance.now() - start;
process.stdout.write(JSON.stringify({ count, ms, maxRssKb: process.resourceUsage().maxRSS }));
