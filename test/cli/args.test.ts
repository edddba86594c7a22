import { describe, expect, test } from 'vitest';
import { durationOption, expectPositionals, integerOption, optionName, parseCommand, splitCommand } from '../../src/cli/args.js';
import { UsageError } from '../../src/cli/errors.js';
import { runMain } from './in-process.js';

describe('durationOption', () => {
  test.each([
    ['90', 90_000],
    ['1.5', 1_500],
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    [' 2s ', 2_000],
  ])('%j is %d ms', (value, ms) => {
    expect(durationOption(value, '--timeout')).toBe(ms);
  });

  test.each(['0', '-1', 'soon', '5 minutes', '1d', ''])('%j is a usage error naming the option', (value) => {
    expect(() => durationOption(value, '--timeout')).toThrow(UsageError);
    expect(() => durationOption(value, '--timeout')).toThrow(/^--timeout must be a duration/);
  });

  test('an option not given is undefined, so the SDK default applies', () => {
    expect(durationOption(undefined, '--timeout')).toBeUndefined();
  });
});

describe('integerOption', () => {
  test('reads whole numbers of at least the minimum', () => {
    expect(integerOption('20', '--limit', 1)).toBe(20);
    expect(integerOption('0', '--port', 0)).toBe(0);
    expect(integerOption(undefined, '--limit', 1)).toBeUndefined();
  });

  test.each(['0', '1.5', '-2', 'ten', '1e3'])('%j is not a --limit', (value) => {
    expect(() => integerOption(value, '--limit', 1)).toThrow('--limit must be a whole number of at least 1');
  });
});

describe('optionName', () => {
  test.each([
    ['--bogus', '--bogus'],
    ['--bogus:value', '--bogus'],
    ['--bogus=value', '--bogus'],
    ['-zvalue', '-z'],
    ['--key', '--key'],
    ['--keySECRET', '--key…'],
    ['--api-keySECRET', '--api-key…'],
    ['--apikey=SECRET', '--apikey…'],
    ['--passwordSECRET', '--password…'],
    ['--pass-word=SECRET', '--pass…'],
    ['--pw.SECRET', '--pw…'],
    ['--tokenSECRET', '--token…'],
    ['--secretSECRET', '--secret…'],
    ['-pSECRET', '-p…'],
    ['-kSECRET', '-k…'],
    ['--wfa_live_0123456789abcdef', '--…'],
    ['--sk_live_abcdefghij0123=x', '--…'],
  ])('%j is quoted as %j: a secret-shaped option up to that word only', (arg, name) => {
    expect(optionName(arg)).toBe(name);
  });
});

describe('splitCommand', () => {
  test('the first positional is the command; options before and after it are kept', () => {
    expect(splitCommand(['--base-url', 'http://x', 'list', '--all'], ['base-url'])).toEqual({
      name: 'list',
      rest: ['--base-url', 'http://x', '--all'],
    });
    expect(splitCommand(['--base-url=http://x', 'get', 'wf_1'], ['base-url'])).toEqual({
      name: 'get',
      rest: ['--base-url=http://x', 'wf_1'],
    });
  });

  test("says which option came last before the command, since the command may be that option's value", () => {
    expect(splitCommand(['--key', 'sk_live_1', 'save'], ['base-url'])).toEqual({
      name: 'sk_live_1',
      rest: ['--key', 'save'],
      optionBefore: '--key',
    });
    expect(splitCommand(['--base-url', 'http://x', 'list'], ['base-url']).optionBefore).toBeUndefined();
    expect(splitCommand(['-psecret', 'login'], []).optionBefore).toBe('-p…');
  });

  test('no positional, no command', () => {
    expect(splitCommand(['--help'], [])).toEqual({ name: undefined, rest: ['--help'] });
  });
});

describe('parseCommand', () => {
  test('accepts the given options and --help, and refuses others as usage errors', () => {
    const { values, positionals } = parseCommand(['bld_1', '--json', '-h'], { json: { type: 'boolean' } }, 'wfa x');
    expect(values).toEqual({ json: true, help: true });
    expect(positionals).toEqual(['bld_1']);
    expect(() => parseCommand(['--nope'], {}, 'wfa x')).toThrow(UsageError);
    expect(() => parseCommand(['--nope'], {}, 'wfa x')).toThrow("unknown option '--nope'");
  });

  test.each([
    ['--token:abc-secret-1', "'--token…'"],
    ['--token=abc-secret-1', "'--token'"],
    ['--secret.abc-secret-1', "'--secret…'"],
    ['--bogus:abc-secret-1', "'--bogus'"],
    ['-zabc-secret-1', "'-z'"],
  ])('an unknown option %j is quoted up to its name only, never its value', (arg, quoted) => {
    const error = (() => {
      try {
        parseCommand([arg], {}, 'wfa x');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toBe(`unknown option ${quoted}`);
  });

  test("an option's value that looks like an option (--file --) is one line, not three with escaped newlines", () => {
    expect(() => parseCommand(['--file', '--'], { file: { type: 'string' } }, 'wfa x')).toThrow(
      /^option '--file' argument is ambiguous\. Did you forget to specify the option argument for '--file'\? To specify an option argument starting with a dash use '--file=-XYZ'\.$/,
    );
  });
});

describe('an unknown option suggests the nearest known one', () => {
  const OPTIONS = {
    timeout: { type: 'string' },
    interval: { type: 'string' },
    json: { type: 'boolean' },
    'api-key': { type: 'string' },
  } as const;
  const messageFor = (arg: string) => {
    try {
      parseCommand([arg], OPTIONS, 'wfa x');
    } catch (e) {
      return (e as Error).message;
    }
  };

  test.each([
    ['--tmeout', 'timeout'],
    ['--timeuot=5m', 'timeout'],
    ['--intervall', 'interval'],
    ['--jsno', 'json'],
    ['--api-kye', 'api-key'],
    ['--api-keywfa_live_0123456789abcdef', 'api-key'],
  ])('%j: did you mean --%s?', (arg, known) => {
    expect(messageFor(arg)).toMatch(new RegExp(`^unknown option '[^']*' \\(did you mean '--${known}'\\?\\)$`));
  });

  test.each(['--bogus', '--at', '--t', '-t', '--wfa_live_0123456789abcdef'])('%j is too far from any: no suggestion', (arg) => {
    expect(messageFor(arg)).toMatch(/^unknown option '[^']*'$/);
  });

  test('never quotes a value that looks like a secret', () => {
    for (const arg of ['--api-keywfa_live_0123456789abcdef', '--timeout0123456789abcdefgh', '--wfa_live_0123456789abcdef']) {
      expect(messageFor(arg)).not.toMatch(/0123456789/);
    }
  });

  test('wfa says so on stderr, with the usage code', async () => {
    const ran = await runMain(['wait-build', 'bld_1', '--tmeout', '5m']);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("unknown option '--tmeout' (did you mean '--timeout'?)");
  });
});

describe('expectPositionals', () => {
  test('returns exactly the named positionals, or says which is missing or extra', () => {
    expect(expectPositionals(['a'], ['id'], 'u')).toEqual(['a']);
    expect(() => expectPositionals([], ['id'], 'u')).toThrow('missing <id>');
    expect(() => expectPositionals(['a', 'b'], ['id'], 'u')).toThrow("unexpected argument 'b'");
  });
});
