import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { http, HttpResponse } from 'msw';
import { afterAll, describe, expect, test } from 'vitest';
import { Client } from '../../src/index.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { ENDPOINTS, type Endpoint } from '../../src/resources/endpoints.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';
import { runMain } from './in-process.js';
import { runCli, type Finished } from './process.js';

const service = useService();
const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };

const WORKFLOW = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

const dir = mkdtempSync(join(tmpdir(), 'wfa-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Creates workflows on the mock; returns their ids newest first, the order the service lists them in. */
async function createWorkflows(count: number): Promise<string[]> {
  const client = new Client({ baseUrl: BASE_URL, apiKey: API_KEY });
  const ids: string[] = [];
  for (let i = 1; i <= count; i += 1) ids.unshift((await client.workflows.create({ ...WORKFLOW, name: `Workflow ${i}` })).id);
  return ids;
}

/** Runs `wfa args` in process on the fake clock, which moves on whenever it waits. */
async function waited(args: readonly string[]): Promise<Finished> {
  fakeClockInThisTest();
  const settled = await settle(runCli(args, { env: ENV }));
  if (!settled.ok) throw settled.error;
  return settled.value;
}

function parse(stdout: string): unknown {
  return JSON.parse(stdout) as unknown;
}

describe('wfa workflows list', () => {
  test('prints the first page of workflows as a JSON array', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const ids = await createWorkflows(3);

    const result = await runCli(['workflows', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toEqual(ids.map((id) => expect.objectContaining({ id, status: 'building' })));
  });

  test('--limit and --page pick one page; --all prints every item of every page', async () => {
    service.useMock();
    const ids = await createWorkflows(3);

    const second = await runCli(['workflows', 'list', '--limit', '2', '--page', '2'], { env: ENV });
    const all = await runCli(['workflows', 'list', '--limit', '2', '--all'], { env: ENV });

    expect(parse(second.stdout)).toEqual([expect.objectContaining({ id: ids[2] })]);
    expect(parse(all.stdout)).toEqual(ids.map((id) => expect.objectContaining({ id })));
  });

  test('--status filters', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    await createWorkflows(1);

    const active = await runCli(['workflows', 'list', '--status', 'active'], { env: ENV });

    expect(active.code).toBe(ExitCode.Ok);
    expect(parse(active.stdout)).toEqual([]);
  });

  test('an empty --status is a usage error naming --status, with the usage line; nothing is sent', async () => {
    service.useMock();

    const result = await runMain(['workflows', 'list', '--status', ''], ENV);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(
      /^wfa: UsageError: --status must not be empty\nUsage: wfa workflows list .*\nRun with --help for details\.\n$/,
    );
    expect(service.requests).toEqual([]);
  });

  test('a --limit that is not a positive whole number is a usage error', async () => {
    const result = await runCli(['workflows', 'list', '--limit', '0'], { env: { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: 'k' } });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('wfa: UsageError: --limit must be a whole number of at least 1, got "0"');
  });
});

describe('wfa workflows get', () => {
  test('prints the workflow as JSON', async () => {
    service.useMock();
    const [id] = await createWorkflows(1);

    const result = await runCli(['workflows', 'get', id ?? ''], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toMatchObject({ id, name: 'Workflow 1', platform: 'zapier' });
  });

  test('exits 2 with NotFoundError for an unknown id', async () => {
    service.useMock();

    const result = await runCli(['workflows', 'get', 'wf_missing'], { env: ENV });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^wfa: NotFoundError: 404 No workflow with id wf_missing/);
  });
});

describe("the service's text on the terminal", () => {
  test('control characters in an error message are printed escaped, never sent to the terminal', async () => {
    service.use(
      http.get(`${BASE_URL}/*/workflows/:id`, () =>
        HttpResponse.json(
          { error: { message: 'No such workflow\u001b[2J\u001b[H\u0007wfa: all good\u202e\u3164', code: 'not_found' } },
          { status: 404 },
        ),
      ),
    );

    const result = await runCli(['workflows', 'get', 'wf_1'], { env: ENV });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stderr).toContain('No such workflow\\u001b[2J\\u001b[H\\u0007wfa: all good\\u202e\\u3164');
    for (const raw of ['\u0007', '\u001b', '\u202e', '\u3164']) expect(result.stderr).not.toContain(raw);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  test("a build's status with an escape sequence is escaped in the progress lines", async () => {
    let polls = 0;
    service.use(
      http.get(`${BASE_URL}/api/v1/builds/:id`, ({ params }) => {
        polls += 1;
        const status = polls < 2 ? 'building\u001b[2J' : 'completed';
        return HttpResponse.json({ id: params['id'], status, progress: 50, download_url: 'https://cdn.example.com/b.zip' });
      }),
    );

    const result = await waited(['wait-build', 'bld_1', '--interval', '1s']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain('bld_1: building\\u001b[2J 50%');
    expect(result.stderr).not.toContain('\u001b');
  });
});

describe("the service's text on stdout", () => {
  // Each one would move the cursor, set the title, reorder or hide text, or break a line on a terminal.
  const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007|\u009b31m\u0085|\u202eevil\u2028line\u2029|\u007f|\u200b\u00ad\u2060\u{e0001}';
  const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  const rawIn = (text: string) => RAW.test(text.replaceAll('\n', ''));

  test('a download URL printed by wait-build is escaped, not obeyed', async () => {
    service.use(
      http.get(`${BASE_URL}/api/v1/builds/:id`, ({ params }) =>
        HttpResponse.json({
          id: params['id'],
          status: 'completed',
          progress: 100,
          download_url: `https://cdn.example.com/a${HOSTILE}.zip`,
        }),
      ),
    );

    const result = await runCli(['wait-build', 'bld_1'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toBe(
      'https://cdn.example.com/a\\u001b[2J\\u001b]0;pwned\\u0007|\\u009b31m\\u0085|\\u202eevil\\u2028line\\u2029|\\u007f|\\u200b\\u00ad\\u2060\\udb40\\udc01.zip\n',
    );
  });

  test('JSON output escapes them as \\u sequences, so it still parses to what the service sent', async () => {
    service.use(
      http.get(`${BASE_URL}/api/v1/workflows/:id`, ({ params }) =>
        HttpResponse.json({ ...WORKFLOW, id: params['id'], name: HOSTILE, status: 'active', created_at: '2026-01-01T00:00:00Z' }),
      ),
    );

    const result = await runCli(['workflows', 'get', 'wf_1'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(rawIn(result.stdout)).toBe(false);
    expect(parse(result.stdout)).toMatchObject({ name: HOSTILE });
  });

  test('a format character in an error message is escaped on stderr too', async () => {
    service.use(
      http.get(`${BASE_URL}/*/workflows/:id`, () =>
        HttpResponse.json({ error: { message: `gone${HOSTILE}`, code: 'not_found' } }, { status: 404 }),
      ),
    );

    const result = await runCli(['workflows', 'get', 'wf_1'], { env: ENV });

    expect(result.stderr).toContain('gone\\u001b[2J');
    expect(rawIn(result.stderr)).toBe(false);
  });
});

describe('wfa workflows create', () => {
  test('--file creates the workflow and prints it', async () => {
    service.useMock();
    const path = file('workflow.json', JSON.stringify(WORKFLOW));

    const result = await runCli(['workflows', 'create', '--file', path], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toMatchObject({ name: WORKFLOW.name, status: 'building', build_id: expect.stringMatching(/^bld_/) });
  });

  test('--wait shows progress on stderr and prints the workflow with its completed build', async () => {
    service.useMock({ buildDurationMs: 300 });
    const path = file('wait.json', JSON.stringify(WORKFLOW));

    const result = await waited(['workflows', 'create', '--file', path, '--wait', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.Ok);
    const { workflow, build } = parse(result.stdout) as {
      workflow: { id: string; build_id: string };
      build: { id: string; download_url: string };
    };
    expect(build).toMatchObject({
      id: workflow.build_id,
      status: 'completed',
      download_url: `${BASE_URL}/downloads/${workflow.build_id}.zip`,
    });
    expect(result.stderr).toMatch(new RegExp(`^created ${workflow.id} \\(build ${workflow.build_id}\\)\n`));
    // Each progress line names the build, as `wfa wait-build` does: parallel runs in one log can be told apart.
    const progress = result.stderr.split('\n').slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line.startsWith(`${workflow.build_id}: `)).toBe(true);
    expect(result.stderr).toMatch(new RegExp(`${workflow.build_id}: completed 100%\n$`));
  });

  test('--wait exits 3 when the build fails, and still prints the workflow with its failed build', async () => {
    service.useMock({ buildDurationMs: 100, failBuilds: true });
    const path = file('fails.json', JSON.stringify(WORKFLOW));

    const result = await waited(['workflows', 'create', '--file', path, '--wait', '--interval', '100ms']);

    expect(result.code).toBe(ExitCode.BuildFailed);
    expect(result.stderr).toContain('wfa: BuildFailedError');
    const { workflow, build } = parse(result.stdout) as { workflow: { build_id: string }; build: { id: string; status: string } };
    expect(build).toMatchObject({ id: workflow.build_id, status: 'failed' });
  });

  test('--file - reads the workflow from stdin', async () => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(JSON.stringify(WORKFLOW));

    const result = await runMain(['workflows', 'create', '--file', '-'], ENV, stdin);

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toMatchObject({ name: WORKFLOW.name, build_id: expect.stringMatching(/^bld_/) });
  });

  test('a UTF-8 BOM before the JSON, as some editors write it, is accepted (in a file and on stdin)', async () => {
    service.useMock();
    const path = file('bom.json', `\uFEFF${JSON.stringify(WORKFLOW)}`);
    const stdin = new PassThrough();
    stdin.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(WORKFLOW))]));

    const fromFile = await runCli(['workflows', 'create', '--file', path], { env: ENV });
    const fromStdin = await runMain(['workflows', 'create', '--file', '-'], ENV, stdin);

    expect([fromFile.code, fromStdin.code]).toEqual([ExitCode.Ok, ExitCode.Ok]);
    expect(parse(fromStdin.stdout)).toMatchObject({ name: WORKFLOW.name });
  });

  test.each([
    ['an overlong encoding', [0xc0, 0xaf]],
    ['a UTF-16 surrogate written as UTF-8 (CESU)', [0xed, 0xa0, 0x80]],
  ])('a workflow with %s is not valid UTF-8, in a file as on stdin: a usage error, and nothing is sent', async (_, bytes) => {
    service.useMock();
    const [before, after] = JSON.stringify({ ...WORKFLOW, name: '@' }).split('@');
    const content = Buffer.concat([Buffer.from(before!), Buffer.from(bytes), Buffer.from(after!)]);
    const path = file('not-utf8.json', content);
    const stdin = new PassThrough();
    stdin.end(content);

    const fromFile = await runMain(['workflows', 'create', '--file', path], ENV);
    const fromStdin = await runMain(['workflows', 'create', '--file', '-'], ENV, stdin);

    expect([fromFile.code, fromStdin.code]).toEqual([ExitCode.Usage, ExitCode.Usage]);
    expect(fromFile.stderr).toMatch(/^wfa: UsageError: --file: .*not-utf8\.json is not valid UTF-8\nUsage: wfa workflows create /);
    expect(fromStdin.stderr).toMatch(/^wfa: UsageError: the workflow on stdin is not valid UTF-8\nUsage: wfa workflows create /);
    expect(parse((await runMain(['workflows', 'list'], ENV)).stdout)).toEqual([]);
  });

  test('a workflow over 16 MiB is a usage error with the usage line, in a file as on stdin; nothing is sent', async () => {
    service.useMock();
    const content = Buffer.alloc(16 * 1024 * 1024 + 1, ' ');
    const path = file('huge.json', content);
    const stdin = new PassThrough();
    stdin.end(content);

    const fromFile = await runMain(['workflows', 'create', '--file', path], ENV);
    const fromStdin = await runMain(['workflows', 'create', '--file', '-'], ENV, stdin);

    expect([fromFile.code, fromStdin.code]).toEqual([ExitCode.Usage, ExitCode.Usage]);
    expect(fromFile.stderr).toMatch(/^wfa: UsageError: --file: .*huge\.json is longer than 16777216 bytes\nUsage: wfa workflows create /);
    expect(fromStdin.stderr).toMatch(/^wfa: UsageError: the workflow on stdin is longer than 16777216 bytes\nUsage: wfa workflows create /);
    expect(parse((await runMain(['workflows', 'list'], ENV)).stdout)).toEqual([]);
  });

  test('a file that is not JSON is a usage error, and nothing is sent', async () => {
    service.useMock();
    const path = file('broken.json', '{ "name": ');

    const result = await runCli(['workflows', 'create', '--file', path], { env: ENV });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: UsageError: .*broken\.json is not valid JSON/);
    expect(parse((await runCli(['workflows', 'list'], { env: ENV })).stdout)).toEqual([]);
  });

  test.each([
    [
      'a file that is not a workflow',
      () => file('array.json', '[1,2]'),
      /--file: .*array\.json: Invalid input to workflows\.create: \(root\): must be an object/,
    ],
    ['missing fields', () => file('name-only.json', '{"name":"x"}'), /--file: .*name-only\.json: .*platform: is required/],
    [
      'a field the SDK refuses',
      () => file('bad-url.json', JSON.stringify({ ...WORKFLOW, trigger: { type: 'webhook', url: 'not a url' } })),
      /--file: .*bad-url\.json: .*trigger\.url/,
    ],
    ['a missing file', () => join(dir, 'nope.json'), /--file: cannot read ".*nope\.json": no such file/],
    ['a directory', () => dir, /--file: cannot read ".*": it is a directory/],
  ])('%s is a usage error naming --file (and the field), with the usage line; nothing is sent', async (_, path, message) => {
    service.useMock();

    const result = await runMain(['workflows', 'create', '--file', path()], ENV);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(new RegExp(`^wfa: UsageError: ${message.source}`));
    expect(result.stderr).toMatch(/\nUsage: wfa workflows create --file .*\nRun with --help for details\.\n$/);
    expect(service.requests).toEqual([]);
  });

  test('without --file it says what is missing', async () => {
    const result = await runCli(['workflows', 'create'], { env: { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: 'k' } });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('wfa: UsageError: missing --file <workflow.json>');
  });
});

describe('wfa builds get', () => {
  test("prints the build's current state as JSON", async () => {
    service.useMock({ buildDurationMs: 60_000 });
    const client = new Client({ baseUrl: BASE_URL, apiKey: API_KEY });
    const { build_id: buildId } = await client.workflows.create(WORKFLOW);

    const result = await runCli(['builds', 'get', buildId ?? ''], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toMatchObject({ id: buildId, status: 'building', progress: expect.any(Number) });
  });
});

describe('wfa orders', () => {
  test('list --all prints every seeded order; get prints one', async () => {
    service.useMock({ ordersPerUser: 5 });

    const list = await runCli(['orders', 'list', '--all', '--limit', '2'], { env: ENV });
    const orders = parse(list.stdout) as { id: string }[];
    const one = await runCli(['orders', 'get', orders[0]?.id ?? ''], { env: ENV });

    expect(list.code).toBe(ExitCode.Ok);
    expect(orders).toHaveLength(5);
    expect(one.code).toBe(ExitCode.Ok);
    expect(parse(one.stdout)).toEqual(orders[0]);
  });

  test('list --status filters', async () => {
    service.useMock({ ordersPerUser: 5 });

    const result = await runCli(['orders', 'list', '--status', 'paid'], { env: ENV });

    expect(parse(result.stdout)).toEqual([expect.objectContaining({ status: 'paid' })]);
  });
});

describe('the plain commands, from the endpoint table', () => {
  // Every endpoint without a body is a command: `wfa <resource> list`, or `wfa <resource> <verb> <id>`.
  const PLAIN = Object.entries(ENDPOINTS as Record<string, Endpoint>).filter(([, endpoint]) => !endpoint.body);

  test.each(PLAIN)('wfa %s has a command', async (name, endpoint) => {
    const [resource = '', verb = ''] = name.split('.');
    const result = await runCli([resource, verb, '--help']);

    expect(result.code).toBe(ExitCode.Ok);
    const id = endpoint.path.includes('{id}') ? ` <${endpoint.noun}_id>` : '';
    expect(result.stdout).toMatch(new RegExp(`^Usage: wfa ${resource} ${verb}${id.replace(/[<>]/g, '.')}`));
  });

  test('wfa workflows delete deletes the workflow and prints {"id": …, "deleted": true}', async () => {
    service.useMock();
    const [id = ''] = await createWorkflows(1);

    const result = await runCli(['workflows', 'delete', id], { env: ENV });
    const again = await runCli(['workflows', 'get', id], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(parse(result.stdout)).toEqual({ id, deleted: true });
    expect(again.stderr).toMatch(/^wfa: NotFoundError: 404/);
  });
});
