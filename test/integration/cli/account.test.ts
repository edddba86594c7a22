/**
 * `wfa login`, `wfa integrations save` and `wfa doctor` as real processes against a mock server on
 * 127.0.0.1: the saved file's mode, the secrets absent from the child's whole output, the real Date header.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runCli, startScript } from '../../cli/process.js';
import { envFor, mockServer } from '../../cli/servers.js';

const dir = mkdtempSync(join(tmpdir(), 'wfa-account-it-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = 'pw-Integration-5521';
const KEY = 'sk_live_integration_0123456789abcdef';

function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [secret, encodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
}

test('wfa login in a child: a 0600 file without the password, then integrations save uses it, and no secret is printed', async (context) => {
  const server = await mockServer(context, { users: [{ email: 'ana@example.com', password: PASSWORD }] });
  const xdg = join(dir, 'xdg');
  const base = { WFA_BASE_URL: server.url, XDG_CONFIG_HOME: xdg, WFA_API_KEY: undefined };
  const login = await startScript('src/cli/index.ts', ['login'], { env: { ...base, WFA_EMAIL: 'ana@example.com', WFA_PASSWORD: PASSWORD } })
    .finished;
  expect(login.code).toBe(ExitCode.Ok);
  const file = join(xdg, 'wfa', 'config.json');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).not.toContain(PASSWORD);

  const saved = await startScript('src/cli/index.ts', ['integrations', 'save', 'shopify'], { env: { ...base, WFA_INTEGRATION_KEY: KEY } })
    .finished;
  expect(saved.code).toBe(ExitCode.Ok);
  const listed = await startScript('src/cli/index.ts', ['integrations', 'list'], { env: base }).finished;
  expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ platform: 'shopify' })]);
  for (const output of [login, saved, listed]) {
    for (const form of [...encodings(PASSWORD), ...encodings(KEY)]) expect(output.stdout + output.stderr).not.toContain(form);
  }
});

test('wfa doctor against a real server under /v1 only: /v1, and the clock skew from its real Date header', async (context) => {
  const server = await mockServer(context, { prefixes: ['/v1'] });
  const result = await runCli(['doctor', '--json'], { env: envFor(server) });

  expect(result.code).toBe(ExitCode.Ok);
  const report = JSON.parse(result.stdout) as { prefix: string; clockSkewMs: number; latencyMs: number };
  expect(report.prefix).toBe('/v1');
  // Same machine, same clock: the Date header's 1 s steps are the only difference.
  expect(Math.abs(report.clockSkewMs)).toBeLessThanOrEqual(1500);
  expect(report.latencyMs).toBeGreaterThanOrEqual(0);
});

test('wfa doctor with a bad key against a real server exits 2', async (context) => {
  const server = await mockServer(context);
  const result = await runCli(['doctor'], { env: { WFA_BASE_URL: server.url, WFA_API_KEY: 'wfa_bad_key_000' } });

  expect(result.code).toBe(ExitCode.RequestFailed);
  expect(result.stdout).toMatch(/fail {2}API key: rejected with 401/);
});
