/**
 * Reading a command line with `node:util` `parseArgs`, and turning option strings into numbers, with
 * errors that name the option and say what it takes.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

type Parsed<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof HELP_OPTION; allowPositionals: true; strict: true }>
>;

/**
 * Parses a command's arguments strictly (an unknown option is a {@link UsageError}); `--help`/`-h` is
 * always accepted.
 */
export function parseCommand<const O extends OptionsConfig>(args: readonly string[], options: O, usage: string): Parsed<O> {
  try {
    return parseArgs({ args: [...args], options: { ...options, ...HELP_OPTION }, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs' messages are good ("Unknown option '--x'"); its hint about '--' is not useful here, and wfa's
    // own messages start in lower case ("unknown command 'x'").
    // Its message for a value that looks like an option (`--file --`) has line breaks: one line here.
    const text =
      error instanceof Error
        ? error.message.replace(/\. To specify a positional argument.*$/s, '').replace(/\s*\n\s*/g, ' ')
        : String(error);
    const named = text.replace(/^(Unknown option ')([^']*)'/, (_, head: string, option: string) => {
      const quoted = optionName(option);
      const nearest = nearestOption(quoted, Object.keys(options));
      return `${head}${quoted}'${nearest ? ` (did you mean '--${nearest}'?)` : ''}`;
    });
    const message = named.charAt(0).toLowerCase() + named.slice(1);
    throw new UsageError(message, usage);
  }
}

// Options that may carry a key or a password glued on (`--api-keySECRET`, `-pSECRET`): quoted up to that word.
const SECRET_OPTION = /^(?:--?(?:api-?key|integration-?key|key|token|secret|password|passwd|pass|pwd|pw)|-[kp])/i;
// A long token with a digit and no word breaks (`--wfa_live_0123456789abcdef`) is a key pasted as an option.
const SECRET_SHAPED = /^--?(?=[^-]*\d)[^-\s]{16,}/;

/** The distance between two option names: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  // d[i * width + j]: the distance between the first i letters of `a` and the first j of `b`.
  const width = b.length + 1;
  const d: number[] = [];
  const at = (i: number, j: number) => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      let best =
        i === 0 || j === 0 ? i + j : Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known long option an unknown one is a typo of (`--tmeout` for `--timeout`), if one is close enough. */
function nearestOption(quoted: string, known: readonly string[]): string | undefined {
  const typed = quoted.replace(/^--/, '').replace(/…$/, '');
  if (!quoted.startsWith('--') || typed === '') return undefined;
  // A typo is one or two slips, and fewer than a third of the letters: `--limt` is `--limit`, `--at` is nothing.
  const allowed = Math.min(2, Math.floor(typed.length / 3));
  const scored = known.filter((name) => name.length > 1).map((name) => ({ name, distance: editDistance(typed, name) }));
  const best = scored.sort((x, y) => x.distance - y.distance)[0];
  return best && best.distance <= allowed ? best.name : undefined;
}

/**
 * What an error may quote of an option argument: its name up to any value (`--bogus:x` is `--bogus`, `-zx` is
 * `-z`), of an option spelt like a secret's only that word (`--api-keySECRET` is `--api-key…`), and of a
 * secret-shaped one nothing (`--wfa_live_0123456789abcdef` is `--…`).
 */
export function optionName(arg: string): string {
  const secret = SECRET_OPTION.exec(arg)?.[0];
  if (secret !== undefined) return secret.length < arg.length ? `${secret}…` : secret;
  if (SECRET_SHAPED.test(arg)) return `${arg.startsWith('--') ? '--' : '-'}…`;
  return arg.startsWith('--') ? (/^--[\w-]*/.exec(arg)?.[0] ?? '--') : arg.slice(0, 2);
}

/**
 * Splits `[options] <command> [rest]`: the first positional is the command, everything else (options
 * before it included) is passed on. `valueOptions` are the options that take a value, so that a value is
 * not mistaken for the command. `optionBefore` names the last other option before the command: the
 * command may be that option's value (`--key <secret>`), so an error must not quote it.
 */
export function splitCommand(
  args: readonly string[],
  valueOptions: readonly string[],
): { name: string | undefined; rest: string[]; optionBefore?: string } {
  const options: OptionsConfig = {};
  for (const name of valueOptions) options[name] = { type: 'string' };
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  const at = tokens.findIndex((token) => token.kind === 'positional' || token.kind === 'option-terminator');
  const first = tokens[at];
  if (first?.kind !== 'positional') return { name: undefined, rest: [...args] };
  const rest = args.filter((_, index) => index !== first.index);
  const before = tokens
    .slice(0, at)
    .filter((token) => token.kind === 'option' && !valueOptions.includes(token.name))
    .pop();
  return before === undefined
    ? { name: first.value, rest }
    : { name: first.value, rest, optionBefore: optionName(args[before.index] ?? '-') };
}

/** Throws a {@link UsageError} unless there are exactly `names.length` positionals; returns them. */
export function expectPositionals(positionals: readonly string[], names: readonly string[], usage: string): string[] {
  if (positionals.length < names.length) throw new UsageError(`missing <${names[positionals.length]}>`, usage);
  if (positionals.length > names.length) throw new UsageError(`unexpected argument '${positionals[names.length]}'`, usage);
  return [...positionals];
}

/** Reads a whole number option that must be at least `min`; `undefined` when the option was not given. */
export function integerOption(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new UsageError(`${name} must be a whole number of at least ${min}, got "${value}"`);
  }
  return number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads a duration option in milliseconds: a bare number is seconds (`90`), or a number with a unit
 * (`500ms`, `30s`, `5m`, `1h`). `undefined` when the option was not given.
 */
export function durationOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000) : Number.NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw new UsageError(`${name} must be a duration greater than 0 such as 90 (seconds), 500ms, 30s, 5m or 1h, got "${value}"`);
  }
  return Math.max(1, Math.round(ms));
}
