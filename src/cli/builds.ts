/**
 * `wfa builds get <build_id>`.
 */
import { expectPositionals, parseCommand } from './args.js';
import { createGroup, showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson } from './context.js';
import { ExitCode } from './exit-codes.js';

const GET_USAGE = 'wfa builds get <build_id>';

const getCommand: Command = {
  name: 'get',
  summary: "Print a build's current state as JSON",
  help: `Usage: ${GET_USAGE}

Prints the build's current state (status, progress, download_url once completed, logs) as JSON on stdout.
To wait until it finishes, use "wfa wait-build <build_id>".

${CONNECTION_HELP}`,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, CONNECTION_OPTIONS, GET_USAGE);
    if (values.help) return showHelp(context, this.help);
    const [id = ''] = expectPositionals(positionals, ['build_id'], GET_USAGE);
    const client = await createClient(values, context);
    printJson(context.stdout, await client.builds.get(id, { signal: context.signal }));
    return ExitCode.Ok;
  },
};

/**
 * The `builds` command group: `get`.
 *
 * @example
 * ```ts
 * await builds.run(['get', 'bld_123'], context);
 * ```
 */
export const builds: Command = createGroup('builds', 'Read builds', [getCommand]);
