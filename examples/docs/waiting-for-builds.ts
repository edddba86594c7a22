import { AbortError, BuildFailedError, Client, WaitTimeoutError } from 'workflow-automation-sdk';

const client = new Client();

const workflow = await client.workflows.create({
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
});

try {
  const build = await client.waitForBuild(workflow, {
    intervalMs: 2_000, // first poll at once, then 2 s after each response, whatever the progress
    timeoutMs: 10 * 60_000, // the wait's deadline
    signal: AbortSignal.timeout(15 * 60_000), // or your own AbortController's signal
    onProgress: (b) => console.log(`${b.status} ${b.progress ?? 0}%`), // once per change
  });
  console.log('Ready:', build.download_url); // a string: typed as present on a completed build
} catch (error) {
  if (BuildFailedError.is(error)) console.error(`Build ${error.build.status}:`, error.logs);
  else if (WaitTimeoutError.is(error)) console.error(`Still ${error.build?.status ?? 'unknown'} after ${error.timeoutMs} ms`);
  else if (AbortError.is(error)) console.error('Stopped waiting:', error.cause);
  else throw error; // a poll that cannot succeed by trying again: 401, 403, 404, other 4xx
}
