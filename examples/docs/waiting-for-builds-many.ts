import { createServer } from 'node:http';
import { Client } from 'workflow-automation-sdk';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

const client = new Client();

// Deliveries received by this process end the matching waits at once (one poll checks each).
const handler = createWebhookHandler({ on: { 'build.completed': (event) => client.builds.notify(event) } });
createServer(toNodeHandler(handler)).listen(3000);

const inputs = Array.from({ length: 200 }, (_, i) => ({
  name: `Export ${i}`,
  platform: 'make',
  trigger: { type: 'schedule' },
  actions: [{ app: 'google_sheets', action: 'append_row' }],
}));
const workflows = await Promise.all(inputs.map((input) => client.workflows.create(input)));

// One schedule for all 200 waits; each result is the build or the error, in the list's order.
const results = await client.builds.waitForAll(workflows, { timeoutMs: 20 * 60_000 });
for (const result of results) {
  if (result.status === 'fulfilled') console.log(result.buildId, result.value.download_url);
  else console.error(result.buildId, `${result.reason.name}: ${result.reason.message}`);
}
