/**
 * The real SDK over real HTTP against the mock service's server face on 127.0.0.1 (no msw): the whole
 * lifecycle, both prefix modes, auth failures, paging and the webhook delivery.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyError, AuthenticationError, Client, NotFoundError, ValidationError } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { createWebhookHandler, toNodeHandler, type BuildCompletedEvent } from '../../src/webhooks/index.js';

const workflowInput = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

const running: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function mock(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer({ buildDurationMs: 300, ...options });
  running.push(server);
  return server;
}

/** A webhook receiver on 127.0.0.1 built from the SDK's own handler; resolves each delivered event. */
async function receiver(): Promise<{ url: string; next: Promise<BuildCompletedEvent> }> {
  let deliver!: (event: BuildCompletedEvent) => void;
  const next = new Promise<BuildCompletedEvent>((resolve) => (deliver = resolve));
  const server: Server = createServer(toNodeHandler(createWebhookHandler({ on: { 'build.completed': (event) => deliver(event) } })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, next };
}

describe('the whole lifecycle', () => {
  it('logs in, saves an integration, creates a workflow, waits for its build, lists it, and receives the webhook', async () => {
    const hook = await receiver();
    const server = await mock({ webhookUrl: hook.url });
    const client = await Client.login({ baseUrl: server.url, email: 'demo@example.com', password: 'demo' });

    const saved = await client.integrations.save({ platform: 'shopify', api_key: 'shpat_0123456789abcdef', label: 'Store' });
    expect(saved.platform).toBe('shopify');
    expect(saved.api_key).not.toBe('shpat_0123456789abcdef');

    const workflow = await client.workflows.create(workflowInput);
    expect(workflow).toMatchObject({ name: 'Notify on order', status: 'building' });
    const progress: number[] = [];
    const build = await client.waitForBuild(workflow, { intervalMs: 50, onProgress: (b) => progress.push(b.progress ?? 0) });
    expect(build.status).toBe('completed');
    expect(build.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\//);
    expect(progress.at(-1)).toBe(100);

    const ids: string[] = [];
    for await (const wf of client.workflows.list()) ids.push(wf.id);
    expect(ids).toContain(workflow.id);

    const event = await hook.next;
    expect(event).toMatchObject({ event: 'build.completed', workflow_id: workflow.id, data: { download_url: build.download_url } });

    await client.workflows.delete(workflow.id);
    await expect(client.workflows.get(workflow.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('prefix modes', () => {
  it.each([['/v1'], ['/api/v1']])("with 'auto', finds a service that serves only %s and keeps to it", async (only) => {
    const server = await mock({ prefixes: [only] });
    const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
    await client.workflows.create(workflowInput);
    const page = await client.workflows.list();
    expect(page.items).toHaveLength(1);
    expect(client.toJSON()).toMatchObject({ apiPrefix: only, prefixConfirmed: true });
  });

  it.each([
    [['/api/v1', '/v1'], ['/api/v1/integrations/int_nope'], 'No integration with id int_nope (DELETE /api/v1/'],
    [['/v1'], ['/api/v1/integrations/int_nope', '/v1/integrations/int_nope'], 'also tried /v1/integrations/int_nope'],
  ])("with 'auto' and prefixes %j, deleting a missing integration first sends %j", async (prefixes, paths, words) => {
    const server = await mock({ prefixes });
    const sent: string[] = [];
    const hooks = { afterResponse: ({ url }: { url: string }) => void sent.push(new URL(url).pathname) };
    const client = new Client({ baseUrl: server.url, apiKey: server.apiKey, hooks });
    const error = (await client.integrations.delete('int_nope').then(
      () => undefined,
      (e: unknown) => e,
    )) as NotFoundError;
    expect(sent).toEqual(paths);
    expect(error).toBeInstanceOf(NotFoundError);
    // The error is the first request's, whichever prefix the mock serves.
    expect(new URL(error.url).pathname).toBe('/api/v1/integrations/int_nope');
    expect(error.message).toContain(words);
    expect(client.toJSON()).toMatchObject({ apiPrefix: prefixes.length === 1 ? '/v1' : '/api/v1', prefixConfirmed: true });
  });

  it('key issuing works at /v1/auth even on a client pinned to /api/v1', async () => {
    const server = await mock({ prefixes: ['/api/v1'] });
    const client = new Client({ baseUrl: server.url, apiPrefix: '/api/v1' });
    await expect(client.auth.issueKey({ email: 'demo@example.com', password: 'demo' })).resolves.toHaveProperty('apiKey');
  });
});

describe('authentication failures', () => {
  it('a wrong key is an AuthenticationError', async () => {
    const server = await mock();
    await expect(new Client({ baseUrl: server.url, apiKey: 'wfa_wrong_key', maxRetries: 0 }).orders.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('a wrong password is an AuthenticationError', async () => {
    const server = await mock();
    await expect(Client.login({ baseUrl: server.url, email: 'demo@example.com', password: 'nope' })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('no key at all fails before anything is sent', async () => {
    const server = await mock();
    const client = new Client({ baseUrl: server.url, apiKey: async () => '' });
    await expect(client.orders.list()).rejects.toThrow('Unusable API key from the apiKey function: it is empty or not a string');
    await expect(new Client({ baseUrl: server.url, apiKey: '' }).orders.list()).rejects.toThrow(ApiKeyError);
  });
});

describe('paging', () => {
  it('walks 25 workflows in pages of 10, page by page and with for await', async () => {
    const server = await mock({ buildDurationMs: 60_000 });
    const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
    for (let i = 0; i < 25; i++) await client.workflows.create({ ...workflowInput, name: `Workflow ${i}` });

    const first = await client.workflows.list({ limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.info).toMatchObject({ page: 1, limit: 10, total: 25 });
    const third = await (await first.getNextPage()).getNextPage();
    expect(third.items).toHaveLength(5);
    expect(third.hasNextPage()).toBe(false);

    const names = new Set<string>();
    for await (const wf of client.workflows.list({ limit: 10 })) names.add(wf.name);
    expect(names.size).toBe(25);
  });

  it('refuses a bad page before sending', async () => {
    const server = await mock();
    const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
    await expect(client.orders.list({ page: 0 })).rejects.toBeInstanceOf(ValidationError);
  });
});
