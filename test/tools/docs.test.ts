/** docs/mcp.md lists the tools the server serves: its table is generated (scripts/mcp-tools.mts), never edited by hand. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { withTable } from '../../scripts/mcp-tools.mjs';

test('the tool table in docs/mcp.md is the one the tools make (run `node --import tsx scripts/mcp-tools.mts --write`)', () => {
  const doc = readFileSync('docs/mcp.md', 'utf8');
  expect(doc).toBe(withTable(doc));
});
