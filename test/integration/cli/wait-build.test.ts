/**
 * `wfa wait-build` as a real process: SIGTERM must end the wait with exit code 143 (128 + 15), which only the entry
 * point's signal handling shows. Everything else is in test/cli/wait-build.test.ts.
 */
import { expect, test } from 'vitest';
import { Client } from '../../../src/index.js';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { startCli } from '../../cli/process.js';
import { envFor, mockServer } from '../../cli/servers.js';

test('wfa wait-build exits 143 on SIGTERM, after saying what it was doing', async ({ onTestFinished }) => {
  const mock = await mockServer({ onTestFinished }, { buildDurationMs: 60_000 });
  const workflow = await new Client({ baseUrl: mock.url, apiKey: mock.apiKey }).workflows.create({
    name: 'Orders to Slack',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hook' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  });
  const buildId = workflow.build_id ?? '';
  const running = startCli(['wait-build', buildId, '--interval', '100ms'], { env: envFor(mock) });
  onTestFinished(() => void running.child.kill('SIGKILL'));
  await running.waitFor(/building/, { from: 'stderr' });

  running.child.kill('SIGTERM');
  const result = await running.finished;

  expect(result.code).toBe(ExitCode.Terminated);
  expect(result.stderr).toContain(`wfa: AbortError: Waiting for build ${buildId} was aborted`);
});
