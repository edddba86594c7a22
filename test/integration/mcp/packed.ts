/**
 * The MCP server as users get it: both tarballs packed from the current build and installed in a scratch folder,
 * the server started as a child process, and a mock service that records every request it answers.
 */
import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockService, startMockServer, type MockServer, type MockServiceOptions } from 'workflow-automation-sdk/testing';
import { ROOT } from '../../cli/process.js';

/** The installed bin's path; `remove` deletes the folder. */
export function installPacked(): { bin: string; remove: () => void } {
  const work = mkdtempSync(join(tmpdir(), 'wfa-mcp-'));
  const pack = (args: string[]) =>
    (
      JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, ...args], { cwd: ROOT, encoding: 'utf8' })) as {
        filename: string;
      }[]
    )[0]!.filename;
  const tarballs = [pack([]), pack(['-w', 'workflow-automation-mcp'])];
  writeFileSync(join(work, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.map((file) => `./${file}`)], {
    cwd: work,
    stdio: 'ignore',
  });
  return {
    bin: join(work, 'node_modules/workflow-automation-mcp/dist/main.js'),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Changes what the mock answers: a hostile service, for one. */
export type Rewrite = (request: Request, response: Response) => Promise<Response>;

/** A mock server whose `requests` lists each request it received, as `GET /api/v1/builds/bld_1`. */
export async function startRecordedMock(
  options: MockServiceOptions = {},
  rewrite: Rewrite = async (_, response) => response,
): Promise<MockServer & { requests: string[] }> {
  const service = createMockService(options);
  const requests: string[] = [];
  const recorded = Object.create(service) as typeof service;
  recorded.handle = async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    return rewrite(request, await service.handle(request.clone()));
  };
  return Object.assign(await startMockServer({ service: recorded }), { requests });
}

/** A tool result as the tests read it. */
export type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };

/** A workflow the mock accepts. */
export const WORKFLOW = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

/** Creates a workflow and waits for its build through the tools, with a progress token: the result and each notification. */
export async function createThenWait(client: Client) {
  const created = ((await client.callTool({ name: 'workflows_create', arguments: WORKFLOW })) as Result).structuredContent!;
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const result = (await client.callTool(
    { name: 'builds_wait', arguments: { build_id: created['build_id'] } },
    { onprogress: (update) => progress.push(update) },
  )) as Result;
  return { result, progress };
}
