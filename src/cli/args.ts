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
    const text = error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error);
    const named = text.replace(/^(Unknown option ')([^']*)'/, (_, head: string, option: string) => `${head}${optionName(option)}'`);
    const message = named.charAt(0).toLowerCase() + named.slice(1);
    throw new UsageError(message, usage);
  }
}

// Options that may carry a key or a password glued on (`--api-keySECRET`, `-pSECRET`): quoted up to that word.
const SECRET_OPTION = /^(?:--?(?:api-?key|integration-?key|key|token|secret|password|passwd|pass|pwd|pw)|-[kp])/i;

/**
 * What an error may quote of an option argument: its name up to any value (`--bogus:x` is `--bogus`, `-zx` is
 * `-z`), and of an option spelt like a secret's only that word (`--api-keySECRET` is `--api-key…`).
 */
export function optionName(arg: string): string {
  const secret = SECRET_OPTION.exec(arg)?.[0];
  if (secret !== undefined) return secret.length < arg.length ? `${secret}…` : secret;
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
