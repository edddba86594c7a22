import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, describe, expect, test } from 'vitest';
import { CONNECTION_HELP } from '../../src/cli/config.js';
import { EXIT_CODES_HELP, ExitCode } from '../../src/cli/exit-codes.js';
import { COMMANDS } from '../../src/cli/main.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';
import { runMain } from './in-process.js';
import { ROOT, runCli } from './process.js';

const service = useService();
const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('configuration', () => {
  test('with neither an API key nor a base URL, it exits 1 and says how to set both', async () => {
    const result = await runCli(['workflows', 'list']);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^wfa: ConfigError: No API key and no base URL/);
    for (const hint of ['--api-key', '--base-url', 'WFA_API_KEY', 'WFA_BASE_URL', 'wfa mock']) expect(result.stderr).toContain(hint);
  });

  test('with a base URL but no key, it names the key', async () => {
    const result = await runCli(['builds', 'get', 'bld_1'], { env: { WFA_BASE_URL: 'http://127.0.0.1:9' } });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: ConfigError: No API key: pass --api-key <key> or set WFA_API_KEY/);
  });

  test('with a key but no base URL, it names the base URL', async () => {
    const result = await runCli(['builds', 'get', 'bld_1'], { env: { WFA_API_KEY: 'k' } });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: ConfigError: No base URL: pass --base-url <url> or set WFA_BASE_URL/);
  });

  test('--api-key and --base-url work in place of the variables, before or after the command', async () => {
    service.useMock();
    const flags = ['--base-url', BASE_URL, '--api-key', API_KEY];

    const after = await runCli(['orders', 'list', ...flags]);
    const before = await runCli([...flags, 'orders', 'list']);

    expect(after.code).toBe(ExitCode.Ok);
    expect(before.code).toBe(ExitCode.Ok);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });

  test('the options win over the variables', async () => {
    service.useMock();

    const result = await runCli(['orders', 'list', '--api-key', API_KEY], { env: { ...ENV, WFA_API_KEY: 'wfa_wrong' } });

    expect(result.code).toBe(ExitCode.Ok);
  });

  test('a refused key exits 2 with AuthenticationError, and the key is printed nowhere', async () => {
    service.useMock();
    const key = 'wfa_secret_key_3b9d7c1f0e2a';

    const result = await runCli(['orders', 'list'], { env: { WFA_BASE_URL: BASE_URL, WFA_API_KEY: key } });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stderr).toMatch(/^wfa: AuthenticationError: 401 /);
    expect(result.stdout + result.stderr).not.toContain(key);
  });

  test('an unreachable service exits 2 with ConnectionError, after its retries', async () => {
    // Every connection fails; the retries' backoff passes on the fake clock. A real refused port: test/integration/cli.
    service.use(http.all(`${BASE_URL}/*`, () => HttpResponse.error()));
    fakeClockInThisTest();

    const settled = await settle(runCli(['builds', 'get', 'bld_1'], { env: ENV }));

    expect(settled).toMatchObject({
      ok: true,
      value: { code: ExitCode.RequestFailed, stderr: expect.stringMatching(/^wfa: ConnectionError: /) },
    });
    expect(service.requests, 'one attempt and the default two retries').toHaveLength(3);
  });

  test.each([
    [['--base-url', 'localhost:4010'], '--base-url (or WFA_BASE_URL) must be an absolute http or https URL'],
    [['--base-url', 'http://user:hunter2@example.com/'], '--base-url (or WFA_BASE_URL) must not contain user:password@'],
    [['--api-prefix', 'nope'], '--api-prefix (or WFA_API_PREFIX) must start with "/"'],
    [['--api-prefix', '/v1?x'], '--api-prefix (or WFA_API_PREFIX) must be path segments only'],
    [['--api-prefix', '/../x'], '--api-prefix (or WFA_API_PREFIX) must not contain "." or ".." segments'],
    [['--api-prefix', ''], '--api-prefix is empty'],
  ])('%j is a usage error naming the flag, with the usage line, on any command; nothing is sent', async (option, message) => {
    service.useMock();
    for (const command of [['workflows', 'list'], ['doctor']]) {
      const result = await runMain([...command, ...option], ENV);

      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr.startsWith(`wfa: UsageError: ${message}`)).toBe(true);
      expect(result.stderr).toMatch(new RegExp(`\nUsage: wfa ${command.join(' ')} .*\nRun with --help for details.\n$`));
      expect(result.stderr).not.toMatch(/hunter2|apiPrefix|baseUrl/);
    }
    expect(service.requests).toEqual([]);
  });
});

describe('help and version', () => {
  test.each([
    [['--help'], 'Usage: wfa <command> [options]'],
    [['-h'], 'Usage: wfa <command> [options]'],
    [['help'], 'Usage: wfa <command> [options]'],
    [['help', 'wait-build'], 'Usage: wfa wait-build <build_id> [options]'],
    [['wait-build', '--help'], 'Usage: wfa wait-build <build_id> [options]'],
    [['workflows', '--help'], 'Usage: wfa workflows <list|get|delete|create> [options]'],
    [['workflows', 'list', '--help'], 'Usage: wfa workflows list'],
    [['workflows', 'get', '--help'], 'Usage: wfa workflows get <workflow_id>'],
    [['workflows', 'create', '--help'], 'Usage: wfa workflows create --file <workflow.json> [--wait]'],
    [['builds', '--help'], 'Usage: wfa builds <get|download> [options]'],
    [['builds', 'download', '--help'], 'Usage: wfa builds download <build_id> [-o file]'],
    [['builds', 'get', '--help'], 'Usage: wfa builds get <build_id>'],
    [['orders', '--help'], 'Usage: wfa orders <list|get> [options]'],
    [['orders', 'list', '-h'], 'Usage: wfa orders list'],
    [['orders', 'get', '--help'], 'Usage: wfa orders get <order_id>'],
    [['mock', '--help'], 'Usage: wfa mock'],
  ])('wfa %j prints help on stdout and exits 0, with no configuration needed', async (args, usage) => {
    const result = await runMain(args);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout.startsWith(usage)).toBe(true);
    expect(result.stderr).toBe('');
  });

  test('as a process, --help exits 0 with the help on stdout', async () => {
    const result = await runCli(['workflows', 'create', '--help']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toMatch(/^Usage: wfa workflows create --file/);
    expect(result.stderr).toBe('');
  });

  test('the top-level help lists every command, the connection options and the exit codes', async () => {
    const { stdout } = await runMain(['--help']);

    for (const command of ['wait-build', 'workflows', 'builds', 'orders', 'mock'])
      expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(stdout).toContain(EXIT_CODES_HELP);
    expect(stdout).toContain(CONNECTION_HELP);
  });

  test('every command that takes --base-url takes --api-prefix too', async () => {
    const leaves = COMMANDS.flatMap((command) => {
      const subcommands = /^Usage: wfa \S+ <([a-z|-]+)>/.exec(command.help)?.[1];
      return subcommands ? subcommands.split('|').map((sub) => [command.name, sub]) : [[command.name]];
    });
    const refused: string[] = [];
    let checked = 0;
    for (const args of leaves) {
      if (!(await runMain([...args, '--help'])).stdout.includes('--base-url')) continue;
      checked += 1;
      const result = await runMain([...args, '--api-prefix', '/v1', '--help']);
      if (result.code !== ExitCode.Ok) refused.push(`${args.join(' ')}: ${result.stderr.split('\n', 1)[0]}`);
    }

    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  test('wait-build --help documents every exit code', async () => {
    const { stdout } = await runMain(['wait-build', '--help']);

    for (const code of Object.values(ExitCode)) expect(stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });

  test('--version prints the package version', async () => {
    const result = await runCli(['--version']);

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toBe(`${version}\n`);
  });
});

describe('usage errors', () => {
  test.each([
    [[], 'no command given'],
    [['--api-key', 'wfa_secret_0d1e'], 'no command given'],
    [['deploy'], "unknown command 'deploy'"],
    [['workflows'], 'wfa workflows needs a command: list, get, delete, create'],
    [['workflows', 'remove'], "unknown command 'workflows remove'"],
    [['workflows', 'get'], 'missing <workflow_id>'],
    [['orders', 'list', '--colour'], "unknown option '--colour'"],
    [['mock', '--bogus'], "unknown option '--bogus'"],
    [['orders', 'get', 'a', 'b'], "unexpected argument 'b'"],
  ])('wfa %j exits 1 with the problem and the usage on stderr', async (args, message) => {
    const result = await runMain(args);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`wfa: UsageError: ${message}`);
    expect(result.stderr).toMatch(/^Usage: wfa /m);
    expect(result.stderr).not.toContain('wfa_secret');
  });

  // An option wfa does not know, before the command, may have been meant to take the next argument: a key or a
  // password. That argument is then never quoted, whatever the option and wherever it is.
  test.each([
    [['--key', 'sk_live_SECRET_0d1e', 'integrations', 'save', 'shopify'], "the argument after '--key' is not a command"],
    [['integrations', '--key', 'sk_live_SECRET_0d1e', 'save', 'shopify'], "the argument after '--key' is not a command"],
    [['--password', 'hunter2_SECRET_0d1e', 'login'], "the argument after '--password' is not a command"],
    [['-p', 'hunter2_SECRET_0d1e', 'login'], "the argument after '-p' is not a command"],
    [['--token=x', 'SECRET_0d1e', 'workflows', 'list'], "the argument after '--token…' is not a command"],
    [['--verbose', 'SECRET_0d1e'], "the argument after '--verbose' is not a command"],
    [['help', '--key', 'sk_live_SECRET_0d1e'], "the argument after '--key' is not a command"],
    [['--keySECRET_0d1e', 'frobnicate'], "the argument after '--key…' is not a command"],
    [['workflows', 'list', '--api-keySECRET_0d1e'], "unknown option '--api-key…'"],
    [['orders', 'get', 'ord_1', '--passwordSECRET_0d1e'], "unknown option '--password…'"],
    [['orders', 'get', 'ord_1', '-pSECRET_0d1e'], "unknown option '-p'"],
  ])('wfa %j names the option and never quotes the argument that may be its value', async (args, message) => {
    const result = await runMain(args);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain(`wfa: UsageError: ${message}`);
    expect(result.stderr).not.toContain('SECRET');
  });

  // Every value wfa reads itself, in every command that takes it: each is a usage error with the command's usage.
  const files = mkdtempSync(join(tmpdir(), 'wfa-usage-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  const file = (name: string, content: string | Uint8Array) => {
    writeFileSync(join(files, name), content);
    return join(files, name);
  };
  test.each([
    [['workflows', 'list', '--limit', 'abc'], '--limit must be', 'wfa workflows list '],
    [['workflows', 'list', '--limit', '0'], '--limit must be', 'wfa workflows list '],
    [['orders', 'list', '--limit', '1e3'], '--limit must be', 'wfa orders list '],
    [['integrations', 'list', '--page', 'two'], '--page must be', 'wfa integrations list '],
    [['wait-build', 'bld_1', '--timeout', 'soon'], '--timeout must be', 'wfa wait-build '],
    [['wait-build', 'bld_1', '--interval', '0'], '--interval must be', 'wfa wait-build '],
    [['builds', 'download', 'bld_1', '--wait', '--timeout', '0s'], '--timeout must be', 'wfa builds download '],
    [['builds', 'download', 'bld_1', '--timeout', 'soon'], '--timeout and --interval only apply with --wait', 'wfa builds download '],
    [['builds', 'download', 'bld_1', '--timeout', '0'], '--timeout and --interval only apply with --wait', 'wfa builds download '],
    [['builds', 'download', 'bld_1', '--interval', '5s'], '--timeout and --interval only apply with --wait', 'wfa builds download '],
    [
      ['workflows', 'create', '--file', 'x.json', '--timeout', 'soon'],
      '--timeout and --interval only apply with --wait',
      'wfa workflows create ',
    ],
    [['workflows', 'create', '--file', 'x.json', '--wait', '--interval', 'often'], '--interval must be', 'wfa workflows create '],
    [['listen', '--forward-to', 'http://127.0.0.1:9/', '--interval', '1y'], '--interval must be', 'wfa listen '],
    [['mock', '--port', 'http'], '--port must be', 'wfa mock'],
    [['mock', '--build-ms', '1.5'], '--build-ms must be', 'wfa mock'],
    [['workflows', 'create', '--file', file('invalid.json', '{"name": ')], 'is not valid JSON', 'wfa workflows create '],
    [['workflows', 'create', '--file', file('empty.json', '')], 'is not valid JSON', 'wfa workflows create '],
    [
      ['workflows', 'create', '--file', file('binary.bin', new Uint8Array([0, 159, 146, 150, 255]))],
      'is not valid UTF-8',
      'wfa workflows create ',
    ],
  ])('wfa %j is a usage error followed by the usage line and the hint', async (args, message, usage) => {
    const result = await runMain(args, ENV);

    expect(result.code).toBe(ExitCode.Usage);
    const [first, ...rest] = result.stderr.split('\n');
    expect(first).toMatch(/^wfa: UsageError: /);
    expect(first).toContain(message);
    expect(rest[0]).toMatch(new RegExp(`^Usage: ${usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(rest[1]).toBe('Run with --help for details.');
  });

  // The SDK's own check of an argument, before any request: the command line's fault, so the usage follows too.
  test.each([
    [
      'an empty workflow id',
      ['workflows', 'get', ''],
      'wfa: ValidationError: Invalid workflow: id: must be a non-empty string',
      'wfa workflows get ',
    ],
    [
      'an order id of 2000 characters',
      ['orders', 'get', 'o'.repeat(2000)],
      'wfa: ValidationError: Invalid order: id: is 2000 characters long',
      'wfa orders get ',
    ],
    ['an empty id to delete', ['workflows', 'delete', ''], 'wfa: ValidationError: Invalid workflow: id:', 'wfa workflows delete '],
  ])('%s: the SDK refuses it before any request, and the usage line follows', async (_label, args, message, usage) => {
    const result = await runMain(args, { WFA_BASE_URL: 'http://127.0.0.1:9', WFA_API_KEY: API_KEY });

    expect(result.code).toBe(ExitCode.Usage);
    const [first, ...rest] = result.stderr.split('\n');
    expect(first).toContain(message);
    expect(rest[0]).toMatch(new RegExp(`^Usage: ${usage}`));
    expect(rest[1]).toBe('Run with --help for details.');
  });

  test('as a process, a usage error exits 1 with the message on stderr', async () => {
    const result = await runCli(['orders', 'get']);

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('wfa: UsageError: missing <order_id>\nUsage: wfa orders get <order_id>\nRun with --help for details.\n');
  });
});
