/** The failures said the same way everywhere, each in one wording; apart from `errors.ts`, whose classes are public. */
import { AbortError, TimeoutError, WfaError } from './errors.js';

/** `builds.downloadToFile` where there is no file system: a browser, a Worker, or Node before 20.16. */
export function noFileSystem(): WfaError {
  return new WfaError('downloadToFile needs Node 20.16 or later, Bun or Deno: use builds.download() for a stream');
}

/** Every abort by a caller's signal, in one wording: `<what> was aborted by its signal`. */
export function abortedBy(what: string, cause: unknown): AbortError {
  return new AbortError(`${what} was aborted by its signal`, { cause });
}

/** Every run past a `deadlineMs`, in one wording: `<what> ran past <whose> deadline (<ms> ms)`, then `where`. */
export function pastDeadline(what: string, ms: number, whose = 'its', where = ''): TimeoutError {
  return new TimeoutError(`${what} ran past ${whose} deadline (${ms} ms)${where}`, ms, 'deadline');
}
