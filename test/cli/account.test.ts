/**
 * `wfa login`, `wfa logout` and `wfa integrations`, in process against the msw mock: the saved key's file
 * (mode, content, use), no password or platform key in any output, and the terminal prompts through an
 * injected stdin (raw mode, no echo, Ctrl-C).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import type { Input } from '../../src/cli/context.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { main } from '../../src/cli/main.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';

const service = useService();
const EMAIL = 'ana@example.com';
const PASSWORD = 'pw-Zq81-hunter2-unique';
const PLATFORM_KEY = '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';

const root = mkdtempSync(join(tmpdir(), 'wfa-account-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
/** A fresh XDG_CONFIG_HOME for one test. */
function configHome(): string {
  dirs += 1;
  return join(root, `xdg-${dirs}`);
}

/** A terminal double: records raw-mode changes; `type()` sends keys once the prompt is on stderr. */
class FakeTerminal extends PassThrough implements Input {
  readonly isTTY = true;
  readonly modes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.modes.push(mode);
    return this;
  }
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main(args)`; `answers` maps a prompt (seen on stderr) to the keys typed at it. */
async function run(
  args: string[],
  options: { env?: Record<string, string>; stdin?: Input; answers?: Array<[string, string]> } = {},
): Promise<Ran> {
  const out = { stdout: '', stderr: '' };
  const answers = [...(options.answers ?? [])];
  const stdin = options.stdin;
  const code = await main(args, {
    env: options.env ?? {},
    stdout: { write: (text: string) => (out.stdout += text), isTTY: false },
    stderr: {
      write: (text: string) => {
        out.stderr += text;
        const next = answers[0];
        if (next && text === next[0]) {
          answers.shift();
          // Typed after the prompt, as a person would, on the next turn.
          setImmediate(() => (stdin as PassThrough).write(next[1]));
        }
      },
      isTTY: false,
    },
    signal: new AbortController().signal,
    cwd: process.cwd(),
    stdin,
  });
  return { code, ...out };
}

/** Every form a secret could leak in: as is, JSON-escaped, URL-encoded, base64 (both alphabets) and hex. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
}

function expectNoSecret(text: string, secret: string): void {
  for (const form of encodings(secret)) expect(text, `output holds the secret (${form})`).not.toContain(form);
}

const useAna = () => service.useMock({ users: [{ email: EMAIL, password: PASSWORD, apiKey: API_KEY }] });

describe('wfa login', () => {
  test('saves the issued key in $XDG_CONFIG_HOME/wfa/config.json, mode 0600 in a 0700 folder, and no password', async () => {
    useAna();
    const xdg = configHome();
    const result = await run(['login'], {
      env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: xdg, WFA_EMAIL: EMAIL, WFA_PASSWORD: PASSWORD },
    });

    expect(result.code).toBe(ExitCode.Ok);
    const file = join(xdg, 'wfa', 'config.json');
    expect(result.stdout).toBe(`${file}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(xdg, 'wfa')).mode & 0o777).toBe(0o700);
    // Written to a temporary file and renamed: nothing else is left in the folder.
    expect(readdirSync(join(xdg, 'wfa'))).toEqual(['config.json']);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    // The prefix the service answered under, found with one call, is saved with the key.
    expect(saved).toEqual({ baseUrl: BASE_URL, apiKey: expect.any(String), email: EMAIL, apiPrefix: '/api/v1' });
    expectNoSecret(readFileSync(file, 'utf8'), PASSWORD);
    expectNoSecret(result.stdout + result.stderr, PASSWORD);
    // The key is saved, not printed.
    expectNoSecret(result.stdout + result.stderr, saved['apiKey'] as string);
  });

  test('every command then uses the saved key when WFA_API_KEY is not set; WFA_API_KEY wins; logout removes it', async () => {
    useAna();
    const xdg = configHome();
    await run(['login', '--base-url', BASE_URL], { env: { XDG_CONFIG_HOME: xdg, WFA_EMAIL: EMAIL, WFA_PASSWORD: PASSWORD } });
    const { apiKey } = JSON.parse(readFileSync(join(xdg, 'wfa', 'config.json'), 'utf8')) as { apiKey: string };
    service.requests.length = 0;

    // No WFA_BASE_URL either: the saved login names its service.
    const listed = await run(['workflows', 'list'], { env: { XDG_CONFIG_HOME: xdg } });
    expect(listed.code).toBe(ExitCode.Ok);
    expect(service.single().headers['x-api-key']).toBe(apiKey);

    service.requests.length = 0;
    await run(['workflows', 'list'], { env: { XDG_CONFIG_HOME: xdg, WFA_BASE_URL: BASE_URL, WFA_API_KEY: 'wfa_env_key_wins' } });
    expect(service.single().headers['x-api-key']).toBe('wfa_env_key_wins');

    const out = await run(['logout'], { env: { XDG_CONFIG_HOME: xdg } });
    expect(out.code).toBe(ExitCode.Ok);
    expect(readdirSync(join(xdg, 'wfa'))).toEqual([]);
    const after = await run(['workflows', 'list'], { env: { XDG_CONFIG_HOME: xdg, WFA_BASE_URL: BASE_URL } });
    expect(after.code).toBe(ExitCode.Usage);
    expect(after.stderr).toMatch(/^wfa: ConfigError: No API key/);
  });

  test('remembers the prefix it confirmed: against a service under /v1 only, a later 404 is one request, not two', async () => {
    service.useMock({ prefixes: ['/v1'], users: [{ email: EMAIL, password: PASSWORD, apiKey: API_KEY }] });
    const xdg = configHome();
    const login = await run(['login', '--base-url', BASE_URL], { env: { XDG_CONFIG_HOME: xdg, WFA_EMAIL: EMAIL, WFA_PASSWORD: PASSWORD } });
    expect(login.code).toBe(ExitCode.Ok);
    expect(JSON.parse(readFileSync(join(xdg, 'wfa', 'config.json'), 'utf8'))).toMatchObject({ apiPrefix: '/v1' });
    service.requests.length = 0;

    const result = await run(['integrations', 'delete', 'int_nope'], { env: { XDG_CONFIG_HOME: xdg } });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['DELETE /v1/integrations/int_nope']);
  });

  test('--api-prefix and WFA_API_PREFIX pin the prefix: one request, under it', async () => {
    service.useMock({ prefixes: ['/v1'] });
    const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };
    const byOption = await run(['integrations', 'delete', 'int_nope', '--api-prefix', '/v1'], { env: ENV });
    const byEnv = await run(['integrations', 'delete', 'int_nope'], { env: { ...ENV, WFA_API_PREFIX: '/v1' } });

    expect([byOption.code, byEnv.code]).toEqual([ExitCode.RequestFailed, ExitCode.RequestFailed]);
    expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'DELETE /v1/integrations/int_nope',
      'DELETE /v1/integrations/int_nope',
    ]);
  });

  test('an empty WFA_API_PREFIX is unset, as an empty WFA_BASE_URL is: the prefix is detected', async () => {
    service.useMock({ prefixes: ['/v1'] });

    const result = await run(['workflows', 'list'], { env: { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY, WFA_API_PREFIX: '' } });

    expect(result.code).toBe(ExitCode.Ok);
    expect(service.requests.map(({ path }) => path)).toEqual(['/api/v1/workflows', '/v1/workflows']);
  });

  test('the saved key is never sent to another base URL', async () => {
    useAna();
    const xdg = configHome();
    await run(['login'], { env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: xdg, WFA_EMAIL: EMAIL, WFA_PASSWORD: PASSWORD } });
    service.requests.length = 0;

    const result = await run(['workflows', 'list'], { env: { XDG_CONFIG_HOME: xdg, WFA_BASE_URL: 'https://elsewhere.test' } });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain(`the key saved by \`wfa login\` is for ${BASE_URL}`);
    expect(service.requests).toEqual([]);
  });

  test.each([[['--password', PASSWORD]], [[`--password=${PASSWORD}`]], [['-p', PASSWORD]], [['--email', EMAIL, PASSWORD]]])(
    'refuses a password given as an argument (%j), without quoting it or sending anything',
    async (args) => {
      useAna();
      const xdg = configHome();
      const result = await run(['login', ...args], { env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: xdg } });

      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toMatch(/^wfa: UsageError: wfa login (never takes a password as an argument|takes no arguments)/);
      expectNoSecret(result.stdout + result.stderr, PASSWORD);
      expect(service.requests).toEqual([]);
    },
  );

  test('asks on the terminal: the email is echoed, the password is not, and raw mode is left afterwards', async () => {
    useAna();
    const xdg = configHome();
    const terminal = new FakeTerminal();
    const result = await run(['login'], {
      env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: xdg },
      stdin: terminal,
      // A typo and a backspace in the password, as typed.
      answers: [
        ['Email: ', `${EMAIL}\r`],
        ['Password: ', `${PASSWORD}x\u007f\r`],
      ],
    });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain(`Email: ${EMAIL}`);
    expectNoSecret(result.stdout + result.stderr, PASSWORD);
    expect(result.stderr).not.toContain('*');
    expect(terminal.modes).toEqual([true, false, true, false]);
    expect(service.requests.find((r) => r.path === '/v1/auth')?.body).toEqual({ email: EMAIL, password: PASSWORD });
  });

  test('Ctrl-C at the password prompt exits 130, leaves raw mode and saves nothing', async () => {
    useAna();
    const xdg = configHome();
    const terminal = new FakeTerminal();
    const result = await run(['login'], {
      env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: xdg, WFA_EMAIL: EMAIL },
      stdin: terminal,
      answers: [['Password: ', 'pw-typed\u0003']],
    });

    expect(result.code).toBe(ExitCode.Interrupted);
    expect(terminal.modes.at(-1)).toBe(false);
    expect(service.requests).toEqual([]);
    expect(() => statSync(join(xdg, 'wfa', 'config.json'))).toThrow(/ENOENT/);
  });

  test('without a terminal and without WFA_PASSWORD it says how to log in', async () => {
    const result = await run(['login'], { env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: configHome(), WFA_EMAIL: EMAIL } });
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: ConfigError: No password: set WFA_PASSWORD/);
  });

  test('a wrong password is a request error that does not quote it', async () => {
    useAna();
    const result = await run(['login'], {
      env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: configHome(), WFA_EMAIL: EMAIL, WFA_PASSWORD: 'wrong-Pw-77' },
    });
    expect(result.code).toBe(ExitCode.RequestFailed);
    expectNoSecret(result.stdout + result.stderr, 'wrong-Pw-77');
  });

  test('a service that echoes the password base64- or hex-encoded in its 401 does not get it printed', async () => {
    service.handle('POST', '/*/auth', async ({ request }) => {
      const bytes = Buffer.from(((await request.json()) as { password: string }).password);
      const message = `bad: ${bytes.toString('base64')} ${bytes.toString('base64url')} ${bytes.toString('hex')}`;
      return Response.json({ message }, { status: 401 });
    });
    const result = await run(['login'], {
      env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: configHome(), WFA_EMAIL: EMAIL, WFA_PASSWORD: PASSWORD },
    });

    expect(result.code).toBe(ExitCode.RequestFailed);
    expect(result.stderr).toContain('AuthenticationError');
    expectNoSecret(result.stdout + result.stderr, PASSWORD);
  });

  test.each(['--password:HUNTER2', '--passwordHUNTER2', '-pHUNTER2', '--pass-word=HUNTER2', '--pw.HUNTER2'])(
    'refuses a password option spelt %j without quoting it or sending anything',
    async (arg) => {
      useAna();
      const result = await run(['login', arg], { env: { WFA_BASE_URL: BASE_URL, XDG_CONFIG_HOME: configHome(), WFA_EMAIL: EMAIL } });

      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toMatch(/^wfa: UsageError: /);
      expect(result.stdout + result.stderr).not.toContain('HUNTER2');
      expect(service.requests).toEqual([]);
    },
  );
});

describe('wfa integrations', () => {
  const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };

  test('save reads the key from WFA_INTEGRATION_KEY, sends it, and prints the record with the key masked', async () => {
    service.useMock();
    const result = await run(['integrations', 'save', 'shopify', '--label', 'Main'], {
      env: { ...ENV, WFA_INTEGRATION_KEY: PLATFORM_KEY },
    });

    expect(result.code).toBe(ExitCode.Ok);
    expect(service.single().body).toEqual({ platform: 'shopify', api_key: PLATFORM_KEY, label: 'Main' });
    expect(JSON.parse(result.stdout)).toMatchObject({ platform: 'shopify', label: 'Main', api_key: expect.stringMatching(/^\*{4}/) });
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
  });

  test('save takes --api-prefix like every command that calls the service: one request, under it', async () => {
    service.useMock({ prefixes: ['/v1'] });
    const result = await run(['integrations', 'save', 'shopify', '--api-prefix', '/v1'], {
      env: { ...ENV, WFA_INTEGRATION_KEY: PLATFORM_KEY },
    });

    expect(result.code).toBe(ExitCode.Ok);
    expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /v1/integrations']);
  });

  test('save reads a piped key from stdin, and masks it even where the service echoes it back', async () => {
    service.reply('POST', '/api/v1/integrations', 201, {
      id: 'int_1',
      platform: 'shopify',
      api_key: PLATFORM_KEY,
      note: `saved ${PLATFORM_KEY}`,
    });
    const stdin = new PassThrough();
    stdin.end(`${PLATFORM_KEY}\n`);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Ok);
    expect((service.single().body as { api_key: string }).api_key).toBe(PLATFORM_KEY);
    expect(JSON.parse(result.stdout)).toEqual({ id: 'int_1', platform: 'shopify', api_key: '****b1a0', note: 'saved ****b1a0' });
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
  });

  test('save reads a key from a CRLF file: its final CRLF is removed as a final LF is', async () => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(`${PLATFORM_KEY}\r\n`);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Ok);
    expect((service.single().body as { api_key: string }).api_key).toBe(PLATFORM_KEY);
  });

  test('save asks for the key on a terminal with no echo', async () => {
    service.useMock();
    const terminal = new FakeTerminal();
    const result = await run(['integrations', 'save', 'shopify'], {
      env: ENV,
      stdin: terminal,
      answers: [['API key for shopify (not shown): ', `${PLATFORM_KEY}\r`]],
    });

    expect(result.code).toBe(ExitCode.Ok);
    expect((service.single().body as { api_key: string }).api_key).toBe(PLATFORM_KEY);
    expect(terminal.modes).toEqual([true, false]);
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
  });

  test.each([[['--key', PLATFORM_KEY]], [[`--api-key=${PLATFORM_KEY}`]], [[PLATFORM_KEY]]])(
    'save refuses the key as an argument (%j), without quoting it or sending anything',
    async (args) => {
      service.useMock();
      const result = await run(['integrations', 'save', 'shopify', ...args], { env: ENV });

      expect(result.code).toBe(ExitCode.Usage);
      expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
      expect(service.requests).toEqual([]);
    },
  );

  test.each([
    ['an escape sequence', `${PLATFORM_KEY}\u001b[2J`],
    ['a NUL', `${PLATFORM_KEY.slice(0, 8)}\u0000${PLATFORM_KEY.slice(8)}`],
    ['a carriage return inside', `${PLATFORM_KEY.slice(0, 8)}\r${PLATFORM_KEY.slice(8)}`],
    ['a second line of a CRLF file', `${PLATFORM_KEY}\r\nsecond`],
  ])('save refuses a piped key with %s, sending nothing and quoting nothing', async (_, key) => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(`${key}\n`);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(
      /^wfa: UsageError: the key has a control, format or invisible character at position \d+; nothing was saved/,
    );
    expect(result.stderr).toMatch(/^Usage: wfa integrations save /m);
    expect(service.requests).toEqual([]);
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY.slice(8));
  });

  // Only the final line break (a file's, or `echo`'s) is removed: any other space around a key is a paste gone
  // wrong, refused rather than trimmed into a key the user never checked.
  const UNSEEN_CHARACTER = 'has a control, format or invisible character at position';
  const SPACE_AT_AN_END = 'starts or ends with a space';
  test.each([
    ['a bidi override (U+202E)', `${PLATFORM_KEY.slice(0, 8)}\u202e${PLATFORM_KEY.slice(8)}`, UNSEEN_CHARACTER],
    ['a zero-width space (U+200B)', `${PLATFORM_KEY}\u200b`, UNSEEN_CHARACTER],
    ['an escape sequence', `${PLATFORM_KEY}\u001b[2J`, UNSEEN_CHARACTER],
    ['a line separator (U+2028)', `${PLATFORM_KEY}\u2028x`, UNSEEN_CHARACTER],
    ['a paragraph separator (U+2029)', `${PLATFORM_KEY}\u2029x`, UNSEEN_CHARACTER],
    ['a word joiner (U+2060)', `${PLATFORM_KEY}\u2060`, UNSEEN_CHARACTER],
    ['a soft hyphen (U+00AD)', `${PLATFORM_KEY.slice(0, 8)}\u00ad${PLATFORM_KEY.slice(8)}`, UNSEEN_CHARACTER],
    ['two line breaks at the end', `${PLATFORM_KEY}\n\n`, UNSEEN_CHARACTER],
    ['a tab at the end', `${PLATFORM_KEY}\t`, UNSEEN_CHARACTER],
    ['a Hangul filler (U+3164)', `${PLATFORM_KEY}\u3164`, UNSEEN_CHARACTER],
    ['a Hangul choseong filler (U+115F)', `${PLATFORM_KEY.slice(0, 8)}\u115f${PLATFORM_KEY.slice(8)}`, UNSEEN_CHARACTER],
    ['a Hangul jungseong filler (U+1160)', `${PLATFORM_KEY}\u1160`, UNSEEN_CHARACTER],
    ['a halfwidth Hangul filler (U+FFA0)', `${PLATFORM_KEY}\uffa0`, UNSEEN_CHARACTER],
    ['a combining grapheme joiner (U+034F)', `${PLATFORM_KEY}\u034f`, UNSEEN_CHARACTER],
    ['a variation selector (U+FE0F)', `${PLATFORM_KEY}\ufe0f`, UNSEEN_CHARACTER],
    ['a supplementary variation selector (U+E0100)', `${PLATFORM_KEY}\u{e0100}`, UNSEEN_CHARACTER],
    ['a braille blank (U+2800)', `${PLATFORM_KEY}\u2800`, UNSEEN_CHARACTER],
    ['a private-use character (U+E000)', `${PLATFORM_KEY}\ue000`, UNSEEN_CHARACTER],
    ['a supplementary private-use character (U+F0000)', `${PLATFORM_KEY}\u{f0000}`, UNSEEN_CHARACTER],
    ['a replacement character (U+FFFD)', `${PLATFORM_KEY}\ufffd`, UNSEEN_CHARACTER],
    ['a noncharacter (U+FFFF)', `${PLATFORM_KEY}\uffff`, UNSEEN_CHARACTER],
    ['trailing spaces', `${PLATFORM_KEY}   `, SPACE_AT_AN_END],
    ['a leading space', ` ${PLATFORM_KEY}`, SPACE_AT_AN_END],
    ['a no-break space at the end', `${PLATFORM_KEY}\u00a0`, SPACE_AT_AN_END],
  ])('save refuses a key with %s from every source (WFA_INTEGRATION_KEY, stdin), sending nothing', async (_, key, message) => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(`${key}\n`);
    for (const result of [
      await run(['integrations', 'save', 'shopify'], { env: { ...ENV, WFA_INTEGRATION_KEY: key } }),
      await run(['integrations', 'save', 'shopify'], { env: ENV, stdin }),
    ]) {
      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toMatch(new RegExp(`^wfa: UsageError: the key ${message}.*; nothing was saved`));
      expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY.slice(8));
    }
    expect(service.requests).toEqual([]);
  });

  test.each([
    ['a final LF', `${PLATFORM_KEY}\n`],
    ['a final CRLF', `${PLATFORM_KEY}\r\n`],
    ['no line break', PLATFORM_KEY],
  ])('save keeps a piped key whole, without %s', async (_, piped) => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(piped);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Ok);
    expect((service.single().body as { api_key: string }).api_key).toBe(PLATFORM_KEY);
  });

  test('save refuses a lone carriage return at the end (not a CRLF line end), piped or in the variable', async () => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(`${PLATFORM_KEY}\r`);
    for (const result of [
      await run(['integrations', 'save', 'shopify'], { env: { ...ENV, WFA_INTEGRATION_KEY: `${PLATFORM_KEY}\r` } }),
      await run(['integrations', 'save', 'shopify'], { env: ENV, stdin }),
    ]) {
      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toContain(
        `wfa: UsageError: the key has a control, format or invisible character at position ${PLATFORM_KEY.length + 1};`,
      );
    }
    expect(service.requests).toEqual([]);
  });

  test('save refuses a piped key that is not valid UTF-8, instead of saving U+FFFD in its place', async () => {
    service.useMock();
    const stdin = new PassThrough();
    stdin.end(Buffer.concat([Buffer.from(PLATFORM_KEY), Buffer.from([0xff, 0x0a])]));
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toMatch(/^wfa: UsageError: the key on stdin is not valid UTF-8\nUsage: wfa integrations save /);
    expect(service.requests).toEqual([]);
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY.slice(8));
  });

  test('save keeps a character split across two chunks of the pipe whole', async () => {
    service.useMock();
    const key = `${PLATFORM_KEY}é`;
    const bytes = Buffer.from(key);
    const stdin = new PassThrough();
    stdin.write(bytes.subarray(0, bytes.length - 1));
    setTimeout(() => stdin.end(bytes.subarray(bytes.length - 1)), 0);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Ok);
    expect((service.single().body as { api_key: string }).api_key).toBe(key);
  });

  test('list shows the last four characters of a key the service returns masked, so two keys can be told apart', async () => {
    service.useMock();
    for (const [platform, key] of [
      ['shopify', 'shpat_aaaaaaaaaaaaaaaa1AAA'],
      ['woocommerce', 'ck_bbbbbbbbbbbbbbbbbbbbb2BBB'],
    ]) {
      const stdin = new PassThrough();
      stdin.end(key);
      expect((await run(['integrations', 'save', platform!], { env: ENV, stdin })).code).toBe(ExitCode.Ok);
    }
    const result = await run(['integrations', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    const keys = (JSON.parse(result.stdout) as Array<{ api_key: string }>).map((item) => item.api_key);
    expect(keys.sort()).toEqual(['****1AAA', '****2BBB']);
  });

  test('list masks every credential-named field, whatever the service returns', async () => {
    service.reply('GET', '/api/v1/integrations', 200, {
      data: [{ id: 'int_1', platform: 'shopify', label: 'Main', api_key: PLATFORM_KEY, extra: { token: PLATFORM_KEY } }],
    });
    const result = await run(['integrations', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toEqual([
      { id: 'int_1', platform: 'shopify', label: 'Main', api_key: '****b1a0', extra: { token: '****b1a0' } },
    ]);
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
  });

  test("list masks by the SDK's one credential-name rule: prefixed, camelCase, bracketed names, numbers", async () => {
    service.reply('GET', '/api/v1/integrations', 200, {
      data: [
        {
          id: 'int_1',
          platform: 'shopify',
          extra: { clientSecret: PLATFORM_KEY, 'user[password]': 'pw', pin_token: 123456, tokens_used: 3 },
        },
      ],
    });
    const result = await run(['integrations', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)[0].extra).toEqual({
      clientSecret: '****b1a0',
      'user[password]': '****',
      pin_token: '****',
      tokens_used: 3,
    });
  });

  test('list hides a copy of a credential value nested deeper than the record is shown', async () => {
    const deep = (depth: number): unknown => (depth === 0 ? { api_key: PLATFORM_KEY } : { a: deep(depth - 1) });
    service.reply('GET', '/api/v1/integrations', 200, {
      data: [{ id: 'int_1', platform: 'x', label: `key ${PLATFORM_KEY}`, extra: deep(70) }],
    });
    const result = await run(['integrations', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)[0].label).toBe('key ****b1a0');
    expectNoSecret(result.stdout + result.stderr, PLATFORM_KEY);
  });

  test('list hides copies of a credential value elsewhere in the record: a number, a value with spaces', async () => {
    service.reply('GET', '/api/v1/integrations', 200, {
      data: [
        { id: 'int_1', platform: 'x', webhook_secret: 8877665544332211, note: 'secret is 8877665544332211', echo: 8877665544332211 },
        { id: 'int_2', platform: 'y', api_key: 'shpat 1111 2222 3333', note: 'uses token: shpat 1111\t2222 3333' },
      ],
    });
    const result = await run(['integrations', 'list'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).not.toMatch(/8877665544|2222/);
  });

  /** A careless service's record: the key in a nested credential field, a URL, a base64 fingerprint, a property name. */
  const echoing = (key: string) => ({
    id: 'int_1',
    platform: 'shopify',
    api_key: key,
    credentials: { live: key, old: [key] },
    callback: `https://hooks.example.com/in?k=${encodeURIComponent(key)}`,
    fingerprint: Buffer.from(key).toString('base64'),
    hex: Buffer.from(key).toString('hex').toUpperCase(),
    seen: { [key]: true },
  });
  const ODD_KEY = 'shpat_KEY/with+chars=0123456789abcdef';

  test('save hides the key wherever and however the service echoes it', async () => {
    service.handle('POST', '/api/v1/integrations', async ({ request }) =>
      Response.json(echoing(((await request.json()) as { api_key: string }).api_key), { status: 201 }),
    );
    const result = await run(['integrations', 'save', 'shopify'], { env: { ...ENV, WFA_INTEGRATION_KEY: ODD_KEY } });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ api_key: '****cdef', credentials: { live: '****cdef', old: ['****cdef'] } });
    expectNoSecret(result.stdout + result.stderr, ODD_KEY);
  });

  test('save hides the key inside a longer base64 value the service echoes (an HTTP Basic header it built)', async () => {
    service.handle('POST', '/api/v1/integrations', async ({ request }) => {
      const { api_key } = (await request.json()) as { api_key: string };
      const basic = Buffer.from(`shop:${api_key}`).toString('base64');
      return Response.json(
        { id: 'int_1', platform: 'shopify', api_key: '****', meta: { authorization: `Basic ${basic}` } },
        { status: 201 },
      );
    });
    const stdin = new PassThrough();
    stdin.end(`${PLATFORM_KEY}\n`);
    const result = await run(['integrations', 'save', 'shopify'], { env: ENV, stdin });

    expect(result.code).toBe(ExitCode.Ok);
    const decoded = Buffer.from((JSON.parse(result.stdout) as { meta: { authorization: string } }).meta.authorization.slice(6), 'base64');
    expect(decoded.toString('latin1')).not.toContain(PLATFORM_KEY.slice(-12));
  });

  test('list hides a key found in a credential-named field wherever else the record holds it', async () => {
    service.reply('GET', '/api/v1/integrations', 200, { data: [echoing(ODD_KEY)] });
    const result = await run(['integrations', 'list'], { env: ENV });
    const all = await run(['integrations', 'list', '--all'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(all.stdout));
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ id: 'int_1', api_key: '****cdef', credentials: { live: '****cdef' } });
    expectNoSecret(result.stdout + result.stderr, ODD_KEY);
  });

  test.each(['--key:SHPAT_SECRET', '--apikey:SHPAT_SECRET', '--api-keySHPAT_SECRET', '--keySHPAT_SECRET', '-kSHPAT_SECRET'])(
    'save refuses a key option spelt %j without quoting it',
    async (arg) => {
      service.useMock();
      const result = await run(['integrations', 'save', 'shopify', arg], { env: ENV });

      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stdout + result.stderr).not.toContain('SHPAT_SECRET');
      expect(service.requests).toEqual([]);
    },
  );

  test('delete removes a saved key', async () => {
    service.useMock();
    await run(['integrations', 'save', 'shopify'], { env: { ...ENV, WFA_INTEGRATION_KEY: PLATFORM_KEY } });
    const [saved] = JSON.parse((await run(['integrations', 'list'], { env: ENV })).stdout) as Array<{ id: string }>;

    const result = await run(['integrations', 'delete', saved!.id], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toEqual({ id: saved!.id, deleted: true });
    expect(JSON.parse((await run(['integrations', 'list'], { env: ENV })).stdout)).toEqual([]);
  });
});
