import { Client } from 'workflow-automation-sdk';
import { createCore, waitForBuild, workflowsCreate, workflowsList } from 'workflow-automation-sdk/funcs';
import { startMockServer } from 'workflow-automation-sdk/testing';
import { expect, it } from 'vitest';

it('calls endpoints as functions of a core, and derives clients', async () => {
  const mock = await startMockServer({ buildDurationMs: 50 });
  try {
    // The same options and checks as new Client; a bundle holds only the functions imported.
    const core = createCore({ baseUrl: mock.url, apiKey: mock.apiKey });
    const input = { name: 'Sync', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] };
    const created = await workflowsCreate(core, input);
    const build = await waitForBuild(core, created, { intervalMs: 20 });
    expect(build.status).toBe('completed');
    for await (const workflow of workflowsList(core, { limit: 10 })) expect(workflow.id).toBeTruthy();

    // A client with some options changed, sharing the parent's connections, prefix and rate limit.
    const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
    const patient = client.withOptions({ timeoutMs: 120_000, maxRetries: 5 });
    expect((await patient.workflows.get(created.id)).name).toBe('Sync');
  } finally {
    await mock.close();
  }
});
