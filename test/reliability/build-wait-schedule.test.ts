/**
 * 200 build waits on one client over real sockets, against the mock server: they share one poll schedule (at
 * most a few polls at the server at once), paced by the client's rate gate against a service that allows 20
 * requests a second, and a `build.completed` delivery, wired to `builds.notify` in one line of a webhook
 * handler on a real `node:http` server, ends each wait with one more poll.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { Client, type Workflow } from '../../src/index.js';
import { MAX_POLLS_IN_FLIGHT } from '../../src/resources/poll-schedule.js';
import { createMockService, startMockServer, type MockServer, type MockServiceOptions } from '../../src/testing/index.js';
import { createWebhookHandler, toNodeHandler } from '../../src/webhooks/index.js';

const N = 200;
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The mock server, counting the build polls it is answering at once, and logging each answered (200) poll. */
async function startCountingMock(options: MockServiceOptions) {
  const service = createMockService(options);
  const polls = { inFlight: 0, max: 0, total: 0, answered: [] as { at: number; id: string }[] };
  const handle = service.handle.bind(service);
  service.handle = async (request: Request) => {
    const id = request.method === 'GET' && /\/builds\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!id) return handle(request);
    polls.total++;
    polls.max = Math.max(polls.max, ++polls.inFlight);
    try {
      const response = await handle(request);
      if (response.status === 200) polls.answered.push({ at: performance.now(), id });
      return response;
    } finally {
      polls.inFlight--;
    }
  };
  const server: MockServer = await startMockServer({ service });
  closers.push(() => service.close(), server.close);
  return { server, polls };
}

async function createWorkflows(client: Client): Promise<Workflow[]> {
  return Promise.all(
    Array.from({ length: N }, (_, i) =>
      client.workflows.create({ name: `wf ${i}`, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }),
    ),
  );
}

it(`${N} concurrent waits on one client all complete, with at most ${MAX_POLLS_IN_FLIGHT} polls at the server at once`, async () => {
  const { server, polls } = await startCountingMock({ buildDurationMs: 1_500, latencyMs: 10 });
  // Without the rate gate: the bound is the schedule's own.
  const client = new Client({ baseUrl: server.url, apiKey: server.apiKey, apiPrefix: '/v1', rateLimit: false });
  const workflows = await createWorkflows(client);
  const results = await client.builds.waitForAll(workflows, { intervalMs: 250, timeoutMs: 45_000 });
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  expect(polls.max).toBeLessThanOrEqual(MAX_POLLS_IN_FLIGHT);
  expect(polls.max).toBeGreaterThan(1);
});

it(`${N} waits on one client against 20 requests a second: the gate paces them, each build polled about every 10 s, other calls not stuck behind them`, async () => {
  const { server, polls } = await startCountingMock({ buildDurationMs: 15_000, rateLimit: { requestsPerSecond: 20 } });
  const client = new Client({ baseUrl: server.url, apiKey: server.apiKey, apiPrefix: '/v1' });
  const workflows = await createWorkflows(client);
  const created = performance.now();
  const all = client.builds.waitForAll(workflows, { timeoutMs: 60_000 });
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  // A call amid the waits queues behind the few polls in flight (8 / 20 s), not behind 200 (10 s).
  const gets: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await client.workflows.get(workflows[0]!.id);
    gets.push(performance.now() - started);
  }
  const results = await all;
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  const { requests, tooManyRequests } = server.service.requestCounts(server.apiKey);
  expect(tooManyRequests / requests).toBeLessThanOrEqual(0.03);
  // Between the creates and the first build's end, all 200 builds are polled in turn: gaps of about 200 / 20 s.
  const gaps = workflows.flatMap(({ build_id }) => {
    const times = polls.answered.filter((p) => p.id === build_id && p.at > created + 1_000).map((p) => p.at);
    return times.slice(1).map((t, i) => t - times[i]!);
  });
  gaps.sort((a, b) => a - b);
  const median = gaps[gaps.length >> 1]!;
  expect(median).toBeGreaterThan(8_000);
  expect(median).toBeLessThan(12_000);
  expect(Math.max(...gets)).toBeLessThan(3_000);
}, 120_000);

it(`a build.completed delivery wired to builds.notify ends each of ${N} waits long before its next poll`, async () => {
  let client: Client | undefined;
  const receiver: Server = createServer(
    toNodeHandler(createWebhookHandler({ on: { 'build.completed': (event) => client?.builds.notify(event) } })),
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const { port } = receiver.address() as { port: number };
  const { server, polls } = await startCountingMock({ buildDurationMs: 10_000, webhookUrl: `http://127.0.0.1:${port}/hooks` });
  client = new Client({ baseUrl: server.url, apiKey: server.apiKey, apiPrefix: '/v1' });
  const workflows = await createWorkflows(client);
  const started = performance.now();
  // An interval far longer than the builds: only the deliveries can end these waits in time.
  const results = await client.builds.waitForAll(workflows, { intervalMs: 120_000, timeoutMs: 40_000 });
  const elapsed = performance.now() - started;
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  expect(server.service.webhookDeliveries()).toHaveLength(N);
  // The first poll of each (a build that had ended by then needs no other), and at most one per delivery.
  expect(polls.total).toBeLessThanOrEqual(2 * N);
  expect(polls.total).toBeGreaterThan(N);
  expect(elapsed).toBeLessThan(40_000);
}, 90_000);
