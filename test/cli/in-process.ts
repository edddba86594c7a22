/**
 * Running `wfa`'s `main()` inside the test process, for the wide tables (every command's help, every usage
 * error) where starting a process per row would only add seconds. Process-level behaviour (the entry point,
 * signals, real exit codes) is covered by the tests that spawn `wfa`.
 */
import { main } from '../../src/cli/main.js';

/** What `main()` resolved to and wrote. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main(args)` with captured output, the given environment only, and no terminal. */
export async function runMain(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env,
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    signal: new AbortController().signal,
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}
