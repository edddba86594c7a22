/**
 * The MCP server from its packed tarball in one Node.js runtime: the official MCP client (from the root install)
 * starts it over stdio and calls it. Returns the matrix's result rows.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { checker } from './smoke.mjs';

const WORKFLOW = {
  name: 'matrix',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message' }],
};

/** Runs the checks with `node` (a Node.js binary), the server installed under `here`, against the mock of `config`. */
export async function runMcp(node, here, config) {
  const { results, check } = checker();
  const transport = new StdioClientTransport({
    command: node,
    args: [join(here, 'node_modules/workflow-automation-mcp/dist/main.js')],
    env: { PATH: process.env.PATH ?? '', WFA_API_KEY: config.apiKey, WFA_BASE_URL: config.baseUrl },
  });
  const client = new Client({ name: 'matrix', version: '1.0.0' });
  try {
    await check('mcp: initialize', () => client.connect(transport));
    await check('mcp: tools/list', async () => {
      const { tools } = await client.listTools();
      if (tools.length !== 13) throw new Error(`${tools.length} tools`);
    });
    await check('mcp: create, then wait with progress', async () => {
      const created = await client.callTool({ name: 'workflows_create', arguments: WORKFLOW });
      const progress = [];
      const build = await client.callTool(
        { name: 'builds_wait', arguments: { build_id: created.structuredContent.build_id } },
        { onprogress: (p) => progress.push(p) },
      );
      if (build.structuredContent?.status !== 'completed') throw new Error(JSON.stringify(build));
      if (progress.length === 0) throw new Error('no progress notification');
    });
    await check('mcp: a 404 is a tool error', async () => {
      const missing = await client.callTool({ name: 'workflows_get', arguments: { id: 'wf_missing' } });
      if (!missing.isError || !missing.content[0].text.includes('NotFoundError')) throw new Error(JSON.stringify(missing));
    });
  } finally {
    await client.close();
  }
  return results;
}
