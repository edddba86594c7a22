/**
 * Quick start: save a platform key, create a workflow, check its build, list your workflows.
 *
 *   WFA_API_KEY=<your key> WFA_BASE_URL=https://automation.example.com npx tsx examples/quickstart.ts
 */
import { ApiError, Client, isCompletedBuild, ValidationError } from '../src/index.js';

const client = new Client({
  apiKey: process.env.WFA_API_KEY,
  baseUrl: process.env.WFA_BASE_URL,
});

try {
  // Store the key of the platform your workflows run on (it is never shown in errors or logs).
  await client.integrations.save({
    platform: 'zapier',
    api_key: process.env.ZAPIER_API_KEY ?? 'zp_demo_key_123456',
    label: 'Main account',
  });

  // Creating a workflow starts its build.
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  });
  console.log(`Created ${workflow.id} (${workflow.status})`);

  const build = await client.builds.get(workflow.build_id); // a created workflow always has its build_id
  console.log(isCompletedBuild(build) ? `Build ready: ${build.download_url}` : `Build ${build.status}: ${build.progress ?? 0}%`);

  // Every workflow, page after page, fetched as you go.
  for await (const wf of client.workflows.list({ limit: 20 })) {
    console.log(`${wf.id}  ${wf.status.padEnd(10)}  ${wf.name}`);
  }
} catch (error) {
  if (error instanceof ValidationError) {
    console.error(`Invalid input (${error.field}): ${error.message}`);
  } else if (error instanceof ApiError) {
    console.error(`The service answered ${error.status}: ${error.message}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}
