/**
 * The mock service on the real clock: a build's webhook goes out when the build ends, to a real receiver,
 * with nobody polling. The same on the fake clock, to the millisecond, is in test/testing/service.test.ts.
 */
import { afterEach, expect, test } from 'vitest';
import { createMockService, type MockService } from '../../../src/testing/index.js';
import { reply, startReceiver, WORKFLOW, type Receiver } from '../../testing/helpers.js';

const running: (MockService | Receiver)[] = [];
afterEach(async () => {
  for (const item of running.splice(0)) await item.close();
});

test('a build.completed webhook is sent on time by the real clock even if nobody polls', async () => {
  const hooks = await startReceiver();
  const service = createMockService({ buildDurationMs: 50, webhookUrl: hooks.url });
  running.push(hooks, service);
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const created = await reply(
    await service.handle(new Request('http://mock.test/v1/workflows', { method: 'POST', headers, body: JSON.stringify(WORKFLOW) })),
  );

  const [delivery] = await hooks.waitFor(1);

  expect(delivery?.body).toMatchObject({ event: 'build.completed', workflow_id: created.body.id });
});
