/**
 * `wfa builds download`, run in process against the mock service (msw): the file written, the path on
 * stdout, progress lines on stderr, and a clear failure with no file left behind.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { Client } from '../../src/index.js';
import { artifactBytes } from '../../src/testing/index.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';
import { runMain } from './in-process.js';

const service = useService();
const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };
const WORKFLOW = { name: 'w', platform: 'zapier', trigger: { type: 'webhook' }, actions: [{ app: 'slack', action: 'send_message' }] };

let dir = '';
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function build(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'wfa-cli-download-'));
  return (await new Client({ baseUrl: BASE_URL, apiKey: API_KEY }).workflows.create(WORKFLOW)).build_id ?? '';
}

describe('wfa builds download', () => {
  test('writes the artifact to -o, prints its path on stdout and plain progress lines on stderr', async () => {
    service.useMock({ buildDurationMs: 0, artifacts: { size: 300_000 } });
    const buildId = await build();
    const path = join(dir, 'out.zip');
    const result = await runMain(['builds', 'download', buildId, '-o', path], ENV);
    expect(result).toMatchObject({ code: ExitCode.Ok, stdout: `${path}\n` });
    expect(Buffer.compare(await readFile(path), Buffer.from(artifactBytes(300_000)))).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${buildId}: [\\d.]+ KB of 293 KB \\(\\d+%\\)$`));
    expect(lines.at(-1)).toBe(`${buildId}: 293 KB of 293 KB (100%)`);
    expect(result.stderr.includes('\r')).toBe(false);
  });

  test('shows progress of a small artifact in bytes, not as 0.0 MB', async () => {
    service.useMock({ buildDurationMs: 0, artifacts: { size: 300 } });
    const buildId = await build();
    const result = await runMain(['builds', 'download', buildId, '-o', join(dir, 'out.zip')], ENV);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`${buildId}: 300 B of 300 B (100%)`);
  });

  test('exits 4 (the build has not finished), suggests wfa wait-build or --wait, and writes no file', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const buildId = await build();
    const result = await runMain(['builds', 'download', buildId, '-o', join(dir, 'out.zip')], ENV);
    expect(result.code).toBe(ExitCode.TimedOut);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`has not finished (status building): wait for it with "wfa wait-build ${buildId}", or add --wait`);
    expect(result.stderr).not.toMatch(/client\.waitForBuild/);
    expect(await readdir(dir)).toEqual([]);
  });

  test('with --wait, waits for the build to finish, then downloads it', async () => {
    service.useMock({ buildDurationMs: 300, artifacts: { size: 2000 } });
    const buildId = await build();
    const path = join(dir, 'out.zip');
    const result = await runMain(['builds', 'download', buildId, '-o', path, '--wait', '--interval', '100ms'], ENV);
    expect(result).toMatchObject({ code: ExitCode.Ok, stdout: `${path}\n` });
    expect(Buffer.compare(await readFile(path), Buffer.from(artifactBytes(2000)))).toBe(0);
    expect(result.stderr).toContain(`${buildId}: completed 100%`);
    expect(result.stderr).toContain(`${buildId}: 2.0 KB of 2.0 KB (100%)`);
  });

  test('exits 3 for a failed build, with or without --wait', async () => {
    service.useMock({ buildDurationMs: 0, failBuilds: true });
    const buildId = await build();
    for (const extra of [[], ['--wait']]) {
      const result = await runMain(['builds', 'download', buildId, '-o', join(dir, 'out.zip'), ...extra], ENV);
      expect(result.code).toBe(ExitCode.BuildFailed);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  test('needs a build id', async () => {
    const result = await runMain(['builds', 'download'], ENV);
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/missing <build_id>/);
  });

  test('an empty -o is a usage error, before any request', async () => {
    const result = await runMain(['builds', 'download', 'bld_1', '-o', ''], { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: API_KEY });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: UsageError: -o, --output needs a file path\nUsage: wfa builds download /);
  });
});
