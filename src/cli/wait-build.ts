/**
 * `wfa wait-build <build_id>`: waits for a build, shows its progress on stderr, and prints only the download
 * URL on stdout, so that `URL=$(wfa wait-build bld_1)` just works.
 */
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson } from './context.js';
import { ExitCode } from './exit-codes.js';
import { printable } from './printable.js';
import { lastBuildOf, WAIT_EXIT_CODES_HELP, WAIT_HELP, WAIT_OPTIONS, waitSettings } from './wait-options.js';

const USAGE = 'wfa wait-build <build_id> [options]';

const HELP = `Usage: ${USAGE}

Waits for a build to finish. Progress goes to stderr: a bar redrawn in place on a terminal, one line per
change otherwise (CI logs). When the build completes, its download URL alone is printed on stdout.

Options:
  --json                 print the final build as JSON instead of the URL (also when it failed or timed out)
${WAIT_HELP}

${CONNECTION_HELP}

${WAIT_EXIT_CODES_HELP}

Example:
  URL=$(wfa wait-build bld_123 --timeout 15m) && curl -fsSL -o build.zip "$URL"`;

export const waitBuild: Command = {
  name: 'wait-build',
  summary: 'Wait for a build to finish and print its download URL',
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, { ...CONNECTION_OPTIONS, ...WAIT_OPTIONS, json: { type: 'boolean' } }, USAGE);
    if (values.help) return showHelp(context, HELP);
    const [buildId = ''] = expectPositionals(positionals, ['build_id'], USAGE);
    const { options, display } = waitSettings(values, context, buildId);
    const client = await createClient(values, context);
    try {
      const build = await client.waitForBuild(buildId, options);
      display.finish();
      if (values.json) printJson(context.stdout, build);
      else context.stdout.write(`${printable(build.download_url)}\n`);
      return ExitCode.Ok;
    } catch (error) {
      display.finish();
      const last = lastBuildOf(error);
      if (values.json && last) printJson(context.stdout, last);
      throw error;
    }
  },
};
