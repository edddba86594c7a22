/**
 * `wfa`'s top level: finds the command, runs it, and turns whatever it throws into a message on stderr and
 * an exit code. Nothing here touches `process`, so it runs the same under a test as from the shell.
 */
import packageJson from '../../package.json' with { type: 'json' };
import { splitCommand } from './args.js';
import { builds } from './builds.js';
import { runCommand, showHelp, unknownCommand, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_VALUE_OPTIONS } from './config.js';
import type { Context } from './context.js';
import { exitCodeFor, formatError, UsageError } from './errors.js';
import { EXIT_CODES_HELP, ExitCode } from './exit-codes.js';
import { doctor } from './doctor.js';
import { integrations } from './integrations.js';
import { login, logout } from './login.js';
import { listenCommand } from './listen.js';
import { mock } from './mock.js';
import { orders } from './orders.js';
import { waitBuild } from './wait-build.js';
import { workflows } from './workflows.js';

/** Every top-level command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  waitBuild,
  workflows,
  builds,
  orders,
  integrations,
  login,
  logout,
  doctor,
  listenCommand,
  mock,
];

export const VERSION: string = packageJson.version;

const USAGE = 'wfa <command> [options]';
const width = Math.max(...COMMANDS.map((command) => command.name.length));

const HELP = `Usage: ${USAGE}

The Workflow Automation Service from the command line. Results are JSON (or a URL) on stdout; progress,
hints and errors go to stderr.

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}
  ${'help'.padEnd(width)}  Show the help of a command

Options:
  -h, --help          show help (also after any command: wfa workflows list --help)
  -V, --version       print the version

${CONNECTION_HELP}

Exit codes:
${EXIT_CODES_HELP}

Try it without an account:
  wfa mock                      # in one terminal: prints WFA_BASE_URL and WFA_API_KEY to export
  wfa workflows list            # in another, after exporting them`;

function find(split: { name: string; optionBefore?: string | undefined }): Command {
  const command = COMMANDS.find((candidate) => candidate.name === split.name);
  if (!command) throw unknownCommand(split, COMMANDS, USAGE);
  return command;
}

async function dispatch(args: readonly string[], context: Context): Promise<ExitCode> {
  const split = splitCommand(args, CONNECTION_VALUE_OPTIONS);
  const { name, rest } = split;
  if (name === undefined) {
    if (rest.includes('--version') || rest.includes('-V')) {
      context.stdout.write(`${VERSION}\n`);
      return ExitCode.Ok;
    }
    if (rest.includes('--help') || rest.includes('-h')) return showHelp(context, HELP);
    // The arguments are not echoed: they may include --api-key's value.
    throw new UsageError('no command given', USAGE);
  }
  if (name === 'help') {
    const topic = splitCommand(rest, CONNECTION_VALUE_OPTIONS);
    return showHelp(context, topic.name === undefined ? HELP : find({ ...topic, name: topic.name }).help);
  }
  return runCommand(find({ ...split, name }), rest, context);
}

/**
 * Runs `wfa` with the arguments after the program name and resolves to the exit code. Never rejects: errors
 * are printed on stderr as `wfa: <error name>: <message>`.
 */
export async function main(args: readonly string[], context: Context): Promise<ExitCode> {
  try {
    return await dispatch(args, context);
  } catch (error) {
    for (const line of formatError(error)) context.stderr.write(`${line}\n`);
    return exitCodeFor(error);
  }
}
