/** The server's command line: where the service is, which tools it serves, and over which transport. */
import { parseArgs } from 'node:util';

/** What the command line asks for. */
export interface ServerOptions {
  baseUrl: string | undefined;
  readOnly: boolean;
  /** An allowlist of tool names; none: every tool. */
  tools: string[] | undefined;
  /** Streamable HTTP on this address instead of stdio. */
  http: { host: string; port: number } | undefined;
}

export const USAGE = `Usage: workflow-automation-mcp [--base-url <url>] [--read-only] [--tools <name,name,…>] [--http [--host <host>] [--port <port>]]

An MCP server for the Workflow Automation Service, over stdio (default) or Streamable HTTP (--http).

  --base-url <url>   the service (default: $WFA_BASE_URL, else the one \`wfa login\` saved)
  --read-only        serve only the tools that change nothing
  --tools <names>    serve only these tools (comma separated)
  --http             Streamable HTTP at http://<host>:<port>/mcp; requests must carry
                     "Authorization: Bearer $WFA_MCP_TOKEN"
  --host <host>      default 127.0.0.1
  --port <port>      default 3333

The API key: $WFA_API_KEY, else the key \`wfa login\` saved (only for the service it was issued by).
It is never an argument: other users can see arguments in \`ps\`.`;

/** Reads the arguments; throws an Error whose message is fit to print on a bad one. */
export function parseOptions(args: readonly string[]): ServerOptions | 'help' {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'read-only': { type: 'boolean' },
      tools: { type: 'string' },
      http: { type: 'boolean' },
      host: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const port = Number(values.port ?? 3333);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be a whole number from 0 to 65535');
  if (!values.http && (values.host !== undefined || values.port !== undefined)) throw new Error('--host and --port go with --http');
  const tools = values.tools
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return {
    baseUrl: values['base-url'],
    readOnly: values['read-only'] ?? false,
    tools,
    http: values.http ? { host: values.host ?? '127.0.0.1', port } : undefined,
  };
}
