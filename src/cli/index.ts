#!/usr/bin/env node
/**
 * The `wfa` executable: connects {@link main} to the real process (arguments, streams, environment,
 * signals) and sets the exit code.
 */
import { ExitCode } from './exit-codes.js';
import { main } from './main.js';

const controller = new AbortController();
let stoppedBy: NodeJS.Signals | undefined;

// The Unix convention, 128 + the signal's number, so a shell or a supervisor sees which signal stopped it.
const exitCodeOf = (signal: NodeJS.Signals | undefined) => (signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted);

// The first Ctrl+C asks the command to stop (a wait is aborted, the mock closes its port); a second one
// means "now", for when stopping cleanly takes too long.
function interrupt(signal: NodeJS.Signals): void {
  if (stoppedBy) process.exit(exitCodeOf(stoppedBy));
  stoppedBy = signal;
  controller.abort(new Error(`Interrupted by ${signal}`));
}

process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);

// `wfa workflows list | head -1` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(ExitCode.Ok);
  throw error;
});

void main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  cwd: process.cwd(),
  stdin: process.stdin,
}).then((code) => {
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  // exitCode rather than exit(): output still queued for a pipe is written before the process ends.
  process.exitCode = code === ExitCode.Interrupted ? exitCodeOf(stoppedBy) : code;
});
