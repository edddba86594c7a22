/**
 * Webhooks on a laptop, without a tunnel: `wfa listen` polls the service and forwards each completed build's
 * `build.completed` to a local receiver, signed. Runs on its own: it starts the mock service, a receiver
 * and `wfa listen`, creates a workflow, and stops everything once the delivery has arrived.
 *
 *   npx tsx examples/webhook-listen.ts
 *
 * The same by hand, against the mock (`wfa mock`) or your deployment:
 *
 *   export WFA_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
 *   wfa listen --forward-to http://localhost:3000/webhooks --sign standard-webhooks
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../src/index.js';
import { startMockServer } from '../src/testing/index.js';
import { createWebhookHandler, standardWebhooks, toNodeHandler } from '../src/webhooks/index.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'; // a test secret: yours comes from your secret store
const mock = await startMockServer({ buildDurationMs: 500 });

let delivered: () => void = () => {};
const arrived = new Promise<void>((resolve) => (delivered = resolve));
const receiver = createServer(
  toNodeHandler(
    createWebhookHandler({
      verify: standardWebhooks({ secret }),
      on: {
        'build.completed': (event) => {
          console.log(`Verified delivery: build of ${event.workflow_id} at ${event.data.download_url}`);
          delivered();
        },
      },
    }),
  ),
);
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

// `wfa listen` from this repository's source; in your project: npx wfa listen …
const listen = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/cli/index.ts', 'listen', '--forward-to', forwardTo, '--interval', '250ms', '--sign', 'standard-webhooks'],
  {
    env: { ...process.env, WFA_BASE_URL: mock.url, WFA_API_KEY: mock.apiKey, WFA_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'inherit', 'pipe'],
  },
);
const exited = new Promise<number | null>((resolve) => listen.on('close', resolve));
const timeout = setTimeout(() => listen.kill('SIGKILL'), 60_000); // never outlive a failure
try {
  // It follows workflows created once it is listening: wait for it to say so.
  await new Promise<void>((resolve, reject) => {
    listen.stderr?.setEncoding('utf8').on('data', (text: string) => {
      if (text.includes('Forwarding')) resolve();
    });
    void exited.then(() => reject(new Error('wfa listen exited early')));
  });
  const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
  const workflow = await client.workflows.create({ name: 'Hook me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
  console.log(`Created ${workflow.id}; its build completes in half a second`);
  await arrived;
} finally {
  listen.kill('SIGINT'); // wfa listen stops cleanly: exit code 130
  console.log(`wfa listen exited ${await exited}`);
  clearTimeout(timeout);
  receiver.close();
  await mock.close();
}
