import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { Client, NotFoundError } from 'workflow-automation-sdk';
import { startMockServer, type MockServer } from 'workflow-automation-sdk/testing';

let mock: MockServer;
let client: Client;

beforeAll(async () => {
  mock = await startMockServer({ buildDurationMs: 200 }); // 127.0.0.1, a free port
  client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
});
afterEach(() => mock.service.reset()); // seeded orders, initial keys, no workflows, no queued faults
afterAll(() => mock.close());

test('a new workflow builds to a download URL', async () => {
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
    actions: [{ app: 'slack', action: 'send_message' }],
  });
  const build = await client.waitForBuild(workflow, { intervalMs: 50 });
  expect(build.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\//);
});

test('an unknown id is a NotFoundError', async () => {
  await expect(client.workflows.get('wf_missing')).rejects.toBeInstanceOf(NotFoundError);
});
