import { AbortError, Client, InternalServerError, MAX_RETRY_AFTER_MS, type WorkflowCreateParams } from 'workflow-automation-sdk';

// Up to 4 retries after the first attempt, each attempt allowed 10 s.
const client = new Client({ maxRetries: 4, timeoutMs: 10_000 });

// Abort a call, including any wait between its retries; the rejection carries the signal's reason.
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('the user left the page')), 2_000);
try {
  await client.orders.list({ status: 'paid' }, { signal: controller.signal });
} catch (error) {
  if (!AbortError.is(error)) throw error;
  console.log('Aborted:', error.cause);
}

// A POST that may have reached the service (a 5xx, a timeout, a reset mid-request) is not sent twice:
// look before creating again.
const input: WorkflowCreateParams = {
  name: 'Notify on refund',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hooks/refunds' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#refunds' } }],
};
try {
  await client.workflows.create(input);
} catch (error) {
  if (!InternalServerError.is(error)) throw error;
  let exists = false;
  for await (const workflow of client.workflows.list()) {
    if (workflow.name === input.name) exists = true;
  }
  if (!exists) await client.workflows.create(input);
}

console.log(`A Retry-After longer than ${MAX_RETRY_AFTER_MS / 1_000} s is not slept on: the call fails at once.`);
