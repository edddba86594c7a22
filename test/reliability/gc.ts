/**
 * A full garbage collection on demand, for the heap figures of the reliability suite: the one `--expose-gc`
 * gives (the reliability config's `execArgv`), or one enabled here when a file runs under another config.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Runs a full garbage collection. */
export const gc = gcFunction();
