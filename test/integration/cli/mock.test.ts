/**
 * `wfa mock` as a real process: SIGTERM and SIGINT stop it with exit code 0 and free its port, which only the
 * entry point's signal handling shows. Everything else is in test/cli/mock.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { startCli } from '../../cli/process.js';

const BANNER = /running at (http:\/\/127\.0\.0\.1:\d+)\n {2}API key: +(\S+)/;

describe('wfa mock', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('stops on %s: exits 0 and frees its port', async (signal) => {
    const running = startCli(['mock', '--port', '0']);
    const [, url = ''] = await running.waitFor(BANNER);

    running.child.kill(signal);
    const result = await running.finished;

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain('Mock service stopped.');
    await expect(fetch(`${url}/v1/orders`)).rejects.toThrow();
  });
});
