/**
 * A Node process whose calls failed at their deadline while the gate was closed by a 429 with `Retry-After: 50`,
 * and whose server is closed, must exit on its own: no timer of the gate outlives the calls waiting at it.
 * The child runs `src/index.ts` through tsx; it is given 3 s after its work ends, far below the 50 s close.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChildUntilExit } from '../helpers/child-exit.js';

const SDK = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
/** How long after its work ends the child is given to exit before it is taken for kept alive and killed. */
const EXIT_WITHIN_MS = 3_000;

const CHILD = `
import http from 'node:http';
import { Client } from ${JSON.stringify(SDK)};

const server = http.createServer((req, res) => {
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '50' });
  res.end('{"message":"slow down"}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = new Client({ baseUrl: 'http://127.0.0.1:' + server.address().port, apiKey: 'wfa_test_exit', apiPrefix: '/v1' });
const names = [];
for (let i = 0; i < 2; i++) names.push(await client.workflows.get('wf_1', { deadlineMs: 300 }).then(() => 'ok', (error) => error.name));
await new Promise((resolve) => server.close(resolve));
console.log(JSON.stringify(names));
`;

describe('a Node process whose calls waited at a closed gate', () => {
  it('exits on its own once they failed at their deadline and the server is closed', async () => {
    const run = await runChildUntilExit(['--import', 'tsx', '--input-type=module', '-e', CHILD], EXIT_WITHIN_MS);
    // The first call got the 429; the second was held by it at the gate, so its deadline is its own TimeoutError.
    expect(run.report, run.stderr).toBe('["RateLimitError","TimeoutError"]');
    expect(run.exitedOnItsOwn, run.stderr).toBe(true);
  });
});
