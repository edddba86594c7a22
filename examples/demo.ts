/**
 * The demo: the SDK's whole lifecycle against a mock of the service running inside this process. Nothing to
 * configure, no account, no network beyond 127.0.0.1.
 *
 *   npm run demo
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProgressDisplay } from '../src/cli/progress.js';
import { Client } from '../src/index.js';
import { DEFAULT_MOCK_USER, startMockServer } from '../src/testing/index.js';
import { createWebhookHandler, toNodeHandler, type BuildCompletedEvent } from '../src/webhooks/index.js';

// Whatever goes wrong, the demo ends: a stuck step is reported, never waited on for ever. Unref'd, so a
// demo that finishes early is not held back by it.
const DEMO_LIMIT_MS = 25_000;
setTimeout(() => {
  console.error(`\nThe demo did not finish within ${DEMO_LIMIT_MS / 1000} s, so it was stopped. Please report this.`);
  process.exit(1);
}, DEMO_LIMIT_MS).unref();

/** Rejects when `promise` has not settled after `ms`, naming what was awaited. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const step = (n: number, title: string): void => console.log(`\n${n}. ${title}`);
const say = (text: string): void => console.log(`   ${text}`);

// A webhook receiver, as your server would run one: `createWebhookHandler` checks and types each delivery.
let webhookArrived: (event: BuildCompletedEvent) => void = () => {};
const webhook = new Promise<BuildCompletedEvent>((resolve) => {
  webhookArrived = resolve;
});
const receiver = createServer(toNodeHandler(createWebhookHandler({ on: { 'build.completed': (event) => webhookArrived(event) } })));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

// The mock service, with builds that take 3 s instead of minutes.
const mock = await startMockServer({ port: 0, host: '127.0.0.1', buildDurationMs: 3000, webhookUrl });

try {
  console.log('Workflow Automation SDK demo');
  say(`A mock of the service is running at ${mock.url}`);
  say(`and sends its webhooks to ${webhookUrl} (both in this process).`);

  step(1, 'Log in');
  const client = await Client.login({ baseUrl: mock.url, ...DEFAULT_MOCK_USER });
  say(`Client.login({ email: '${DEFAULT_MOCK_USER.email}', password: '…' }) returned a client holding a new API key.`);
  say(`The client never shows it: ${JSON.stringify(client.toJSON())}`);

  step(2, 'Save an integration (a platform API key the service keeps for you)');
  const platformKey = 'zp_live_5f2c9a41d7e3';
  const saved = await client.integrations.save({ platform: 'zapier', api_key: platformKey, label: 'Demo account' });
  say(`Sent api_key "${platformKey}"; the service answers with it masked: "${saved.api_key}"`);

  step(3, 'Create a workflow (this starts its build)');
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  });
  say(`${workflow.id} "${workflow.name}": status ${workflow.status}, build ${workflow.build_id}`);

  step(4, 'Wait for the build: client.waitForBuild(workflow, { onProgress })');
  const display = createProgressDisplay(process.stdout, { label: `   ${workflow.build_id}` });
  const build = await client
    .waitForBuild(workflow, { intervalMs: 250, timeoutMs: 15_000, onProgress: (b) => display.update(b) })
    .finally(() => display.finish());
  say(`Download URL: ${build.download_url}`);

  step(5, 'List workflows: for await (const wf of client.workflows.list())');
  for await (const wf of client.workflows.list({ limit: 10 })) say(`${wf.id}  ${wf.status.padEnd(8)}  ${wf.name}`);

  step(6, 'Receive the build.completed webhook');
  const event = await within(webhook, 5000, 'The build.completed webhook');
  say(`Parsed a ${event.event} event for ${event.workflow_id}`);
  say(`data.download_url: ${event.data.download_url}`);
  say(
    event.data.download_url === build.download_url ? 'It matches the URL the wait returned.' : 'It differs from the URL the wait returned!',
  );

  step(7, 'Download the artifact: client.builds.downloadToFile(build, path)');
  const folder = await mkdtemp(join(tmpdir(), 'wfa-demo-'));
  try {
    const saved = await client.builds.downloadToFile(build, join(folder, 'build.zip'), {
      onProgress: ({ bytes, total }) => say(`${bytes} of ${total ?? '?'} bytes`),
    });
    say(`Saved ${saved.bytes} bytes to ${saved.path} (no API key sent to the download host)`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }

  console.log('\nDone. Next: read examples/ and the README, or run `wfa mock` to keep a mock running.');
} catch (error) {
  console.error('\nThe demo failed:', error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await mock.close();
  await new Promise<void>((resolve) => {
    receiver.close(() => resolve());
    receiver.closeAllConnections();
  });
}
