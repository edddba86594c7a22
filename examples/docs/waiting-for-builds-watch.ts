import { Client, type Build } from 'workflow-automation-sdk';

const client = new Client();

// Each new state (status or progress changed), ending after the terminal one.
let last: Build | undefined;
for await (const build of client.builds.watch('bld_123', { intervalMs: 1_000 })) {
  console.log(build.status, build.progress);
  last = build;
}
if (last?.status === 'completed')
  console.log('Ready:', last.download_url); // narrowed: a string
else console.log('Ended as', last?.status); // a failed build is yielded last, not thrown

// Create and wait in one call; onCreated sees the workflow before the wait starts.
const { workflow, build } = await client.workflows.createAndWait(
  {
    name: 'Nightly export',
    platform: 'make',
    trigger: { type: 'schedule' },
    actions: [{ app: 'google_sheets', action: 'append_row' }],
  },
  { intervalMs: 1_000, onCreated: (wf) => console.log('Created', wf.id) },
);
console.log(workflow.id, build.download_url);
