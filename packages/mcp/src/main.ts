#!/usr/bin/env node
/** `workflow-automation-mcp`: reads its options and key, then serves over stdio or Streamable HTTP. Logs go to stderr only. */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Client, type Logger, type LogLevel } from 'workflow-automation-sdk';
import { ConfigError, resolveConnection } from '../../../src/tools/index.js';
import { serveHttp } from './http.js';
import { parseOptions, USAGE } from './options.js';
import { chooseTools, createServer, type JsonSchemas } from './server.js';

// stdout carries the protocol: the SDK's log lines (already redacted) go to stderr.
const log = (...parts: unknown[]) => console.error('workflow-automation-mcp:', ...parts);
const logger: Logger = { debug: log, info: log, warn: log, error: log };
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error', 'off'];

async function main(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const options = parseOptions(args);
  if (options === 'help') return void process.stderr.write(`${USAGE}\n`);
  const chosen = chooseTools({ readOnly: options.readOnly, names: options.tools });
  const { apiKey, baseUrl } = await resolveConnection({ 'base-url': options.baseUrl }, env);
  const level = env['WFA_LOG']?.toLowerCase() ?? '';
  const client = new Client({ apiKey, baseUrl, logger, logLevel: (LEVELS.includes(level) ? level : 'warn') as LogLevel });
  // Beside this file in dist/: made by the package's build.
  const schemas = createRequire(import.meta.url)('./schemas.json') as JsonSchemas;
  const what = `${chosen.length} tools${options.readOnly ? ' (read-only)' : ''} for ${baseUrl}`;
  if (!options.http) {
    await createServer(client, chosen, schemas, [apiKey]).connect(new StdioServerTransport());
    return log(`serving ${what} over stdio`);
  }
  const token = env['WFA_MCP_TOKEN']?.trim();
  if (!token) throw new ConfigError('--http needs a bearer token: set WFA_MCP_TOKEN (requests without it are refused)');
  const server = await serveHttp(() => createServer(client, chosen, schemas, [apiKey, token]), { ...options.http, token });
  const { address, port } = server.address() as AddressInfo;
  log(`serving ${what} at http://${address.includes(':') ? `[${address}]` : address}:${port}/mcp`);
}

main(process.argv.slice(2), process.env).catch((error: Error) => {
  // Its own messages, and the SDK's, never hold the key.
  log(error instanceof ConfigError || error.name === 'TypeError' ? error.message : `${error.name}: ${error.message}`);
  process.exitCode = error instanceof ConfigError ? 78 : 2;
});
