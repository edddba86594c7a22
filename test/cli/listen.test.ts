/**
 * `wfa listen`'s command line, in process: help, usage and configuration errors, all before any request.
 * Forwarding itself runs against the mock over real sockets in test/integration/cli/listen.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { standardWebhooks } from '../../src/webhooks/index.js';
import { http, HttpResponse } from 'msw';
import { BASE_URL, API_KEY, useService } from '../helpers/service.js';
import { runMain, startMain } from './in-process.js';

const service = useService();

const CONNECTION = { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: 'wfa_secret_listen_key' };
const FORWARD = ['--forward-to', 'http://localhost:3000/webhooks'];

describe('wfa listen', () => {
  test('--help prints the usage, the signing options and where the secret comes from', async () => {
    const result = await runMain(['listen', '--help']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toMatch(/^Usage: wfa listen --forward-to <url>/);
    for (const text of ['--workflow <id>', '--sign <scheme>', 'WFA_WEBHOOK_SECRET', 'exit code 130']) expect(result.stdout).toContain(text);
  });

  test('--help lists only the exit codes wfa listen can exit with: never 0, 3 or 4', async () => {
    const { stdout } = await runMain(['listen', '--help']);

    const codes = stdout
      .split('Exit codes:\n')[1]
      ?.split('\n\n')[0]
      ?.split('\n')
      .map((line) => Number(line.trim().split(' ')[0]));
    expect(codes).toEqual([ExitCode.Usage, ExitCode.RequestFailed, ExitCode.Interrupted, ExitCode.Terminated]);
  });

  test('is listed in the top-level help', async () => {
    expect((await runMain(['--help'])).stdout).toMatch(/^ {2}listen +Forward build\.completed webhooks/m);
  });

  test.each([
    [['listen'], 'missing --forward-to <url>'],
    [['listen', '--forward-to', 'localhost:3000/webhooks'], '--forward-to must be an http(s) URL'],
    [['listen', '--forward-to', 'me:pw-7c1e@localhost:3000/x'], '--forward-to must not hold a user name or password'],
    [['listen', '--forward-to', 'ws://me:pw-7c1e@localhost:3000/x'], '--forward-to must not hold a user name or password'],
    [['listen', '--forward-to', 'ftp://localhost/x'], '--forward-to must be an http(s) URL'],
    [['listen', '--forward-to', 'http://me:pw-7c1e@localhost/x'], '--forward-to must not hold a user name or password'],
    [['listen', ...FORWARD, 'extra'], "unexpected argument 'extra'"],
    [['listen', ...FORWARD, '--workflow', ''], '--workflow needs a workflow id'],
    [['listen', ...FORWARD, '--interval', '0'], '--interval must be a duration greater than 0'],
    [['listen', ...FORWARD, '--sign', 'ed25519'], '--sign must be hmac-sha256 or standard-webhooks, got "ed25519"'],
    [['listen', ...FORWARD, '--signature-header', 'x-sig'], '--signature-header goes with --sign hmac-sha256'],
    [['listen', ...FORWARD, '--sign', 'standard-webhooks', '--signature-prefix', 'v='], '--signature-prefix goes with --sign hmac-sha256'],
    [['listen', ...FORWARD, '--secret-env', 'MY_SECRET'], '--secret-env goes with --sign'],
    [['listen', ...FORWARD, '--sign', 'hmac-sha256', '--signature-encoding', 'base32'], '--signature-encoding must be hex or base64'],
    [['listen', ...FORWARD, '--secret', 'whsec_abc'], "unknown option '--secret'"],
  ])('wfa %j exits 1 with the problem on stderr', async (args, message) => {
    const result = await runMain(args, CONNECTION);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`wfa: UsageError: ${message}`);
    expect(result.stderr).not.toContain('pw-7c1e');
  });

  test('--sign without the secret in the environment names the variable to set', async () => {
    const standard = await runMain(['listen', ...FORWARD, '--sign', 'standard-webhooks'], CONNECTION);
    const custom = await runMain(['listen', ...FORWARD, '--sign', 'hmac-sha256', '--secret-env', 'MY_SECRET'], CONNECTION);

    expect(standard.code).toBe(ExitCode.Usage);
    expect(standard.stderr).toContain(
      'wfa: ConfigError: --sign standard-webhooks needs the signing secret in the environment variable WFA_WEBHOOK_SECRET',
    );
    expect(custom.stderr).toContain('environment variable MY_SECRET, which is not set');
  });

  test.each([
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['sk_live_51HqLyjWDarjtT1zdp7dc', '51HqLyjWDarjtT1zdp7dc'],
    ['s3cr3t+value/with=base64', 's3cr3t'],
  ])('--secret-env %s (a secret typed where a variable name belongs) is never quoted', async (value, part) => {
    const result = await runMain(['listen', ...FORWARD, '--sign', 'standard-webhooks', '--secret-env', value], CONNECTION);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/--secret-env/);
    expect(result.stderr).not.toContain(part);
  });

  test('a secret that is not a Standard Webhooks secret is refused without being quoted', async () => {
    const secret = 'whsec_not-base64-9f8e7d!';
    const result = await runMain(['listen', ...FORWARD, '--sign', 'standard-webhooks'], { ...CONNECTION, WFA_WEBHOOK_SECRET: secret });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('secret: must be "whsec_" followed by base64');
    expect(result.stderr).not.toContain('9f8e7d');
  });

  test('without a connection it says how to set one, before any request', async () => {
    const result = await runMain(['listen', ...FORWARD]);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('wfa: ConfigError: No API key and no base URL');
  });
});

describe('wfa listen, polling the msw mock', () => {
  const wf = (id: string, build: string) => ({
    id,
    name: id,
    platform: 'zapier',
    status: 'active',
    created_at: '2026-01-01T00:00:00Z',
    build_id: build,
  });

  // wf_ok, whose build bld_ok has completed: the delivery each test expects to get through.
  const serveCompletedWorkflow = () => {
    service.reply('GET', '/api/v1/workflows/wf_ok', 200, wf('wf_ok', 'bld_ok'));
    service.reply('GET', '/api/v1/builds/bld_ok', 200, {
      id: 'bld_ok',
      workflow_id: 'wf_ok',
      status: 'completed',
      progress: 100,
      download_url: 'https://files.example.com/ok.zip',
    });
  };
  const receiveDeliveries = () => {
    const delivered: unknown[] = [];
    service.use(
      http.post('http://localhost:3000/webhooks', async ({ request }) => {
        delivered.push(await request.json());
        return new HttpResponse('ok');
      }),
    );
    return delivered;
  };

  test('without --workflow, a workflow created after launch is followed even when the first listing already shows it', async () => {
    const delivered = receiveDeliveries();
    // wf_ok was created while wfa listen was starting (its client loading, its first listing on the way):
    // after launch, so it is new. wf_old was there before.
    const createdAfterLaunch = new Date(Date.now() + 60_000).toISOString();
    service.reply('GET', '/api/v1/workflows', 200, {
      data: [{ ...wf('wf_ok', 'bld_ok'), created_at: createdAfterLaunch }, wf('wf_old', 'bld_old')],
      page: 1,
      limit: 20,
      total: 2,
      has_more: false,
    });
    serveCompletedWorkflow();
    service.use(
      http.get(`${BASE_URL}/api/v1/builds/bld_old`, () => {
        throw new Error('wf_old existed before launch: its builds are not followed');
      }),
    );
    const started = startMain(['listen', ...FORWARD, '--interval', '1ms'], { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY });
    await started.waitFor(/"build_id":"bld_ok"/);
    started.interrupt();
    const result = await started.finished;

    expect(result.code).toBe(ExitCode.Interrupted);
    expect(delivered).toEqual([
      { event: 'build.completed', workflow_id: 'wf_ok', data: { download_url: 'https://files.example.com/ok.zip' } },
    ]);
  });

  test('a build that cannot be read is reported once and skipped; the other workflows are still forwarded', async () => {
    const delivered = receiveDeliveries();
    let badReads = 0;
    let started: ReturnType<typeof startMain> | undefined;
    service.reply('GET', '/api/v1/workflows/wf_gone', 200, wf('wf_gone', 'bld_gone'));
    service.reply('GET', '/api/v1/workflows/wf_empty', 200, wf('wf_empty', ''));
    serveCompletedWorkflow();
    // Stops the listener after a few rounds, whatever it forwarded.
    service.handle('GET', '/api/v1/builds/bld_gone', () => {
      if (++badReads === 3) started?.interrupt();
      return HttpResponse.json({ message: 'No such build' }, { status: 404 });
    });
    started = startMain(
      ['listen', ...FORWARD, '--workflow', 'wf_gone', '--workflow', 'wf_empty', '--workflow', 'wf_ok', '--interval', '1ms'],
      { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY },
    );
    const result = await started.finished;

    expect(result.code).toBe(ExitCode.Interrupted);
    expect(delivered).toEqual([
      { event: 'build.completed', workflow_id: 'wf_ok', data: { download_url: 'https://files.example.com/ok.zip' } },
    ]);
    expect(result.stderr.split('\n').filter((line) => line.includes('bld_gone'))).toHaveLength(1);
    expect(result.stderr).toContain('wfa listen: build bld_gone of workflow wf_gone could not be read');
    expect(result.stderr).toContain('workflow wf_empty');
    expect(badReads).toBe(3);
  });

  test('--pretty-body sends the body pretty-printed, keys in another order, signed as sent: a re-serialising receiver fails as in production', async () => {
    const bodies: string[] = [];
    const headers: Headers[] = [];
    let started: ReturnType<typeof startMain> | undefined;
    service.use(
      http.post('http://localhost:3000/webhooks', async ({ request }) => {
        bodies.push(await request.text());
        headers.push(request.headers);
        started?.interrupt();
        return new HttpResponse('ok');
      }),
    );
    serveCompletedWorkflow();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    started = startMain(
      ['listen', ...FORWARD, '--workflow', 'wf_ok', '--interval', '1ms', '--sign', 'standard-webhooks', '--pretty-body'],
      {
        WFA_BASE_URL: BASE_URL,
        WFA_API_KEY: API_KEY,
        WFA_WEBHOOK_SECRET: secret,
      },
    );
    expect((await started.finished).code).toBe(ExitCode.Interrupted);

    const body = bodies[0] ?? '';
    expect(body).toContain('\n  ');
    expect(Object.keys(JSON.parse(body))).toEqual(['data', 'workflow_id', 'event']);
    expect(JSON.parse(body)).toEqual({
      event: 'build.completed',
      workflow_id: 'wf_ok',
      data: { download_url: 'https://files.example.com/ok.zip' },
    });
    const verify = standardWebhooks({ secret });
    const signed = new Headers(headers[0]);
    expect(await verify(new TextEncoder().encode(body), signed)).toBe(true);
    // What a receiver behind express.json() would check: the same JSON, compact. It fails, as in production.
    expect(await verify(new TextEncoder().encode(JSON.stringify(JSON.parse(body))), signed)).toBe(false);
  });

  test("its output hides a credential in --forward-to's query (?token=), as wfa mock's log does; the delivery goes to the URL as given", async () => {
    const received: string[] = [];
    service.use(
      http.post('http://localhost:3000/webhooks', ({ request }) => {
        received.push(request.url);
        return new HttpResponse('ok');
      }),
    );
    serveCompletedWorkflow();
    const forwardTo = 'http://localhost:3000/webhooks?token=tokListenC3&x=1';
    const started = startMain(['listen', '--forward-to', forwardTo, '--workflow', 'wf_ok', '--interval', '1ms'], {
      WFA_BASE_URL: BASE_URL,
      WFA_API_KEY: API_KEY,
    });
    await started.waitFor(/"build_id":"bld_ok"/);
    started.interrupt();
    const result = await started.finished;

    expect(received).toEqual([forwardTo]);
    expect(result.stdout).toContain('"url":"http://localhost:3000/webhooks?token=[redacted]&x=1"');
    expect(result.stderr).toContain('-> http://localhost:3000/webhooks?token=[redacted]&x=1: 200');
    expect(result.stdout + result.stderr).not.toContain('tokListenC3');
  });

  test('a workflow that cannot be read (a 400, which is not retried) is reported once; the other workflows are still forwarded', async () => {
    const delivered = receiveDeliveries();
    let badReads = 0;
    let started: ReturnType<typeof startMain> | undefined;
    service.handle('GET', '/api/v1/workflows/wf_down', () => {
      if (++badReads === 3) started?.interrupt();
      return HttpResponse.json({ message: 'Bad request' }, { status: 400 });
    });
    serveCompletedWorkflow();
    started = startMain(['listen', ...FORWARD, '--workflow', 'wf_down', '--workflow', 'wf_ok', '--interval', '1ms'], {
      WFA_BASE_URL: BASE_URL,
      WFA_API_KEY: API_KEY,
    });
    const result = await started.finished;

    expect(result.code).toBe(ExitCode.Interrupted);
    expect(delivered).toEqual([
      { event: 'build.completed', workflow_id: 'wf_ok', data: { download_url: 'https://files.example.com/ok.zip' } },
    ]);
    expect(result.stderr.split('\n').filter((line) => line.includes('workflow wf_down could not be read'))).toHaveLength(1);
    expect(badReads).toBe(3);
  });
});
