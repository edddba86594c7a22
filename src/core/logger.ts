/** Levelled logging that costs nothing when off: callers check `enabled(level)` before building a line. */
import { readEnv, type LogLevel, type Logger } from './options.js';
import { observe } from './observe.js';
import { redactText } from './redact.js';

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export class LevelLogger {
  readonly #logger: Logger | undefined;
  readonly #rank: number;

  constructor(logger: Logger | undefined, level: LogLevel | undefined) {
    this.#logger = logger;
    this.#rank = logger ? rank[level ?? 'info'] : 0;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return this.#rank >= rank[level];
  }

  /** A logger only observes: one that throws or rejects never changes what a call does. */
  log(level: Exclude<LogLevel, 'off'>, message: string, secrets: readonly string[] = []): void {
    if (!this.enabled(level)) return;
    observe(() => this.#logger?.[level](`[wfa] ${redactText(message, secrets)}`));
  }
}

let warnedEnv = false;

/** A given logger wins; without one, `WFA_LOG` may turn on logging to `console`. A bad value warns once a process. */
export function clientLogger(logger: Logger | undefined, level: LogLevel | undefined): LevelLogger {
  if (logger) return new LevelLogger(logger, level);
  const wanted = readEnv('WFA_LOG')?.toLowerCase();
  if (wanted !== undefined && Object.hasOwn(rank, wanted)) return new LevelLogger(console, wanted as LogLevel);
  if (wanted !== undefined && !warnedEnv) {
    warnedEnv = true;
    // The value is not quoted: it could be anything, a secret pasted in the wrong variable included.
    console.warn('[wfa] WFA_LOG is not one of debug, info, warn, error, off; logging stays off');
  }
  return new LevelLogger(undefined, level);
}
