/**
 * `wfa` as a real process, stopped by a real signal: it closes what it opened and exits with the Unix
 * convention's code, 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as docs/cli.md says.
 */
import { describe, expect, test } from 'vitest';
import { startCli } from '../../cli/process.js';

describe('wfa mock stopped by a signal', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('on %s it frees its port and exits %i', async (signal, code) => {
    const running = startCli(['mock', '--port', '0', '--json']);
    try {
      const [line = ''] = await running.waitFor(/^\{.*\}$/m);
      const { url } = JSON.parse(line) as { url: string };

      running.child.kill(signal);
      const result = await running.finished;

      expect(result.code).toBe(code);
      expect(result.signal).toBe(null);
      expect(result.stderr).toContain('Mock service stopped.');
      await expect(fetch(`${url}/v1/orders`)).rejects.toThrow();
    } finally {
      running.child.kill('SIGKILL'); // a no-op once it has exited
    }
  });
});
