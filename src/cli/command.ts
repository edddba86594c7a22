/** The shape every `wfa` command has, and command groups (`wfa workflows list|get|create`). */
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
      const { name: subName, rest } = splitCommand(args, CONNECTION_VALUE_OPTIONS);
      if (subName === undefined) {
        if (rest.includes('--help') || rest.includes('-h')) return showHelp(context, help);
        throw new UsageError(
          `wfa ${name} needs a command: ${subcommands.map((sub) => sub.name).join(', ')}`,
          `wfa ${name} <command> [options]`,
        );
      }
      const subcommand = subcommands.find((sub) => sub.name === subName);
      if (!subcommand)
        throw new UsageError(`unknown command '${name} ${subName}'`, `wfa ${name} <${subcommands.map((sub) => sub.name).join('|')}>`);
      return subcommand.run(rest, context);
    },
  };
}
