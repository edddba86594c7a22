/**
 * The MCP server's costs (`npm run bench`): a tool call over stdio against the same call made directly with the
 * SDK, both to the mock on 127.0.0.1 (interleaved; ratio of medians), and the server's start until `initialize`
 * is answered against `node -e 0`. Reported, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const { Client } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
const { startMockServer } = (await import(new URL('../dist/testing.js', import.meta.url).href)) as typeof import('../src/testing/index.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** One row of the budget table. */
export interface McpRow {
  name: string;
  measured: string;
  budget: string;
  pass: boolean;
}

export async function mcpRows(root: string, calls = 300, starts = 15): Promise<McpRow[]> {
  const bin = join(root, 'packages/mcp/dist/main.js');
  const mock = await startMockServer();
  const env = { PATH: process.env['PATH'] ?? '', WFA_API_KEY: mock.apiKey, WFA_BASE_URL: mock.url };
  const connect = async () => {
    const client = new McpClient({ name: 'bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin], env }));
    return client;
  };
  try {
    const sdk = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
    const mcp = await connect();
    const { id } = await sdk.workflows.create({ name: 'bench', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    const direct: number[] = [];
    const overMcp: number[] = [];
    for (let i = 0; i < calls + 20; i++) {
      // The first 20 of each warm up (JIT, connections) and are not counted.
      let started = performance.now();
      await sdk.workflows.get(id);
      if (i >= 20) direct.push(performance.now() - started);
      started = performance.now();
      await mcp.callTool({ name: 'workflows_get', arguments: { id } });
      if (i >= 20) overMcp.push(performance.now() - started);
    }
    await mcp.close();
    const startup: number[] = [];
    const empty: number[] = [];
    for (let i = 0; i < starts; i++) {
      let started = performance.now();
      spawnSync(process.execPath, ['-e', '0']);
      empty.push(performance.now() - started);
      started = performance.now();
      const client = await connect();
      startup.push(performance.now() - started);
      await client.close();
    }
    const [call, plain, start, node] = [median(overMcp), median(direct), median(startup), median(empty)];
    return [
      {
        name: 'MCP: workflows_get over stdio vs client.workflows.get, to the mock',
        measured: `${fmt(call / plain)}x (${fmt(call, 3)} ms vs ${fmt(plain, 3)} ms)`,
        budget: 'reported',
        pass: true,
      },
      {
        name: 'MCP: server start until initialize is answered vs node -e 0',
        measured: `${fmt(start / node)}x (${fmt(start, 1)} ms vs ${fmt(node, 1)} ms)`,
        budget: 'reported',
        pass: true,
      },
    ];
  } finally {
    await mock.close();
  }
}
