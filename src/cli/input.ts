/**
 * Asking for a value on the terminal (a password or key with echo off, in raw mode) and reading a secret
 * piped on stdin. What is read is returned only: never echoed, logged or put in an error.
 */
import type { Context, Input } from './context.js';
import { ConfigError, InterruptedError, UsageError } from './errors.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACES = new Set(['\u007f', '\b']);

/** Stops reading input: removes the listeners, pauses the stream and leaves raw mode, whatever happened. */
function reader(input: Input, signal: AbortSignal, onChunk: (text: string, done: (error?: Error) => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer | string) => onChunk(typeof chunk === 'string' ? chunk : chunk.toString('utf8'), finish);
    const onEnd = () => finish(new ConfigError('The input ended before a value was given'));
    const onAbort = () => finish(new InterruptedError());
    function finish(error?: Error): void {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('close', onEnd);
      signal.removeEventListener('abort', onAbort);
      input.pause();
      if (input.isTTY) input.setRawMode?.(false);
      if (error) reject(error);
      else resolve();
    }
    if (signal.aborted) return reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    if (input.isTTY) input.setRawMode?.(true);
    input.resume();
  });
}

/**
 * Asks for one line on the terminal, in raw mode: with `echo: false` (a password) nothing is shown, not even
 * stars. Backspace and Ctrl-U edit; Ctrl-C interrupts (exit 130); Ctrl-D on an empty line ends the input.
 */
export async function ask(context: Context, label: string, options: { echo: boolean }): Promise<string> {
  const input = context.stdin;
  if (!input?.isTTY) throw new ConfigError(`No terminal to ask for ${label.replace(/:\s*$/, '')} on`);
  context.stderr.write(label);
  let value = '';
  try {
    await reader(input, context.signal, (text, done) => {
      for (const char of text) {
        if (char === '\r' || char === '\n') return done();
        if (char === CTRL_C) return done(new InterruptedError());
        if (char === CTRL_D) {
          if (value === '') return done(new ConfigError('The input ended before a value was given'));
          continue;
        }
        if (BACKSPACES.has(char)) {
          if (value !== '' && options.echo) context.stderr.write('\b \b');
          value = [...value].slice(0, -1).join('');
        } else if (char === CTRL_U) {
          if (options.echo) context.stderr.write('\b \b'.repeat([...value].length));
          value = '';
        } else if (char >= ' ') {
          value += char;
          if (options.echo) context.stderr.write(char);
        }
        // Other control characters (arrows, escapes) are ignored rather than kept in a password.
      }
    });
  } finally {
    // The newline the terminal did not echo in raw mode, so whatever follows starts on its own line.
    context.stderr.write('\n');
  }
  return value;
}

/** At most this much is read from a pipe: a key is short, and a wrong redirect (`< big.iso`) must not fill memory. */
export const MAX_PIPED = 64 * 1024;

/** `text` without its final line break, `\n` or a CRLF file's `\r\n`: only that, never other spaces. */
export function withoutFinalLineBreak(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/**
 * Reads all of a piped stdin as one value, without its final line break; at most `max` bytes, past which it is
 * a `TooLong` (a `ConfigError` unless given). Decoded as UTF-8 once whole (a character split between two chunks
 * stays whole); bytes that are not UTF-8 are refused rather than read as U+FFFD. A BOM is kept, for the caller.
 */
export async function readPiped(
  context: Context,
  what: string,
  max = MAX_PIPED,
  TooLong: new (message: string) => Error = ConfigError,
): Promise<string> {
  const input = context.stdin;
  if (!input) throw new ConfigError(`No input to read ${what} from`);
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (size > max) finish(new TooLong(`${what} on stdin is longer than ${max} bytes`));
    };
    const onEnd = () => finish();
    const onAbort = () => finish(new InterruptedError());
    function finish(error?: Error): void {
      input!.removeListener('data', onData);
      input!.removeListener('end', onEnd);
      context.signal.removeEventListener('abort', onAbort);
      input!.pause();
      if (error) reject(error);
      else resolve();
    }
    if (context.signal.aborted) return reject(new InterruptedError());
    context.signal.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
  return withoutFinalLineBreak(utf8Text(Buffer.concat(chunks), `${what} on stdin`));
}

/** Bytes read as UTF-8, or a usage error naming `what`: never U+FFFD in place of what was sent. */
export function utf8Text(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`${what} is not valid UTF-8`);
  }
}
