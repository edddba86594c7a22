import { Client, type WorkflowCreateParams } from 'workflow-automation-sdk';

const client = new Client(); // the rate gate is on by default: nothing to set

const inputs: WorkflowCreateParams[] = Array.from({ length: 200 }, (_, i) => ({
  name: `Export ${i}`,
  platform: 'make',
  trigger: { type: 'schedule' },
  actions: [{ app: 'google_sheets', action: 'append_row' }],
}));

// 200 creates and 200 waits at once: the client paces them to what the service accepts, and a 429 any of them
// gets holds back all of them, so none fails for being one too many.
const results = await Promise.allSettled(inputs.map((input) => client.workflows.createAndWait(input)));
for (const result of results) {
  if (result.status === 'fulfilled') console.log(result.value.workflow.id, result.value.build.download_url);
  else console.error(result.reason);
}
