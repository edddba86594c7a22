/**
 * `wfa` against a port where nothing listens: a real refused connection, with the retries' real backoff.
 * The same exit code on the fake clock, with msw's network error, is in test/cli/cli.test.ts.
 */
import { expect, test } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runCli } from '../../cli/process.js';

test('an unreachable service exits 2 with ConnectionError', async () => {
  // Port 1 on loopback: nothing listens there, and no other test can start a server on it.
  const result = await runCli(['builds', 'get', 'bld_1'], { env: { WFA_BASE_URL: 'http://127.0.0.1:1', WFA_API_KEY: 'k' } });

  expect(result.code).toBe(ExitCode.RequestFailed);
  expect(result.stderr).toMatch(/^wfa: ConnectionError: /);
});
