/**
 * 200 build waits on one client over real sockets, against the mock server: they share one poll schedule (at
 * most a few polls at the server at once), and a `build.completed` delivery, wired to `builds.notify` in one
 * line of a webhook handler on a real `node:http` server, ends each wait with one more poll.
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

/** The mock server, counting the build polls it is answering at once. */
async function startCountingMock(options: MockServiceOptions) {
  const service = createMockService(options);
  const polls = { inFlight: 0, max: 0, total: 0 };
  const handle = service.handle.bind(service);
  service.handle = async (request: Request) => {
    const isPoll = request.method === 'GET' && /\/builds\/[^/]+$/.test(new URL(request.url).pathname);
    if (!isPoll) return handle(request);
    polls.total++;
    polls.max = Math.max(polls.max, ++polls.inFlight);
    try {
      return await handle(request);
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
  const client = new Client({ baseUrl: server.url, apiKey: server.apiKey, apiPrefix: '/v1' });
  const workflows = await createWorkflows(client);
  const results = await client.builds.waitForAll(workflows, { intervalMs: 250, timeoutMs: 45_000 });
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  expect(polls.max).toBeLessThanOrEqual(MAX_POLLS_IN_FLIGHT);
  expect(polls.max).toBeGreaterThan(1);
});

it(`a build.completed delivery wired to builds.notify ends each of ${N} waits long before its next poll`, async () => {
  let client: Client | undefined;
  const receiver: Server = createServer(
    toNodeHandler(createWebhookHandler({ on: { 'build.completed': (event) => client?.builds.notify(event) } })),
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const { port } = receiver.address() as { port: number };
  const { server, polls } = await startCountingMock({ buildDurationMs: 5_000, webhookUrl: `http://127.0.0.1:${port}/hooks` });
  client = new Client({ baseUrl: server.url, apiKey: server.apiKey, apiPrefix: '/v1' });
  const workflows = await createWorkflows(client);
  const started = performance.now();
  // An interval far longer than the builds: only the deliveries can end these waits in time.
  const results = await client.builds.waitForAll(workflows, { intervalMs: 120_000, timeoutMs: 25_000 });
  const elapsed = performance.now() - started;
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  // The first poll of each, and one per delivery.
  expect(polls.total).toBe(2 * N);
  expect(elapsed).toBeLessThan(25_000);
});
