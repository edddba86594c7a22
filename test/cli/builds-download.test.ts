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
    expect(lines[0]).toMatch(new RegExp(`^${buildId}: 0\\.\\d MB of 0\\.3 MB \\(\\d+%\\)$`));
    expect(lines.at(-1)).toBe(`${buildId}: 0.3 MB of 0.3 MB (100%)`);
    expect(result.stderr.includes('\r')).toBe(false);
  });

  test('fails with a clear message, a non-zero code and no file when the build has not completed', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const buildId = await build();
    const result = await runMain(['builds', 'download', buildId, '-o', join(dir, 'out.zip')], ENV);
    expect(result.code).not.toBe(ExitCode.Ok);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no artifact to download yet \(status building\)/);
    expect(await readdir(dir)).toEqual([]);
  });

  test('needs a build id', async () => {
    const result = await runMain(['builds', 'download'], ENV);
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/missing <build_id>/);
  });
});
