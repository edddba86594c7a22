/**
 * The exit codes of `wfa`. Scripts branch on them, so each outcome has its own code and they never change
 * meaning between versions.
 */

// What each code means is written once, in EXIT_CODES_HELP below, which `--help` prints.
export const ExitCode = {
  Ok: 0,
  Usage: 1,
  RequestFailed: 2,
  BuildFailed: 3,
  TimedOut: 4,
  /** 128 + SIGINT's number, the Unix convention. */
  Interrupted: 130,
  /** 128 + SIGTERM's number, the Unix convention. */
  Terminated: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const MEANING: Record<ExitCode, string> = {
  [ExitCode.Ok]: 'success',
  [ExitCode.Usage]: 'usage or configuration error (bad arguments, no API key or base URL, invalid input)',
  [ExitCode.RequestFailed]: 'the request failed (an error from the service, or the service is unreachable)',
  [ExitCode.BuildFailed]: 'the build failed',
  [ExitCode.TimedOut]: 'the build did not finish within --timeout',
  [ExitCode.Interrupted]: 'interrupted (Ctrl+C, SIGINT)',
  [ExitCode.Terminated]: 'terminated (SIGTERM)',
};

/** The exit codes as `--help` prints them (only `codes`, for a command that uses some): one place, so the help and the code cannot disagree. */
export function exitCodesHelp(codes: readonly ExitCode[] = Object.values(ExitCode)): string {
  return codes.map((code) => `  ${String(code).padEnd(4)} ${MEANING[code]}`).join('\n');
}

/** Every exit code, as the top-level `--help` prints them. */
export const EXIT_CODES_HELP: string = exitCodesHelp();
