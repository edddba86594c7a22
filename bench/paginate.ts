// One pagination run in its own process, so its peak RSS is its own: walks 100 000 items either with a
// hand-written fetch loop or with the SDK's `for await`, and prints `{ items, maxRssKb }` as JSON.
// The built package, as users get it (`npm run bench` builds first); typed by the source it is built from.
const { Client } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');

const [variant, base] = process.argv.slice(2) as ['raw' | 'sdk', string];
const LIMIT = 500; // the server pages 100 000 items when asked for 500 at a time
let items = 0;

if (variant === 'raw') {
  for (let page = 1; ; page++) {
    const res = await fetch(`${base}/v1/workflows?limit=${LIMIT}&page=${page}`, { headers: { 'x-api-key': 'bench_key' } });
    const body = (await res.json()) as { data: { id: string }[]; has_more: boolean };
    for (const item of body.data) if (item.id) items++;
    if (!body.has_more) break;
  }
} else {
  const client = new Client({ baseUrl: base, apiKey: 'bench_key', apiPrefix: '/v1' });
  for await (const item of client.workflows.list({ limit: LIMIT })) {
    if (item.id) items++;
  }
}
process.stdout.write(JSON.stringify({ items, maxRssKb: process.resourceUsage().maxRSS }));
