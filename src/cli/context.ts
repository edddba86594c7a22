/**
 * What a command runs with: its streams, environment and stop signal, passed in rather than read from
 * `process`, so that the entry point is the one place that touches the real process.
 */

import { printable } from './printable.js';

/** A stream a command writes to: `process.stdout`, `process.stderr`, or a test double. */
export interface Output {
  write(text: string): unknown;
  /** True on a terminal: progress is then drawn in place. */
  readonly isTTY?: boolean | undefined;
}

/** Where `wfa` reads typed or piped input: `process.stdin`, or a test double. */
export interface Input {
  /** True on a terminal: a password or key is then asked for with echo off. */
  readonly isTTY?: boolean | undefined;
  /** Raw mode on a terminal: each key arrives as typed, nothing is echoed, Ctrl-C is a byte (0x03). */
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** Everything a command needs from its process. */
export interface Context {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Results only (JSON, a URL), so that `wfa … | jq` and `$(wfa …)` work. */
  readonly stdout: Output;
  /** Progress, hints and errors. */
  readonly stderr: Output;
  /** Aborted on Ctrl+C or SIGTERM. */
  readonly signal: AbortSignal;
  /** Where relative paths (`--file`) are read from. */
  readonly cwd: string;
  /** Typed or piped input (`wfa login`, `wfa integrations save`); none when absent. */
  readonly stdin?: Input | undefined;
}

/**
 * Writes a value as indented JSON and a newline: readable as is, and what `jq` expects. The characters
 * `JSON.stringify` leaves raw in strings (DEL, C1, format characters, U+2028) are escaped as `\u` sequences,
 * line by line so that the indentation's line breaks stay: the same JSON value, safe on a terminal.
 */
export function printJson(output: Output, value: unknown): void {
  output.write(`${JSON.stringify(value, null, 2).split('\n').map(printable).join('\n')}\n`);
}
