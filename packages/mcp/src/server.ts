/**
 * The MCP server: one registered tool per tool of `src/tools/` (bundled), each result masked and each
 * failure a tool error. A wait reports the build's progress to a client that asked for it, and stops when the
 * request is cancelled.
 */
import { createRequire } from 'node:module';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { Build, Client } from 'workflow-automation-sdk';
import { masked, tools, type Tool, type ToolSchema } from '../../../src/tools/index.js';
import { toolError } from './errors.js';

/** Which tools to serve. */
export interface ToolChoice {
  readOnly: boolean;
  /** An allowlist of names; none: every tool. */
  names: readonly string[] | undefined;
}

/** The tools a choice keeps; a name that is no tool is an Error naming it, so a typo cannot silently serve nothing. */
export function chooseTools({ readOnly, names }: ToolChoice): Tool[] {
  const all = tools();
  const unknown = (names ?? []).filter((name) => !all.some((tool) => tool.name === name));
  if (unknown.length > 0)
    throw new Error(`--tools: no tool named ${unknown.join(', ')}; the tools are ${all.map((tool) => tool.name).join(', ')}`);
  return all.filter((tool) => (!readOnly || tool.hints.readOnlyHint) && (!names || names.includes(tool.name)));
}

/** The server's name and version, as `initialize` answers. */
const { name, version } = createRequire(import.meta.url)('../package.json') as { name: string; version: string };
export const SERVER_INFO = { name, version };

// Progress goes only to a client that asked for it, with the token it gave.
function progressOf(context: ServerContext): ((build: Build) => void) | undefined {
  const token = context.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  // The protocol wants each notification's progress above the last: a poll without a higher figure adds a little.
  let last = 0;
  return (build) => {
    const percent = typeof build.progress === 'number' ? build.progress : undefined;
    last = Math.max(last + 0.01, percent ?? 0);
    const message = `build ${build.status}${percent === undefined ? '' : ` ${percent}%`}`;
    const params = { progressToken: token, progress: last, total: 100, message };
    context.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

/** Each tool's JSON Schemas, made from the SDK's schemas when this package is built (dist/schemas.json). */
export type JsonSchemas = Record<string, { input: Record<string, unknown>; output?: Record<string, unknown> }>;

// The SDK's check, and the JSON Schema made from the same schema, as the MCP SDK takes a schema.
const withJson = (schema: ToolSchema, json: Record<string, unknown>) => ({
  '~standard': { ...schema['~standard'], jsonSchema: { input: () => json, output: () => json } },
});

/** A server with the chosen tools, calling the service through `client`; `secrets` are hidden from every result and error. */
export function createServer(client: Client, chosen: readonly Tool[], schemas: JsonSchemas, secrets: readonly string[]): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  for (const tool of chosen) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: withJson(tool.arguments, schemas[tool.name]!.input),
        ...(tool.result && { outputSchema: withJson(tool.result, schemas[tool.name]!.output!) }),
        annotations: tool.hints,
      },
      async (args: unknown, context: ServerContext) => {
        const given = args as Record<string, unknown>;
        // Masked beside the arguments, so that a key the agent just gave (a platform's) is hidden wherever it shows.
        const hide = (value: unknown) => (masked({ given, value }, ...secrets) as { value: unknown }).value;
        try {
          const onProgress = tool.waits ? progressOf(context) : undefined;
          const result = hide(await tool.run(client, given, { signal: context.mcpReq.signal, onProgress })) as Record<string, unknown>;
          // The service's text is data: it goes back as JSON, never read or acted on here.
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
        } catch (error) {
          return toolError(error, hide);
        }
      },
    );
  }
  return server;
}
