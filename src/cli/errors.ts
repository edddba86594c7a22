/**
 * How `wfa` reports a failure: which exit code an error means, and the one line (or few) it prints.
 * The error classes come from `core/errors.js` rather than the package root, which would load the HTTP client.
 */
import {
  AbortError,
  ApiError,
  BuildFailedError,
  ConnectionError,
  ResponseValidationError,
  ValidationError,
  WaitTimeoutError,
  WfaError,
} from '../core/errors.js';
import { ExitCode } from './exit-codes.js';
import { printable } from './printable.js';

/** The command line itself is wrong: an unknown command or option, a missing argument, a bad value. */
export class UsageError extends Error {
  /** The usage line to show after the message; when not given, the command that threw it adds its own (`runCommand`). */
  readonly usage: string | undefined;
  /** With `cause`, the SDK's {@link ValidationError} of an argument (an empty id): shown under its own name. */
  constructor(message: string, usage?: string, cause?: Error) {
    super(message, cause && { cause });
    this.name = cause?.name ?? 'UsageError';
    this.usage = usage;
  }
}

/**
 * A {@link ValidationError} the SDK raised about values the command line gave, as a usage error naming them:
 * `optionOf` names the option of an issue's field (`--status`), or returns `undefined` when the field is not
 * the command line's; then the error is returned as it was.
 */
export function asUsageError(error: unknown, optionOf: (field: string) => string | undefined): unknown {
  if (!ValidationError.is(error)) return error;
  const named = error.issues.map((issue) => ({ option: optionOf(String(issue.path[0] ?? '')), message: issue.message }));
  if (named.length === 0 || named.some(({ option }) => option === undefined)) return error;
  return new UsageError(named.map(({ option, message }) => `${option} ${message}`).join('; '));
}

/** The environment is not set up: no API key or base URL, an unreadable file, a port in use. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Ctrl-C typed at a prompt (in raw mode it is a byte, not SIGINT), or the command's signal aborted. */
export class InterruptedError extends Error {
  constructor() {
    super('Interrupted');
    this.name = 'InterruptedError';
  }
}

/** The exit code for an error, by its kind (see {@link ExitCode}). */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof ConfigError) return ExitCode.Usage;
  if (error instanceof InterruptedError) return ExitCode.Interrupted;
  if (BuildFailedError.is(error)) return ExitCode.BuildFailed;
  if (WaitTimeoutError.is(error)) return ExitCode.TimedOut;
  if (AbortError.is(error)) return ExitCode.Interrupted;
  if (ApiError.is(error) || ConnectionError.is(error) || ResponseValidationError.is(error)) return ExitCode.RequestFailed;
  // An input the SDK refused before sending, or a client option it could not use (a malformed base URL).
  if (ValidationError.is(error) || WfaError.is(error)) return ExitCode.Usage;
  return ExitCode.RequestFailed;
}

function lastLogLines(logs: unknown, count: number): string[] {
  if (!Array.isArray(logs)) return [];
  return logs.slice(-count).map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
}

/**
 * The lines printed on stderr for an error: `wfa: <name>: <message>`, then what helps act on it (the
 * build's error and last log lines, the usage line). The service's text in them is {@link printable}.
 */
export function formatError(error: unknown): string[] {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`wfa: ${name}: ${message}`];
  if (BuildFailedError.is(error)) {
    const reason = error.build['error'];
    if (typeof reason === 'string') lines.push(`  error: ${reason}`);
    const logs = lastLogLines(error.logs, 5);
    if (logs.length > 0) lines.push('  last log lines:', ...logs.map((line) => `    ${line}`));
  }
  if (error instanceof UsageError && error.usage) lines.push(`Usage: ${error.usage}`, 'Run with --help for details.');
  return lines.map(printable);
}
