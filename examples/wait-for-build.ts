/**
 * Creating a workflow and waiting for its build, with progress, a deadline, and each way it can end.
 *
 *   WFA_API_KEY=<your key> WFA_BASE_URL=https://automation.example.com npx tsx examples/wait-for-build.ts
 */
import { BuildFailedError, Client, WaitTimeoutError } from '../src/index.js';

const client = new Client();

const workflow = await client.workflows.create({
  name: 'Sync new orders to a sheet',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
  actions: [{ app: 'google_sheets', action: 'append_row', config: { sheet: 'Orders' } }],
});
console.log(`Created ${workflow.id}; waiting for build ${workflow.build_id}`);

try {
  // Polls every 2 s (slower while nothing changes) and calls onProgress once per new state.
  const build = await client.waitForBuild(workflow, {
    timeoutMs: 10 * 60_000,
    onProgress: (b) => console.log(`  ${b.status} ${b.progress ?? 0}%`),
  });
  console.log(`Ready: ${build.download_url}`);
} catch (error) {
  if (error instanceof BuildFailedError) {
    console.error(`The build failed (${error.build.status}). Its logs:`, error.logs);
  } else if (error instanceof WaitTimeoutError) {
    // The build may still finish: its id is known, so it can be checked again later.
    console.error(`Still ${error.build?.status ?? 'unknown'} after ${error.timeoutMs / 1000} s; check again later.`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}

// The same as a loop over each new state, for code that would rather not pass a callback.
const again = await client.workflows.create({
  name: 'Second workflow',
  platform: 'zapier',
  trigger: { type: 'webhook' },
  actions: [{ app: 'slack', action: 'send_message' }],
});
for await (const state of client.builds.watch(again, { signal: AbortSignal.timeout(10 * 60_000) })) {
  console.log(`  ${again.build_id}: ${state.status}`);
}
