/** The packed server over Streamable HTTP: the official client with the bearer token, and requests without it refused. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, type ClientOptions, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tools } from '../../../src/tools/index.js';
import { createThenWait, installPacked, type Result, startRecordedMock, WORKFLOW } from './packed.js';

const TOKEN = 'mcp-token-4f9a1c7e2b8d6a3f';
const MODERN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

let packed: ReturnType<typeof installPacked>;
let mock: Awaited<ReturnType<typeof startRecordedMock>>;
let server: ChildProcess;
let url: string;
let stderr = '';
const clients: Client[] = [];

async function connect(token = TOKEN): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const initialize = (headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });

/** Resolves with the URL the server says it serves at (its log goes to `onLog`); rejects if it exits first. */
function listening(child: ChildProcess, onLog: (chunk: string) => void): Promise<string> {
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk;
      onLog(String(chunk));
      const found = /at (http:\S+\/mcp)/.exec(log)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
}

beforeAll(async () => {
  packed = installPacked();
  mock = await startRecordedMock({ buildDurationMs: 1_500 });
  server = spawn(process.execPath, [packed.bin, '--http', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', WFA_API_KEY: mock.apiKey, WFA_BASE_URL: mock.url, WFA_MCP_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await listening(server, (chunk) => {
    stderr += chunk;
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server?.kill();
  await mock?.close();
  packed?.remove();
});

describe('over Streamable HTTP', () => {
  test('binds to 127.0.0.1 and refuses a request without the bearer token, or with another', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }];
    for (const headers of refused) {
      const response = await initialize(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    await expect(connect('wrong-token')).rejects.toThrow();
    expect((await initialize({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  test('lists the tools and calls them with the token', async () => {
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools().map((tool) => tool.name));
    const created = (await client.callTool({ name: 'workflows_create', arguments: WORKFLOW })) as Result;
    expect(created.structuredContent).toMatchObject({ name: WORKFLOW.name });
    const missing = (await client.callTool({ name: 'workflows_get', arguments: { id: 'wf_missing' } })) as Result;
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0]!.text!)).toMatchObject({ error: 'NotFoundError', status: 404 });
  });

  test('a wait streams its progress, and neither the API key nor the token shows anywhere', async () => {
    const client = await connect();
    const { result, progress } = await createThenWait(client);
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    expect(progress.length).toBeGreaterThan(0);
    for (const text of [JSON.stringify([result, progress]), stderr]) {
      expect(text).not.toContain(mock.apiKey);
      expect(text).not.toContain(TOKEN);
    }
  });

  /** Starts a server of its own against a build that never ends, cancels a wait on it, and counts the polls after. */
  async function cancelledWait(options: ClientOptions | undefined) {
    const slow = await startRecordedMock({ buildDurationMs: 600_000 });
    const own = spawn(process.execPath, [packed.bin, '--http', '--port', '0'], {
      env: { PATH: process.env['PATH'] ?? '', WFA_API_KEY: slow.apiKey, WFA_BASE_URL: slow.url, WFA_MCP_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const ownUrl = await listening(own, () => undefined);
      const transport = new StreamableHTTPClientTransport(new URL(ownUrl), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      });
      const client = new Client({ name: 'test', version: '1.0.0' }, options);
      await client.connect(transport);
      clients.push(client);
      const created = ((await client.callTool({ name: 'workflows_create', arguments: WORKFLOW })) as Result).structuredContent!;
      const polls = () => slow.requests.filter((line) => line.endsWith(`/builds/${created['build_id']}`)).length;
      const cancel = new AbortController();
      const waiting = client.callTool({ name: 'builds_wait', arguments: { build_id: created['build_id'] } }, { signal: cancel.signal });
      await expect.poll(polls, { timeout: 10_000 }).toBeGreaterThan(0);
      cancel.abort();
      await expect(waiting).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = polls();
      // The SDK's wait polls every second or so: several intervals with no poll means the wait is gone.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(polls()).toBe(after);
    } finally {
      own.kill();
      await slow.close();
    }
  }

  test('a cancelled wait stops polling the service (a 2025-era client: its cancellation reaches the session running it)', async () => {
    await cancelledWait(undefined);
  });

  test('a 2026-07-28 client is served request by request: tools, a tool error, and a cancelled wait', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' }, MODERN);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(tools().length);
    const missing = (await client.callTool({ name: 'workflows_get', arguments: { id: 'wf_missing' } })) as Result;
    expect(JSON.parse(missing.content[0]!.text!)).toMatchObject({ error: 'NotFoundError', status: 404 });
    await cancelledWait(MODERN);
  });

  test('a request body over 4 MiB is refused with 413, unread', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
  });
});
