/**
 * Runs a Node child that prints one report line when its work ends, then must exit on its own: it is killed
 * if still alive `exitWithinMs` after that line, so a leaked timer or handle shows as `exitedOnItsOwn: false`.
 */
import { spawn } from 'node:child_process';

export interface ChildExit {
  /** The child's first line of output, its report; `''` when it printed none. */
  readonly report: string;
  /** True when it exited by itself after its report; false when it was killed or never reported. */
  readonly exitedOnItsOwn: boolean;
  readonly code: number | null;
  readonly stderr: string;
}

/** Spawns `node ...args`; the whole run is bounded by 30 s in any case. */
export function runChildUntilExit(args: string[], exitWithinMs: number, cwd?: string): Promise<ChildExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killer: ReturnType<typeof setTimeout> | undefined;
    const overall = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killer === undefined && stdout.includes('\n')) killer = setTimeout(() => child.kill('SIGKILL'), exitWithinMs);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(overall);
      clearTimeout(killer);
      resolve({ report: stdout.split('\n')[0] ?? '', exitedOnItsOwn: killer !== undefined && code !== null, code, stderr });
    });
  });
}
