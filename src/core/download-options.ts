/** The options of a download and their schema, parsed once before anything is sent. */
import * as z from 'zod/mini';
import { checked } from './schema.js';
import { abortSignal, func, milliseconds, retries } from './settings.js';

/** How far a download has got, given to `onProgress` after each chunk. */
export interface DownloadProgress {
  /** Bytes received so far (after a restart, counted again from 0). */
  readonly bytes: number;
  /** The artifact's size, when the host said it (`Content-Length` or `Content-Range`). */
  readonly total: number | undefined;
}

/**
 * Options of `builds.download` and `builds.downloadToFile`.
 *
 * @example
 * ```ts
 * await client.builds.downloadToFile(build, 'build.zip', { maxBytes: 500 * 1024 * 1024, signal: AbortSignal.timeout(600_000) });
 * ```
 */
export interface DownloadOptions {
  /**
   * Aborts the download (and the build read, if one is needed); it rejects or errors with `AbortError`. Its
   * connection is let go at the abort, while a stream is not being read too.
   */
  signal?: AbortSignal | undefined;
  /** Called after each chunk. An observer: if it throws, rejects or hangs, the download goes on (and logs a warning). */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** The most bytes accepted; a larger artifact fails with `ResponseValidationError`, before reading when its size is declared. */
  maxBytes?: number | undefined;
  /** The longest wait for the response or for the next chunk, in ms; a stall counts as a dropped connection. Default: the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** The whole download's time, in ms, its build reads included; past it, `TimeoutError` with `reason: 'deadline'`. Default: none. */
  deadlineMs?: number | undefined;
  /** Retries (a resume or a new request) in a row without a new byte received, 0 to 10. Default: the client's `maxRetries`. */
  maxRetries?: number | undefined;
}

export function downloadOptionsSchema() {
  return z.optional(
    z.looseObject({
      // The fields a call's options share are the client's rules (settings.ts), so one bad value reads the same everywhere.
      signal: z.optional(abortSignal()),
      onProgress: z.optional(func<DownloadOptions['onProgress']>()),
      maxBytes: z.optional(checked<number>('a whole number of bytes >= 0', (v) => Number.isSafeInteger(v) && (v as number) >= 0)),
      timeoutMs: z.optional(milliseconds()),
      deadlineMs: z.optional(milliseconds()),
      maxRetries: z.optional(retries()),
    }),
  );
}
