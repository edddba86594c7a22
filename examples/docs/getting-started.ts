import { Client } from 'workflow-automation-sdk';

// With no options, the key and address come from WFA_API_KEY and WFA_BASE_URL (Node, Bun, Deno).
const client = new Client();

// Creating a workflow starts its build.
const workflow = await client.workflows.create({
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
});
console.log(`Created ${workflow.id} (${workflow.status})`);

// Follow the build to its download URL.
const build = await client.waitForBuild(workflow, {
  onProgress: (b) => console.log(`${b.status} ${b.progress ?? 0}%`),
});
console.log(`Download: ${build.download_url}`);

// Every workflow, page after page.
for await (const wf of client.workflows.list()) {
  console.log(wf.id, wf.name, wf.status);
}
