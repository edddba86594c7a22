/**
 * `wfa builds download <build_id> [-o file] [--wait]`: downloads a completed build's artifact to a file (through
 * `builds.downloadToFile`: resumed, checked, no partial file), progress on stderr, the path on stdout.
 */
import { isAbsolute, join } from 'node:path';
import { BuildFailedError } from '../core/errors.js';
import { isCompletedBuild, type DownloadProgress } from '../index.js';
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import type { Output } from './context.js';
import { UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { formatBytes, renderBar } from './progress.js';
import { printable } from './printable.js';
import { WAIT_HELP, WAIT_OPTIONS, waitSettingsIfAsked } from './wait-options.js';

const USAGE = 'wfa builds download <build_id> [-o file] [--wait] [options]';
const FAILED = ['failed', 'error', 'cancelled', 'canceled'];

const HELP = `Usage: ${USAGE}

Downloads the artifact of a completed build to a file, and prints the file's path on stdout. Progress goes
to stderr: a bar on a terminal, a line per 10% (or per 10 MB when the size is unknown) otherwise. The file
appears only once the download is complete and its length checked; a dropped connection is resumed.
A build that has not finished exits with code 4, unless --wait waits for it (as wfa wait-build does).

Options:
  -o, --output <file>    where to write it (default: <build_id>.zip in the current folder); replaced if present
  --wait                 wait for the build to finish first; then:
${WAIT_HELP.replace(/^ {2}/gm, '    ')}

${CONNECTION_HELP}

Example:
  wfa wait-build bld_123 > /dev/null && wfa builds download bld_123 -o build.zip`;

const MB = 1024 * 1024;
const REDRAW = '\r\u001b[2K';

/** A bar redrawn in place on a terminal; elsewhere a line at each 10% (or 10 MB), so a CI log stays short. */
function downloadProgress(output: Output, label: string) {
  let lastStep = -1;
  let open = false;
  return {
    update({ bytes, total }: DownloadProgress) {
      const percent = total ? Math.floor((100 * bytes) / total) : undefined;
      const step = percent === undefined ? Math.floor(bytes / (10 * MB)) : Math.floor(percent / 10);
      const text = `${label} ${percent === undefined ? formatBytes(bytes) : `${formatBytes(bytes, total)} of ${formatBytes(total!)} (${percent}%)`}`;
      if (output.isTTY) {
        output.write(`${REDRAW}${renderBar(percent ?? 0, 24)} ${text}`);
        open = true;
      } else if (step !== lastStep) {
        output.write(`${text}\n`);
      }
      lastStep = step;
    },
    finish() {
      if (open) output.write('\n');
      open = false;
    },
  };
}

export const downloadCommand: Command = {
  name: 'download',
  summary: "Download a completed build's artifact to a file",
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(
      args,
      { ...CONNECTION_OPTIONS, ...WAIT_OPTIONS, wait: { type: 'boolean' }, output: { type: 'string', short: 'o' } },
      USAGE,
    );
    if (values.help) return showHelp(context, HELP);
    const [buildId = ''] = expectPositionals(positionals, ['build_id'], USAGE);
    if (values.output === '') throw new UsageError('-o, --output needs a file path');
    const given = values.output ?? `${buildId.replace(/[^\w.-]/g, '_')}.zip`;
    const path = isAbsolute(given) ? given : join(context.cwd, given);
    // Read before any request: a bad --timeout is a usage error, whatever state the build is in.
    const wait = waitSettingsIfAsked(values, context, buildId, USAGE);
    const client = await createClient(values, context);
    let build = await client.builds.get(buildId, { signal: context.signal });
    if (wait && !isCompletedBuild(build)) {
      build = await client.builds.wait(buildId, wait.options).finally(() => wait.display.finish());
    }
    if (FAILED.includes(build.status.toLowerCase())) throw new BuildFailedError(buildId, build);
    if (!isCompletedBuild(build)) {
      // Not a usage error: the same command succeeds once the build has finished (exit code 4, as a wait that ran out).
      const line = `wfa: build ${buildId} has not finished (status ${build.status}): wait for it with "wfa wait-build ${buildId}", or add --wait`;
      context.stderr.write(`${printable(line)}\n`);
      return ExitCode.TimedOut;
    }
    const display = downloadProgress(context.stderr, `${buildId}:`);
    try {
      await client.builds.downloadToFile(build, path, { signal: context.signal, onProgress: display.update });
    } finally {
      display.finish();
    }
    context.stdout.write(`${path}\n`);
    return ExitCode.Ok;
  },
};
