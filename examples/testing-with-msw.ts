/**
 * Testing your own code against the mock service with msw: no network, no account, and faults on demand.
 * Written with `node:test` so it runs as is; in vitest or jest the same code works with `beforeAll`,
 * `afterEach` and `afterAll`.
 *
 *   npx tsx examples/testing-with-msw.ts
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { setupServer } from 'msw/node';
import { BuildFailedError, Client } from '../src/index.js';
// In your project: import { createMockHandlers } from 'workflow-automation-sdk/testing/msw';
import { createMockHandlers } from '../src/testing/msw.js';

// The code under test: yours, taking the client as a parameter so tests can hand it one.
async function publish(client: Client, name: string): Promise<string> {
  const { build } = await client.workflows.createAndWait(
    { name, platform: 'zapier', trigger: { type: 'webhook' }, actions: [{ app: 'slack', action: 'send_message' }] },
    { intervalMs: 10 },
  );
  return build.download_url;
}

// Builds that finish at once, so tests do not wait.
const handlers = createMockHandlers({ baseUrl: 'https://wfa.test', buildDurationMs: 0 });
const server = setupServer(...handlers);
const client = new Client({ baseUrl: 'https://wfa.test', apiKey: handlers.service.apiKey });

before(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => handlers.service.reset()); // every test starts with no workflows and no queued faults
after(() => server.close());

test('publish returns the download URL of the build', async () => {
  const url = await publish(client, 'Orders to Slack');
  assert.match(url, /^https:\/\/wfa\.test\/downloads\/bld_.+\.zip$/);
});

test('publish rejects with BuildFailedError when the build fails', async () => {
  handlers.service.failNextBuild();
  await assert.rejects(publish(client, 'Doomed'), BuildFailedError);
});

test('a rate limit (429) is retried by the SDK, invisible to publish', async () => {
  handlers.service.failNext(1, 429, { retryAfterSeconds: 0 });
  assert.ok(await publish(client, 'Resilient'));
});
