/**
 * Levelled logging that costs nothing when off: callers check `enabled(level)` before building a line.
 */
import type { LogLevel, Logger } from './options.js';
import { redactText } from './redact.js';

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** A logger bound to a level. */
export class LevelLogger {
  readonly #logger: Logger | undefined;
  readonly #rank: number;

  constructor(logger: Logger | undefined, level: LogLevel | undefined) {
    this.#logger = logger;
    this.#rank = logger ? rank[level ?? 'info'] : 0;
  }

  /** True when a line at `level` would be written. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return this.#rank >= rank[level];
  }

  /**
   * Writes `message` when `level` is enabled, with every one of `secrets` removed from it. A logger is an
   * observer: one that throws, or returns a promise that rejects, never changes what a call does.
   */
  log(level: Exclude<LogLevel, 'off'>, message: string, secrets: readonly string[] = []): void {
    // Without a logger the rank is 0, so nothing is enabled.
    if (!this.enabled(level)) return;
    try {
      const result: unknown = this.#logger?.[level](`[wfa] ${redactText(message, secrets)}`);
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    } catch {
      // Ignored: see above.
    }
  }
}
