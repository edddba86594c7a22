/**
 * Running `wfa` and the examples as real child processes, from source through tsx, with a hard time limit so
 * that a hang fails a test instead of stalling the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runMain } from './in-process.js';

/** The repository root: the working directory of every child. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How a child ended and what it wrote. */
export interface Finished {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running child: its output so far, a way to wait for some of it, and its end. */
export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (or stderr with `from: 'stderr'`); rejects after `ms`. */
  waitFor(pattern: RegExp, options?: { from?: 'stdout' | 'stderr'; ms?: number }): Promise<RegExpMatchArray>;
  finished: Promise<Finished>;
}

/** Options of a child. */
export interface SpawnOptions {
  /** Added to the environment (an `undefined` value removes the variable). */
  env?: Record<string, string | undefined>;
  /** Killed with SIGKILL after this long. Default 15 s. */
  timeoutMs?: number;
}

// Children still running when the test worker exits (a test that failed half-way, a worker torn down) are
// killed with it, rather than left behind holding a port.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

// The developer's own WFA_* variables must not leak into a test that checks what happens without them.
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['WFA_API_KEY'];
  delete env['WFA_BASE_URL'];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starts a TypeScript file (relative to the root) under tsx. */
export function startScript(file: string, args: readonly string[] = [], options: SpawnOptions = {}): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  let closed = false;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      closed = true;
      live.delete(child);
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });

  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    finished,
    waitFor(pattern, { from = 'stdout', ms = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = (from === 'stdout' ? stdout : stderr).match(pattern);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${pattern} did not appear on ${from} within ${ms} ms; stdout: ${stdout}\nstderr: ${stderr}`));
        }, ms);
        const exited = (): void => {
          done();
          reject(new Error(`the process exited before ${pattern} appeared on ${from}; stdout: ${stdout}\nstderr: ${stderr}`));
        };
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('close', exited);
        };
        listeners.add(check);
        child.on('close', exited);
        check();
        if (closed) exited();
      });
    },
  };
}

/** Runs a TypeScript file under tsx to its end. */
export function runScript(file: string, args: readonly string[] = [], options: SpawnOptions = {}): Promise<Finished> {
  return startScript(file, args, options).finished;
}

/** Starts `wfa` from source. */
export function startCli(args: readonly string[], options: SpawnOptions = {}): Running {
  return startScript('src/cli/index.ts', args, options);
}

/** Runs `wfa` from source to its end, in a child process: for what only a real process shows. */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}): Promise<Finished> {
  return runScript('src/cli/index.ts', args, options);
}

/**
 * Runs `wfa`'s `main()` in this process, with the given environment only and no terminal: what nearly every
 * CLI test needs, without the second a child process costs.
 */
export async function runCli(args: readonly string[], options: { env?: Record<string, string | undefined> } = {}): Promise<Finished> {
  const env = Object.fromEntries(Object.entries(options.env ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const { code, stdout, stderr } = await runMain(args, env);
  return { code, signal: null, stdout, stderr };
}
