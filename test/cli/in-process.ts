/**
 * Running `wfa`'s `main()` inside the test process, with captured output and no terminal: what nearly every CLI
 * test needs. Process-level behaviour (the entry point, signals, real exit codes) is covered by the few tests
 * that spawn `wfa` (test/cli/process.ts).
 */
import type { Input } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';

/** What `main()` resolved to and wrote. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A `main()` still running: its output so far, a way to wait for some of it, a way to interrupt it. */
export interface Started {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (or stderr); rejects if `main()` ends first. */
  waitFor(pattern: RegExp, from?: 'stdout' | 'stderr'): Promise<RegExpMatchArray>;
  /** Aborts the signal `main()` was given, as Ctrl-C would in the real process. */
  interrupt(): void;
  finished: Promise<Ran>;
}

/** Starts `main(args)` with the given environment only (and stdin, when given). */
export function startMain(args: readonly string[], env: Record<string, string> = {}, stdin?: Input): Started {
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const stream = (name: 'stdout' | 'stderr') => ({
    write: (text: string) => {
      output[name] += text;
      for (const listener of listeners) listener();
      return true;
    },
    isTTY: false,
  });
  const controller = new AbortController();
  let ended = false;
  const finished = main(args, {
    env,
    stdout: stream('stdout'),
    stderr: stream('stderr'),
    signal: controller.signal,
    cwd: process.cwd(),
    stdin,
  }).then((code) => ({ code, ...output }));
  void finished.finally(() => {
    ended = true;
    for (const listener of listeners) listener();
  });
  return {
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    interrupt: () => controller.abort(new Error('Interrupted by the test')),
    finished,
    waitFor: (pattern, from = 'stdout') =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = output[from].match(pattern);
          if (match) resolve(match);
          else if (ended) reject(new Error(`main() ended before ${pattern} appeared on ${from}: ${output.stdout}\n${output.stderr}`));
          else return;
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
  };
}

/** Runs `main(args)` to its end with the given environment only (and stdin, when given). */
export function runMain(args: readonly string[], env: Record<string, string> = {}, stdin?: Input): Promise<Ran> {
  return startMain(args, env, stdin).finished;
}
