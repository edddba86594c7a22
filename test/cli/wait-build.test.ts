/**
 * `wfa wait-build`, run in process against the mock service (msw) on the fake clock: a build's seconds pass
 * at once, and each way the wait ends is reached exactly. Real signals: test/integration/cli/wait-build.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Client } from '../../src/index.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';
import { runMain, startMain, type Ran } from './in-process.js';

const service = useService();
const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };

const WORKFLOW = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

/** Creates a workflow on the mock and returns its build id. */
async function startBuild(): Promise<string> {
  const workflow = await new Client({ baseUrl: BASE_URL, apiKey: API_KEY }).workflows.create(WORKFLOW);
  return workflow.build_id ?? '';
}

/** Runs `wfa args` to its end, the fake clock moving on whenever it waits; with the fake time that passed. */
async function wfa(args: readonly string[]): Promise<Ran & { elapsedMs: number }> {
  const settled = await settle(runMain(args, ENV));
  if (!settled.ok) throw settled.error;
  return { ...settled.value, elapsedMs: settled.elapsedMs };
}

describe('wfa wait-build', () => {
  useFakeClock();

  test('prints only the download URL on stdout and exits 0 when the build completes', async () => {
    service.useMock({ buildDurationMs: 400 });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toBe(`${BASE_URL}/downloads/${buildId}.zip\n`);
  });

  test('writes one plain progress line per change on stderr when it is not a terminal', async () => {
    // The mock's clock is the test's, so each state is seen exactly when the test moves time on.
    let now = Date.now();
    service.useMock({ buildDurationMs: 10_000, now: () => now });
    const buildId = await startBuild();
    const running = startMain(['wait-build', buildId, '--interval', '50ms'], ENV);

    await settle(running.waitFor(new RegExp(`^${buildId}: building 0%\n`, 'm'), 'stderr'));
    now += 5_000;
    await settle(running.waitFor(/: building 50%\n/, 'stderr'));
    now += 5_000;
    const finished = await settle(running.finished);

    expect(finished).toMatchObject({ ok: true });
    const { code, stderr, stdout } = (finished as { value: Ran }).value;
    expect(code).toBe(ExitCode.Ok);
    expect(stderr).toBe(`${buildId}: building 0%\n${buildId}: building 50%\n${buildId}: completed 100%\n`);
    expect(stdout).toBe(`${BASE_URL}/downloads/${buildId}.zip\n`);
  });

  test('--json prints the completed build as JSON instead of the URL', async () => {
    service.useMock({ buildDurationMs: 200 });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--json', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: buildId,
      status: 'completed',
      progress: 100,
      download_url: `${BASE_URL}/downloads/${buildId}.zip`,
    });
  });

  test('--quiet shows no progress', async () => {
    service.useMock({ buildDurationMs: 200 });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--quiet', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toBe('');
  });

  test('exits 3 when the build fails, with its error and last log lines on stderr and nothing on stdout', async () => {
    service.useMock({ buildDurationMs: 200 }).failNextBuild();
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.BuildFailed);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${buildId}: failed`);
    expect(result.stderr).toContain(`wfa: BuildFailedError: Build ${buildId} ended with status "failed"`);
    expect(result.stderr).toMatch(/error: Packaging failed/);
    expect(result.stderr).toMatch(/last log lines:\n {4}\S/);
  });

  test('with --json, a failed build is still printed, and the exit code says it failed', async () => {
    service.useMock({ buildDurationMs: 100, failBuilds: true });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--json', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.BuildFailed);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: buildId, status: 'failed' });
  });

  test('exits 4 when the build does not finish within --timeout, at the timeout', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--timeout', '1s', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.TimedOut);
    expect(result.elapsedMs).toBe(1_000);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`wfa: WaitTimeoutError: Build ${buildId} did not finish within 1000 ms`);
  });

  test('a bare --timeout number is seconds', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const buildId = await startBuild();

    const result = await wfa(['wait-build', buildId, '--timeout', '0.5', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.TimedOut);
    expect(result.stderr).toContain('within 500 ms');
  });

  test('exits 2 with the API error when the build does not exist', async () => {
    service.useMock();

    const result = await wfa(['wait-build', 'bld_missing']);

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stderr).toMatch(/^wfa: NotFoundError: 404 No build with id bld_missing/m);
  });

  test('exits 130 when interrupted, after saying what it was doing', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const buildId = await startBuild();
    const running = startMain(['wait-build', buildId, '--interval', '100ms'], ENV);
    await settle(running.waitFor(/building/, 'stderr'));

    running.interrupt();
    const finished = await settle(running.finished);

    expect(finished).toMatchObject({ ok: true, value: { code: ExitCode.Interrupted } });
    expect((finished as { value: Ran }).value.stderr).toContain(`wfa: AbortError: Waiting for build ${buildId} was aborted`);
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
