import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { DEFAULT_MOCK_USER } from '../../src/testing/index.js';
import { runMain, startMain } from './in-process.js';
import { runCli } from './process.js';

const BANNER = /running at (http:\/\/127\.0\.0\.1:\d+)\n {2}API key: +(\S+)/;

describe('wfa mock', () => {
  test('prints its URL and an API key valid on it, with the exports to use them', async () => {
    const running = startMain(['mock', '--port', '0']);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);

      expect(running.stdout()).toContain(`export WFA_BASE_URL=${url} WFA_API_KEY=${key}`);
      expect(running.stdout()).toContain(`${DEFAULT_MOCK_USER.email} / ${DEFAULT_MOCK_USER.password}`);
      const response = await fetch(`${url}/v1/orders`, { headers: { 'X-API-Key': key } });
      expect(response.status).toBe(200);
      expect((await fetch(`${url}/v1/orders`)).status).toBe(401);
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('logs each request on stderr, unless --quiet', async () => {
    const loud = startMain(['mock', '--port', '0']);
    const quiet = startMain(['mock', '--port', '0', '--quiet']);
    try {
      const [, loudUrl = ''] = await loud.waitFor(BANNER);
      const [, quietUrl = ''] = await quiet.waitFor(BANNER);
      await fetch(`${loudUrl}/v1/workflows`);
      await fetch(`${quietUrl}/v1/workflows`);

      await loud.waitFor(/^GET \/v1\/workflows -> 401 \(\d+ ms\)$/m, 'stderr');
    } finally {
      loud.interrupt();
      quiet.interrupt();
      await loud.finished;
      await quiet.finished;
    }
    expect(quiet.stderr()).not.toContain('/v1/workflows');
  });

  test('logs a request the server refuses itself (a malformed chunked body): a 400 line, and the connection closes', async () => {
    const running = startMain(['mock', '--port', '0']);
    try {
      const [, url = ''] = await running.waitFor(BANNER);
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.on('close', resolve).resume());
      socket.end('POST /v1/workflows?limit=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
      await running.waitFor(/^POST \/v1\/workflows -> 400 \(refused: Malformed request\)$/m, 'stderr');
      await closed;
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('its request log hides the values of query fields named for a credential', async () => {
    const running = startMain(['mock', '--port', '0']);
    try {
      const [, url = ''] = await running.waitFor(BANNER);
      await fetch(`${url}/v1/workflows?api_key=sk_live_query1&limit=2&Token=tok_query2&api%5Fkey=sk_query3`);

      await running.waitFor(/^GET \/v1\/workflows\?.* -> 401/m, 'stderr');

      expect(running.stderr()).toContain('GET /v1/workflows?api_key=[redacted]&limit=2&Token=[redacted]&api%5Fkey=[redacted] -> 401');
      expect(running.stderr()).not.toMatch(/sk_live_query1|tok_query2|sk_query3/);
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('stops when interrupted (Ctrl+C): exits 130, says so and frees its port', async () => {
    const running = startMain(['mock', '--port', '0', '--quiet']);
    const [, url = ''] = await running.waitFor(BANNER);

    running.interrupt();
    const result = await running.finished;

    expect(result.code).toBe(ExitCode.Interrupted);
    expect(result.stderr).toContain('Mock service stopped.');
    await expect(fetch(`${url}/v1/orders`)).rejects.toThrow();
  });

  test('--json prints one JSON line with url and apiKey on stdout, and nothing else, then serves', async () => {
    const running = startMain(['mock', '--port', '0', '--json']);
    try {
      await running.waitFor(/\n/);
      const lines = running.stdout().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe('');
      const printed = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
      expect(Object.keys(printed)).toEqual(['url', 'apiKey']);
      expect(printed['url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${String(printed['url'])}/v1/orders`, { headers: { 'X-API-Key': String(printed['apiKey']) } });
      expect(response.status).toBe(200);
    } finally {
      running.interrupt();
      await running.finished;
    }
    expect(running.stdout().split('\n')).toHaveLength(2);
  });

  test('its usage line lists every option', async () => {
    const result = await runMain(['mock', '--bogus']);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain("wfa: UsageError: unknown option '--bogus'\n");
    expect(result.stderr).toContain(
      'Usage: wfa mock [--port 4010] [--host 127.0.0.1] [--build-ms 3000] [--latency <ms>] [--error-rate <0..1>] [--rate-limit 20/s] [--rate-limit-headers] [--webhook-url <url>] [--fail-builds all|<share>|<pattern>] [--quiet] [--json]',
    );
  });

  test('--build-ms sets how long builds take', async () => {
    const running = startMain(['mock', '--port', '0', '--build-ms', '0', '--quiet']);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);
      const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
      const workflow = (await (await fetch(`${url}/v1/workflows`, { method: 'POST', headers, body })).json()) as { build_id: string };
      const build = (await (await fetch(`${url}/v1/builds/${workflow.build_id}`, { headers })).json()) as { status: string };

      expect(build.status).toBe('completed');
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('--rate-limit limits each key (a 429 with Retry-After beyond it); --rate-limit-headers adds the headers', async () => {
    // One request per 1000 s: the second is refused however slow the machine is.
    const running = startMain(['mock', '--port', '0', '--quiet', '--rate-limit', '0.06/m', '--rate-limit-headers']);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);
      const get = () => fetch(`${url}/v1/orders`, { headers: { 'X-API-Key': key } });
      expect((await get()).status).toBe(200);
      const refused = await get();

      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1000');
      expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=1000');
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test.each([
    [['--rate-limit', 'fast'], '--rate-limit must be requests per second or minute greater than 0, such as 20/s or 600/m, got "fast"'],
    [['--rate-limit', '0/s'], '--rate-limit must be'],
    [['--rate-limit-headers'], '--rate-limit-headers needs --rate-limit'],
    [['--build-ms', '10000-3000'], '--build-ms must be milliseconds (3000) or a range (3000-10000), got "10000-3000"'],
    [['--latency=-5'], '--latency must be a whole number of at least 0, got "-5"'],
    [['--latency', 'slow'], '--latency must be a whole number'],
    [['--error-rate', '1.5'], '--error-rate must be a number from 0 to 1, such as 0.05, got "1.5"'],
    [['--error-rate', 'often'], '--error-rate must be a number from 0 to 1'],
    [['--fail-builds', '2'], '--fail-builds must be all, a share from 0 to 1 (0.2) or a workflow name pattern (*nightly*), got "2"'],
    [['--fail-builds', ''], '--fail-builds must be all'],
    [['--fail-builds'], "option '--fail-builds <value>' argument missing"],
    [['--port', '70000'], '--port must be at most 65535, got 70000'],
    [['--port', 'x'], '--port must be a whole number'],
    [['--webhook-url', 'ftp://x'], '--webhook-url must be an http(s) URL'],
    [['--host', '999.1.1.1', '--port', '0'], '--host: cannot listen on 999.1.1.1: no such address on this machine'],
  ])('%j is a usage error, followed by the usage line', async (args, message) => {
    const result = await runMain(['mock', ...args]);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain(`wfa: UsageError: ${message}`);
    expect(result.stderr).toContain('Usage: wfa mock [--port 4010]');
  });

  test('--latency, --error-rate and --fail-builds reach the service', async () => {
    const running = startMain(['mock', '--port', '0', '--quiet', '--latency', '0', '--error-rate', '1', '--fail-builds', 'all']);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);
      const statuses = new Set<number>();
      for (let i = 0; i < 30; i++) statuses.add((await fetch(`${url}/v1/orders`, { headers: { 'X-API-Key': key } })).status);

      expect([...statuses].every((status) => [500, 502, 503].includes(status))).toBe(true);
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('--fail-builds takes a share, or a name pattern where * is any text', async () => {
    for (const [value, failing] of [
      ['*nightly*', ['a nightly job']],
      ['0', []],
      ['1', ['a nightly job', 'deploy']],
      ['all', ['a nightly job', 'deploy']],
    ] as const) {
      const running = startMain(['mock', '--port', '0', '--quiet', '--build-ms', '0', '--fail-builds', value]);
      try {
        const [, url = '', key = ''] = await running.waitFor(BANNER);
        const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
        const failed: string[] = [];
        for (const name of ['a nightly job', 'deploy']) {
          const body = JSON.stringify({ name, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
          const workflow = (await (await fetch(`${url}/v1/workflows`, { method: 'POST', headers, body })).json()) as { build_id: string };
          const build = (await (await fetch(`${url}/v1/builds/${workflow.build_id}`, { headers })).json()) as { status: string };
          if (build.status === 'failed') failed.push(name);
        }

        expect(failed, value).toEqual(failing);
      } finally {
        running.interrupt();
        await running.finished;
      }
    }
  });

  test('logs each webhook attempt and its outcome on stderr, with the wait before a retry', async () => {
    let posts = 0;
    const receiver = createHttpServer((req, res) => {
      req.resume();
      posts += 1;
      res.writeHead(posts === 1 ? 500 : 200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const hooks = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
    const running = startMain(['mock', '--port', '0', '--build-ms', '0', '--webhook-url', hooks]);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);
      const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
      const workflow = (await (await fetch(`${url}/v1/workflows`, { method: 'POST', headers, body })).json()) as { id: string };
      await fetch(`${url}/v1/orders`, { headers });

      await running.waitFor(/\(attempt 1\) -> 500, retry in 1000 ms$/m, 'stderr');

      expect(running.stderr()).toContain(`\nwebhook POST ${hooks} build.completed ${workflow.id} (attempt 1) -> 500, retry in 1000 ms\n`);
    } finally {
      running.interrupt();
      await running.finished;
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  // URL parsers (fetch's too) read `http:\\u:p@host`, or a password with a tab in it, as `http://u:p@host`.
  test.each([
    'http://hook_user:hunter2pass@127.0.0.1:9/hooks?secret=whsec_query&x=1',
    'http:\\\\hook_user:hunter2\tpass@127.0.0.1:9/hooks?secret=whsec_query&x=1',
  ])('its webhook log hides the user, password and credential query fields of the webhook URL %j', async (hooks) => {
    const running = startMain(['mock', '--port', '0', '--build-ms', '0', '--webhook-url', hooks]);
    try {
      const [, url = '', key = ''] = await running.waitFor(BANNER);
      const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
      await fetch(`${url}/v1/workflows`, { method: 'POST', headers, body });
      await fetch(`${url}/v1/orders`, { headers });

      await running.waitFor(/\(attempt 1\) -> failed: .*$/m, 'stderr');

      expect(running.stderr()).toContain('webhook POST http://[redacted]@127.0.0.1:9/hooks?secret=[redacted]&x=1 build.completed');
      expect(running.stderr()).not.toMatch(/hook_user|hunter2|whsec_query/);
    } finally {
      running.interrupt();
      await running.finished;
    }
  });

  test('its help names the user every mock knows', async () => {
    const { stdout } = await runCli(['mock', '--help']);

    expect(stdout).toContain(`${DEFAULT_MOCK_USER.email} (password "${DEFAULT_MOCK_USER.password}")`);
  });

  test('a port in use exits 1 and says so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = await runCli(['mock', '--port', String(port)]);

      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toContain(`wfa: ConfigError: Port ${port} on 127.0.0.1 is in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
