/**
 * The shipped OpenAPI document (`scripts/openapi.mts`) against the SDK itself: Stoplight Prism serves it on
 * 127.0.0.1 with `--errors`, so any request the contract refuses is an error answer, and the SDK's smoke flow
 * (create, get, list, a 404, a login) must pass under both prefixes.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, NotFoundError } from '../../src/index.js';
import { freePort } from '../helpers/daemon.js';

const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
let prism: ChildProcess;
let baseUrl: string;
let output = '';

beforeAll(async () => {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, execFileSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.mts'], { encoding: 'utf8' }));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  prism = spawn(join('node_modules', '.bin', 'prism'), ['mock', file, '--errors', '-h', '127.0.0.1', '-p', String(port)], {
    stdio: 'pipe',
  });
  prism.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  prism.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  for (let attempt = 0; !output.includes('Prism is listening'); attempt++) {
    if (prism.exitCode !== null || attempt >= 600) throw new Error(`prism did not start:\n${output}`);
    await sleep(100);
  }
}, 90_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const workflow = {
  name: 'Contract',
  platform: 'make',
  trigger: { type: 'webhook' as const },
  actions: [{ app: 'gmail', action: 'send_email' }],
};

describe.each(['/api/v1', '/v1'] as const)('the smoke flow under %s, against prism --errors', (apiPrefix) => {
  it('create, get, list and a 404 are all requests the contract accepts, and its answers are ones the SDK reads', async () => {
    const client = new Client({ baseUrl, apiKey: 'wfa_contract_key', apiPrefix, maxRetries: 0 });
    const created = await client.workflows.create(workflow);
    await expect(client.workflows.get(created.id)).resolves.toHaveProperty('id');
    await expect(client.workflows.list({ limit: 5 })).resolves.toHaveProperty('items');
    await expect(client.orders.list({ page: 1, status: 'paid' })).resolves.toHaveProperty('items');
    // Prism answers with the contract's 404 when asked; any refused request would be a 4xx of another kind.
    await expect(client.workflows.get('wf_missing', { headers: { prefer: 'code=404' } })).rejects.toBeInstanceOf(NotFoundError);
  });
});

it('a login at /v1/auth, without a key, is accepted by the contract', async () => {
  const client = await Client.login({ baseUrl, email: 'demo@example.com', password: 'demo', maxRetries: 0 });
  expect(client.toJSON().apiKey).toBe('[redacted]');
});

it('a request the contract refuses fails: the check is live', async () => {
  const client = new Client({ baseUrl, apiKey: 'wfa_contract_key', apiPrefix: '/api/v1', maxRetries: 0 });
  // A body the SDK would refuse itself, sent raw: prism --errors answers 422.
  await expect(client.request({ method: 'POST', path: '/workflows', body: { name: 5 } })).rejects.toMatchObject({ status: 422 });
});
