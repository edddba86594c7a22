/**
 * Every file in examples/ runs to exit code 0: the examples against a mock server of their own (as a reader
 * would run them against the service), the demo on its own with no configuration at all.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, type ExpectStatic } from 'vitest';
import { Client } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { ROOT, runScript, startScript, type Finished } from '../cli/process.js';
import { envFor } from '../cli/servers.js';
import { startRedis } from '../helpers/redis.js';

const examples = readdirSync(join(ROOT, 'examples'))
  .filter((file) => file.endsWith('.ts') && file !== 'demo.ts')
  .sort();

/**
 * Examples that need more than to be run: the webhook receiver waits for a delivery, so the test points the
 * mock's webhooks at it and starts a build.
 */
const drivers: Record<string, (server: MockServer, expect: ExpectStatic) => Promise<Finished>> = {
  async 'webhook-receiver.ts'(server, expect) {
    const running = startScript('examples/webhook-receiver.ts', ['--once'], { env: { ...envFor(server), PORT: '0' } });
    try {
      const [, url = ''] = await running.waitFor(/Receiving webhooks at (\S+)/);
      server.service.setWebhookUrl(url);
      const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
      await client.workflows.create({ name: 'Hook me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
      const finished = await running.finished;
      await server.service.flush();
      // It answered before it stopped: the service saw a 200, not a dropped connection.
      expect(server.service.webhookDeliveries()).toEqual([expect.objectContaining({ url, status: 200 })]);
      return finished;
    } finally {
      running.child.kill('SIGKILL'); // a no-op once it has exited; otherwise the receiver would outlive a failure
    }
  },
  // Against a redis-server of its own, through node-redis and then ioredis.
  async 'webhook-dedupe-redis.ts'(_server, expect) {
    const redis = await startRedis();
    try {
      const viaIoredis = await runScript('examples/webhook-dedupe-redis.ts', [], {
        env: { REDIS_URL: redis.url, REDIS_CLIENT: 'ioredis' },
        timeoutMs: 40_000,
      });
      expect(viaIoredis.stdout).toMatch(/^Handler runs: 1 \(redisStore\)$/m);
      return await runScript('examples/webhook-dedupe-redis.ts', [], { env: { REDIS_URL: redis.url }, timeoutMs: 40_000 });
    } finally {
      await redis.stop();
    }
  },
};

/** What each example must print to show it did its job, beyond exiting 0. */
const shows: Record<string, RegExp> = {
  'quickstart.ts': /^Created wf_\w+ \(building\)$/m,
  'pagination.ts': /^Page 3: ord_\w+$/m,
  'wait-for-build.ts': /^Ready: http:\/\/127\.0\.0\.1:\d+\/downloads\/bld_\w+\.zip$/m,
  'webhook-receiver.ts': /^Build of wf_\w+ completed: http:\/\/127\.0\.0\.1:\d+\/downloads\/bld_\w+\.zip$/m,
  'errors-and-retries.ts': /^With a wrong key: the API key was refused/m,
  'testing-with-msw.ts': /^# pass 3$/m,
  'webhook-signed.ts': /^Signed delivery: 200\nTampered delivery: 401$/m,
  'webhook-listen.ts': /^Verified delivery: build of wf_\w+ at http:\/\/127\.0\.0\.1:\d+\/downloads\/bld_\w+\.zip$/m,
  'webhook-confirm.ts':
    /^Forged delivery: 401\nHandled wf_\w+ \(confirmed: true\): http:\/\/127\.0\.0\.1:\d+\/downloads\/bld_\w+\.zip\nGenuine delivery: 200$/m,
  'webhook-dedupe-redis.ts': /^Answers: 200( 503){5}\nRetry: 200 \{"received":true,"duplicate":true\}\nHandler runs: 1 \(redisStore\)$/m,
};

describe('examples', () => {
  test('include one file per use the README points to', () => {
    expect(examples).toEqual(
      expect.arrayContaining([
        'errors-and-retries.ts',
        'pagination.ts',
        'quickstart.ts',
        'testing-with-msw.ts',
        'wait-for-build.ts',
        'webhook-receiver.ts',
      ]),
    );
  });

  // Concurrently, each with a server of its own: the examples are independent, and most of their time is waiting.
  test.concurrent.for(examples)('%s runs against the mock server and exits 0', { timeout: 45_000 }, async (file, { expect }) => {
    const server = await startMockServer({ host: '127.0.0.1', port: 0, buildDurationMs: 300 });
    try {
      const drive = drivers[file];
      const result = drive
        ? await drive(server, expect)
        : await runScript(`examples/${file}`, [], { env: envFor(server), timeoutMs: 40_000 });

      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(server.apiKey);
      expect(result.stdout).toMatch(shows[file] ?? /\S/);
    } finally {
      await server.close();
    }
  });
});

describe('the demo (npm run demo)', () => {
  test('needs no configuration, prints the whole lifecycle and exits 0 well within 30 s', async () => {
    // Killed at 30 s, so a demo that overruns fails here as it would for a newcomer.
    const result = await runScript('examples/demo.ts', [], { timeoutMs: 30_000 });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { stdout } = result;
    const steps = [
      '1. Log in',
      '2. Save an integration',
      '3. Create a workflow',
      '4. Wait for the build',
      '5. List workflows',
      '6. Receive the build.completed webhook',
      'Done.',
    ];
    let at = -1;
    for (const heading of steps) {
      const next = stdout.indexOf(heading);
      expect(next, heading).toBeGreaterThan(at);
      at = next;
    }
    expect(stdout).toContain('masked: "zp_l…d7e3"');
    expect(stdout).toMatch(/: completed 100%\n/);
    const url = /Download URL: (http:\/\/127\.0\.0\.1:\d+\/downloads\/bld_\w+\.zip)/.exec(stdout)?.[1];
    expect(url).toBeDefined();
    expect(stdout).toMatch(/Parsed a build\.completed event for wf_\w+/);
    expect(stdout).toContain(`data.download_url: ${url}`);
    expect(stdout).toContain('It matches the URL the wait returned.');
  }, 35_000);
});
