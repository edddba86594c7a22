/** The server's command line and tool choice: what it serves, and a mistake refused at start, naming it. */
import { describe, expect, test } from 'vitest';
import { parseOptions } from '../../packages/mcp/src/options.js';
import { chooseTools } from '../../packages/mcp/src/server.js';
import { tools } from '../../src/tools/index.js';

describe('the command line', () => {
  test('stdio by default; --http binds to 127.0.0.1:3333 unless told', () => {
    expect(parseOptions([])).toEqual({ baseUrl: undefined, readOnly: false, tools: undefined, http: undefined });
    expect(parseOptions(['--http'])).toMatchObject({ http: { host: '127.0.0.1', port: 3333 } });
    expect(parseOptions(['--http', '--host', '0.0.0.0', '--port', '0'])).toMatchObject({ http: { host: '0.0.0.0', port: 0 } });
  });

  test('--tools is a comma separated allowlist', () => {
    expect(parseOptions(['--tools', 'builds_get, builds_wait,'])).toMatchObject({ tools: ['builds_get', 'builds_wait'] });
  });

  test('refuses an unknown option, a bad port, and --port without --http', () => {
    expect(() => parseOptions(['--api-key', 'x'])).toThrow(/api-key/);
    expect(() => parseOptions(['--http', '--port', '70000'])).toThrow('--port must be a whole number from 0 to 65535');
    expect(() => parseOptions(['--port', '1'])).toThrow('--host and --port go with --http');
  });
});

describe('the tools served', () => {
  test('all by default; --read-only keeps those that change nothing', () => {
    expect(chooseTools({ readOnly: false, names: undefined })).toHaveLength(tools().length);
    const readOnly = chooseTools({ readOnly: true, names: undefined }).map((tool) => tool.name);
    expect(readOnly).toEqual([
      'workflows_list',
      'workflows_get',
      'orders_list',
      'orders_get',
      'builds_get',
      'integrations_list',
      'builds_wait',
    ]);
  });

  test('an allowlist narrows them, also in read-only mode; an unknown name is an error naming it', () => {
    expect(chooseTools({ readOnly: true, names: ['builds_get', 'workflows_delete'] }).map((tool) => tool.name)).toEqual(['builds_get']);
    expect(() => chooseTools({ readOnly: false, names: ['workflow_list'] })).toThrow(/no tool named workflow_list/);
  });
});
