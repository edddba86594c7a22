// The benchmark's service: a plain node:http server in its own process, so its CPU never counts as the
// client's. Answers from pre-serialised bodies; keep-alive on. Prints its port on stdout.
import { createServer } from 'node:http';

const workflow = (i) => ({
  id: `wf_${i}`,
  name: `Workflow ${i}`,
  platform: 'zapier',
  status: i % 3 ? 'active' : 'building',
  created_at: '2026-01-01T00:00:00Z',
  build_id: `bld_${i}`,
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [
    { app: 'slack', action: 'send_message', config: { channel: '#orders' } },
    { app: 'gmail', action: 'send_email', config: {} },
  ],
});

const one = JSON.stringify(workflow(1));
const list = (n, page = 1, limit = n, total = n) =>
  JSON.stringify({
    data: Array.from({ length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) }, (_, i) => workflow((page - 1) * limit + i)),
    page,
    limit,
    total,
    has_more: page * limit < total,
  });
const bodies = { 20: list(20), 1000: list(1000) };
const PAGED_TOTAL = 100_000;

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (req.method === 'POST') {
    let size = 0;
    req.on('data', (c) => (size += c.length));
    req.on('end', () => send(201, one));
    return;
  }
  if (url.pathname.endsWith('/workflows/wf_1')) return send(200, one);
  if (url.pathname.endsWith('/workflows')) {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    // limit=100 is the pagination workload: 100 000 items, 1000 pages.
    if (limit === 100) {
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, list(limit, page, limit, PAGED_TOTAL));
    }
    return send(200, bodies[limit] ?? list(limit));
  }
  send(404, '{"error":"no route"}');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
