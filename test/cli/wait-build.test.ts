import { describe, expect, test } from 'vitest';
import { Client } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { runMain, startMain } from './in-process.js';
import { runCli, startCli } from './process.js';
import { envFor, mockServer } from './servers.js';

const WORKFLOW = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

/** Creates a workflow on the mock and returns its build id. */
async function startBuild(server: MockServer): Promise<string> {
  const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
  const workflow = await client.workflows.create(WORKFLOW);
  return workflow.build_id ?? '';
}

// Concurrently: each test has its own mock server, and most of a test's time is a child process starting.
describe.concurrent('wfa wait-build', () => {
  test('prints only the download URL on stdout and exits 0 when the build completes', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 400 });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toBe(`${mock.url}/downloads/${buildId}.zip\n`);
  });

  test('writes one plain progress line per change on stderr when it is not a terminal', async ({ expect, onTestFinished }) => {
    // The mock's clock is the test's, so each state is seen exactly when the test moves time on.
    let now = Date.now();
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 10_000, now: () => now });
    const buildId = await startBuild(mock);
    const running = startMain(['wait-build', buildId, '--interval', '50ms'], envFor(mock));
    onTestFinished(() => running.interrupt());

    await running.waitFor(new RegExp(`^${buildId}: building 0%\n`, 'm'), 'stderr');
    now += 5_000;
    await running.waitFor(/: building 50%\n/, 'stderr');
    now += 5_000;
    const { code, stderr, stdout } = await running.finished;

    expect(code).toBe(ExitCode.Ok);
    expect(stderr).toBe(`${buildId}: building 0%\n${buildId}: building 50%\n${buildId}: completed 100%\n`);
    expect(stdout).toBe(`${mock.url}/downloads/${buildId}.zip\n`);
  });

  test('--json prints the completed build as JSON instead of the URL', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 200 });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--json', '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: buildId,
      status: 'completed',
      progress: 100,
      download_url: `${mock.url}/downloads/${buildId}.zip`,
    });
  });

  test('--quiet shows no progress', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 200 });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--quiet', '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toBe('');
  });

  test('exits 3 when the build fails, with its error and last log lines on stderr and nothing on stdout', async ({
    expect,
    onTestFinished,
  }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 200 });
    mock.service.failNextBuild();
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.BuildFailed);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${buildId}: failed`);
    expect(result.stderr).toContain(`wfa: BuildFailedError: Build ${buildId} ended with status "failed"`);
    expect(result.stderr).toMatch(/error: Packaging failed/);
    expect(result.stderr).toMatch(/last log lines:\n {4}\S/);
  });

  test('with --json, a failed build is still printed, and the exit code says it failed', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 100, failBuilds: true });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--json', '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.BuildFailed);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: buildId, status: 'failed' });
  });

  test('exits 4 when the build does not finish within --timeout', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 60_000 });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--timeout', '1s', '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.TimedOut);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`wfa: WaitTimeoutError: Build ${buildId} did not finish within 1000 ms`);
  });

  test('a bare --timeout number is seconds', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 60_000 });
    const buildId = await startBuild(mock);

    const result = await runCli(['wait-build', buildId, '--timeout', '0.5', '--interval', '100ms'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.TimedOut);
    expect(result.stderr).toContain('within 500 ms');
  });

  test('exits 2 with the API error when the build does not exist', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished });

    const result = await runCli(['wait-build', 'bld_missing'], { env: envFor(mock) });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stderr).toMatch(/^wfa: NotFoundError: 404 No build with id bld_missing/m);
  });

  test('exits 143 when terminated (SIGTERM), after saying what it was doing', async ({ expect, onTestFinished }) => {
    const mock = await mockServer({ onTestFinished }, { buildDurationMs: 60_000 });
    const buildId = await startBuild(mock);
    const running = startCli(['wait-build', buildId, '--interval', '100ms'], { env: envFor(mock) });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    await running.waitFor(/building/, { from: 'stderr' });

    running.child.kill('SIGTERM');
    const result = await running.finished;

    expect(result.code).toBe(ExitCode.Terminated);
    expect(result.stderr).toContain(`wfa: AbortError: Waiting for build ${buildId} was aborted`);
  });
});

describe('wfa wait-build usage errors', () => {
  test.each([
    [['wait-build'], 'missing <build_id>'],
    [['wait-build', 'a', 'b'], "unexpected argument 'b'"],
    [['wait-build', 'bld_1', '--timeout', 'soon'], '--timeout must be a duration'],
    [['wait-build', 'bld_1', '--interval', '0'], '--interval must be a duration greater than 0'],
    [['wait-build', 'bld_1', '--every', '1s'], "unknown option '--every'"],
  ])('exits 1 on a usage error: wfa %j', async (args, message) => {
    const result = await runMain(args, { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: 'k' });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain(`wfa: UsageError: ${message}`);
    expect(result.stdout).toBe('');
  });
});
