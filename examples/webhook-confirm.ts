/**
 * A webhook handler that confirms each delivery with the service before it runs, so a forged
 * `build.completed` (any URL, posted by anyone who knows the endpoint) never reaches your code.
 *
 *   WFA_API_KEY=<your key> WFA_BASE_URL=https://automation.example.com npx tsx examples/webhook-confirm.ts
 *
 * It creates a workflow, waits for its build, then hands the handler a forged delivery and the genuine one.
 */
import { Client } from '../src/index.js';
import { createWebhookHandler, createWebhookRequest } from '../src/webhooks/index.js';

const client = new Client();

const handler = createWebhookHandler({
  confirm: client, // reads the workflow and its build before the handler runs
  on: {
    'build.completed': (event, _request, delivery) => {
      console.log(`Handled ${event.workflow_id} (confirmed: ${delivery.confirmed}): ${event.data.download_url}`);
    },
  },
  onError: (error) => console.log(`Refused: ${error instanceof Error ? error.message : String(error)}`),
});

const workflow = await client.workflows.create({ name: 'Confirm me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
const build = await client.waitForBuild(workflow);

// What anyone who knows your endpoint's URL could post: the right workflow, their own download URL.
const forged = await handler(
  createWebhookRequest({ workflow_id: workflow.id, data: { download_url: 'https://attacker.example/payload.zip' } }),
);
console.log(`Forged delivery: ${forged.status}`);

// What the service sends: the URL of the build it completed.
const genuine = await handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: build.download_url } }));
console.log(`Genuine delivery: ${genuine.status}`);
