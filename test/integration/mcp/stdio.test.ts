/**
 * The packed server over stdio, driven by the official MCP client against the mock service: every tool, a
 * wait with its progress, a cancelled wait, errors as tool errors, read-only mode, and the key kept out of it all.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tools } from '../../../src/tools/index.js';
import { createThenWait, installPacked, type Result, startRecordedMock, WORKFLOW } from './packed.js';

type Mock = Awaited<ReturnType<typeof startRecordedMock>>;

const INTEGRATION_KEY = 'shpat_0123456789abcdef0123';

let packed: ReturnType<typeof installPacked>;
let mock: Mock;
const open: { client: Client; stderr: () => string }[] = [];

async function connect(args: string[] = [], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [packed.bin, ...args],
    env: { PATH: process.env['PATH'] ?? '', WFA_API_KEY: mock.apiKey, WFA_BASE_URL: mock.url, WFA_LOG: 'debug', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  const session = { client, stderr: () => stderr };
  open.push(session);
  return session;
}

const text = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');

beforeAll(async () => {
  packed = installPacked();
  mock = await startRecordedMock({ buildDurationMs: 1_500 });
}, 180_000);

afterAll(async () => {
  await Promise.all(open.map(({ client }) => client.close()));
  await mock?.close();
  packed?.remove();
});

test('the bin imports zod, the copy its dependencies install, instead of carrying a copy of its own', () => {
  const bin = readFileSync(packed.bin, 'utf8');
  expect(bin).toContain('from "zod/mini"');
  // zod's core defines each of its schema classes with $constructor: a bundled copy would hold this one.
  expect(bin).not.toContain('$constructor("$ZodType"');
});

describe('over stdio', () => {
  test('initialises and lists one tool per tool of the SDK, with its schemas and hints', async () => {
    const { client } = await connect();
    expect(client.getServerVersion()?.name).toBe('workflow-automation-mcp');
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(tools().map((tool) => tool.name));
    const byName = Object.fromEntries(listed.map((tool) => [tool.name, tool]));
    expect(byName['workflows_list']?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName['workflows_delete']?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName['workflows_create']?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName['workflows_create']?.inputSchema.required).toEqual(['name', 'platform', 'trigger', 'actions']);
    // Creating and waiting takes what creating takes, flat: one shape for the agent to learn.
    expect(byName['workflows_create_and_wait']?.inputSchema).toEqual(byName['workflows_create']?.inputSchema);
    expect(byName['builds_get']?.outputSchema?.properties).toHaveProperty('download_url');
  });

  test('calls every tool against the service; each result is structured, and no result holds a key', async () => {
    const { client, stderr } = await connect();
    const called = new Set<string>();
    const call = async (name: string, args: Record<string, unknown>) => {
      called.add(name);
      const result = (await client.callTool({ name, arguments: args })) as Result;
      expect(result.isError, text(result)).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(mock.apiKey);
      expect(JSON.stringify(result)).not.toContain(INTEGRATION_KEY);
      return result.structuredContent!;
    };
    const created = await call('workflows_create', WORKFLOW);
    expect(created).toMatchObject({ name: WORKFLOW.name, build_id: expect.any(String) });
    expect(await call('workflows_get', { id: created['id'] })).toMatchObject({ id: created['id'] });
    expect(await call('builds_get', { id: created['build_id'] })).toMatchObject({ status: 'building' });
    expect(await call('builds_wait', { build_id: created['build_id'] })).toMatchObject({ status: 'completed' });
    expect(await call('workflows_update', { id: created['id'], changes: { name: 'Renamed' } })).toMatchObject({ name: 'Renamed' });
    const both = await call('workflows_create_and_wait', WORKFLOW);
    expect(both).toMatchObject({ workflow: { name: WORKFLOW.name }, build: { status: 'completed' } });
    const first = await call('workflows_list', { limit: 1 });
    expect(first).toMatchObject({ items: [expect.any(Object)], page: 1, next_page: 2 });
    expect(await call('workflows_list', { limit: 1, page: 2 })).toMatchObject({ page: 2, next_page: null });
    const orders = await call('orders_list', {});
    const order = (orders['items'] as { id: string }[])[0]!;
    expect(await call('orders_get', { id: String(order.id) })).toMatchObject({ id: order.id });
    const saved = await call('integrations_save', { platform: 'shopify', api_key: INTEGRATION_KEY, label: 'Main' });
    // Masked as wfa masks it: at most the last four characters the service itself left showing.
    expect(saved).toMatchObject({ platform: 'shopify', api_key: expect.stringMatching(/^\*{4}.{0,4}$/) });
    const integrations = await call('integrations_list', {});
    expect(integrations['items']).toHaveLength(1);
    expect(await call('integrations_delete', { id: saved['id'] })).toMatchObject({ ok: true });
    expect(await call('workflows_delete', { id: created['id'] })).toMatchObject({ ok: true });
    expect([...called].sort()).toEqual(
      tools()
        .map((tool) => tool.name)
        .sort(),
    );
    // The SDK logged every request (WFA_LOG=debug) on stderr: the key is in none of it.
    expect(stderr()).toContain('[wfa] → POST');
    expect(stderr()).not.toContain(mock.apiKey);
    expect(stderr()).not.toContain(INTEGRATION_KEY);
  });

  test('a service that echoes keys back: results and errors still hold neither the API key nor the platform key', async () => {
    // Every JSON answer gains the request's API key and body, as a careless or hostile service might send them.
    const echoing = await startRecordedMock({}, async (request, response) => {
      const sent = request.method === 'GET' ? '' : await request.text();
      const body = await response.json().catch(() => ({}));
      const key = request.headers.get('x-api-key');
      const echo = { seen_key: key, seen_body: sent, note: `sent ${sent}`, message: `${body.message ?? ''} (key ${key})` };
      return Response.json(Array.isArray(body) ? body : { ...body, ...echo }, { status: response.status });
    });
    try {
      const { client } = await connect([], { WFA_API_KEY: echoing.apiKey, WFA_BASE_URL: echoing.url });
      const calls = [
        client.callTool({ name: 'integrations_save', arguments: { platform: 'shopify', api_key: INTEGRATION_KEY } }),
        client.callTool({ name: 'workflows_create', arguments: WORKFLOW }),
        client.callTool({ name: 'workflows_get', arguments: { id: 'wf_missing' } }),
      ];
      for (const result of (await Promise.all(calls)) as Result[]) {
        expect(JSON.stringify(result)).toMatch(result.isError ? /\(key / : /seen_key/);
        expect(JSON.stringify(result)).not.toContain(echoing.apiKey);
        expect(JSON.stringify(result)).not.toContain(INTEGRATION_KEY);
      }
    } finally {
      await echoing.close();
    }
  });

  test('a wait sends progress notifications, rising, while the build runs', async () => {
    const { client } = await connect();
    const { result, progress } = await createThenWait(client);
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ total: 100, message: expect.stringMatching(/^build building/) });
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(JSON.stringify(progress)).not.toContain(mock.apiKey);
  });

  test('a cancelled wait stops polling the service at once', async () => {
    const slow = await startRecordedMock({ buildDurationMs: 600_000 });
    try {
      const { client } = await connect([], { WFA_API_KEY: slow.apiKey, WFA_BASE_URL: slow.url });
      const created = ((await client.callTool({ name: 'workflows_create', arguments: WORKFLOW })) as Result).structuredContent!;
      const cancel = new AbortController();
      const polls = () => slow.requests.filter((line) => line.endsWith(`/builds/${created['build_id']}`)).length;
      const waiting = client.callTool({ name: 'builds_wait', arguments: { build_id: created['build_id'] } }, { signal: cancel.signal });
      await expect.poll(polls, { timeout: 10_000 }).toBeGreaterThan(0);
      cancel.abort();
      await expect(waiting).rejects.toThrow();
      const after = polls();
      // The SDK's wait polls every second or so: several intervals with no poll means the wait is gone.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(polls()).toBe(after);
      // The server is still there for the next call.
      expect(((await client.callTool({ name: 'builds_get', arguments: { id: created['build_id'] } })) as Result).isError).toBeFalsy();
    } finally {
      await slow.close();
    }
  });

  test('a 404 is a tool error naming the SDK error, the status, the code and the request id', async () => {
    const { client } = await connect();
    const result = (await client.callTool({ name: 'workflows_get', arguments: { id: 'wf_missing' } })) as Result;
    expect(result.isError).toBe(true);
    const facts = JSON.parse(text(result));
    expect(facts).toMatchObject({ error: 'NotFoundError', status: 404, code: 'not_found', request_id: expect.stringMatching(/^req_/) });
    expect(facts.message).toContain(facts.request_id);
  });

  test('a bad input is a tool error naming the field, and nothing is sent', async () => {
    const { client } = await connect();
    const before = mock.requests.length;
    const result = (await client.callTool({
      name: 'workflows_create',
      arguments: { ...WORKFLOW, actions: [{ app: 'Slack!', action: 'x' }] },
    })) as Result;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('actions.0.app: must be snake_case');
    const missing = (await client.callTool({ name: 'workflows_get', arguments: {} })) as Result;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/\bid\b/);
    expect(mock.requests.length).toBe(before);
  });

  test('--read-only serves only the tools that change nothing, and the others cannot be called', async () => {
    const { client } = await connect(['--read-only']);
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(
      tools()
        .filter((tool) => tool.hints.readOnlyHint)
        .map((tool) => tool.name),
    );
    expect(listed.every((tool) => tool.annotations?.readOnlyHint)).toBe(true);
    const before = mock.requests.length;
    const refused = await client.callTool({ name: 'workflows_delete', arguments: { id: 'wf_1' } }).then(
      (result) => result as Result,
      (error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }),
    );
    expect(refused.isError).toBe(true);
    expect(mock.requests.length).toBe(before);
  });

  test('--tools serves the allowlist only', async () => {
    const { client } = await connect(['--tools', 'builds_get,builds_wait']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['builds_get', 'builds_wait']);
  });
});
