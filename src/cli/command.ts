/** The shape every `wfa` command has, and command groups (`wfa workflows list|get|create`). */
import { ValidationError } from '../core/errors.js';
import { splitCommand } from './args.js';
import { CONNECTION_VALUE_OPTIONS } from './config.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import type { ExitCode } from './exit-codes.js';

/** One command (`wait-build`) or subcommand (`list` of `workflows`). */
export interface Command {
  readonly name: string;
  /** One line, for the list of commands. */
  readonly summary: string;
  /** The whole `--help` text. */
  readonly help: string;
  /** Runs with the arguments after the command's name; resolves to the exit code, or throws (see `exitCodeFor`). */
  run(args: readonly string[], context: Context): Promise<ExitCode>;
}

/** Prints a help text on stdout and returns 0: help that was asked for is output, not an error. */
export function showHelp(context: Context, help: string): ExitCode {
  context.stdout.write(`${help.trimEnd()}\n`);
  return 0;
}

/** A command's usage line: the first line of its help, without `Usage: `. */
export function usageOf(command: Command): string {
  return (command.help.split('\n', 1)[0] ?? '').replace(/^Usage:\s*/, '');
}

/**
 * Runs a command. A {@link UsageError} it throws without a usage line (a bad `--limit`, an invalid workflow
 * file), or a `ValidationError` of the SDK (an argument refused before any request: an empty id), gets the
 * command's own here, so that no command can leave it out.
 */
export async function runCommand(command: Command, args: readonly string[], context: Context): Promise<ExitCode> {
  try {
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError && error.usage === undefined) throw new UsageError(error.message, usageOf(command));
    if (ValidationError.is(error)) throw new UsageError(error.message, usageOf(command), error);
    throw error;
  }
}

/**
 * The error for a command name that is none of `commands` (of `wfa <group>` if given). After an option the
 * name is not quoted: it may be that option's value (`wfa --key <secret> integrations save`).
 */
export function unknownCommand(
  split: { name: string; optionBefore?: string | undefined },
  commands: readonly Command[],
  usage: string,
  group?: string,
): UsageError {
  const names = commands.map((command) => command.name).join(', ');
  const of = group === undefined ? '' : ` of wfa ${group}`;
  if (split.optionBefore !== undefined) {
    return new UsageError(
      `the argument after '${split.optionBefore}' is not a command (not shown: it may be that option's value); put options after the command. The commands${of} are ${names}`,
      usage,
    );
  }
  return new UsageError(`unknown command '${group === undefined ? '' : `${group} `}${split.name}'; the commands${of} are ${names}`, usage);
}

/**
 * A command made of subcommands: `wfa <group> <subcommand> [options]`. With no subcommand, or `--help`
 * before one, it prints its own help.
 */
export function createGroup(name: string, summary: string, subcommands: readonly Command[]): Command {
  const width = Math.max(...subcommands.map((sub) => sub.name.length));
  const help = [
    `Usage: wfa ${name} <${subcommands.map((sub) => sub.name).join('|')}> [options]`,
    '',
    summary,
    '',
    'Commands:',
    ...subcommands.map((sub) => `  ${sub.name.padEnd(width)}  ${sub.summary}`),
    '',
    `Run "wfa ${name} <command> --help" for a command's options.`,
  ].join('\n');

  return {
    name,
    summary,
    help,
    async run(args, context) {
      const split = splitCommand(args, CONNECTION_VALUE_OPTIONS);
      const { name: subName, rest } = split;
      if (subName === undefined) {
        if (rest.includes('--help') || rest.includes('-h')) return showHelp(context, help);
        throw new UsageError(
          `wfa ${name} needs a command: ${subcommands.map((sub) => sub.name).join(', ')}`,
          `wfa ${name} <command> [options]`,
        );
      }
      const subcommand = subcommands.find((sub) => sub.name === subName);
      if (!subcommand)
        throw unknownCommand(
          { ...split, name: subName },
          subcommands,
          `wfa ${name} <${subcommands.map((sub) => sub.name).join('|')}>`,
          name,
        );
      return runCommand(subcommand, rest, context);
    },
  };
}
