import { expect, test } from 'vitest';
import { Client } from 'workflow-automation-sdk';
import { artifactBytes, createMockService } from 'workflow-automation-sdk/testing';

test('no socket: the mock service is the client’s fetch, downloads included', async () => {
  const service = createMockService({ buildDurationMs: 0, artifacts: { size: 4096 } });
  const client = new Client({
    baseUrl: 'https://mock.test', // any URL: nothing is resolved or connected
    apiKey: service.apiKey,
    fetch: (input, init) => service.handle(new Request(input, init)),
  });
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook' },
    actions: [{ app: 'slack', action: 'send_message' }],
  });
  const build = await client.waitForBuild(workflow, { intervalMs: 10 });
  expect(build.download_url).toMatch(/^https:\/\/mock\.test\/downloads\//); // served by the same `handle`
  const stream = await client.builds.download(build); // downloads go through the client's `fetch` too
  const received = new Uint8Array(await new Response(stream).arrayBuffer());
  expect(Buffer.compare(received, artifactBytes(4096))).toBe(0);
  expect(service.downloadRequests()).toHaveLength(1);
});
