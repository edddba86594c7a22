/**
 * Writes a download to a file on Node, Bun and Deno: into a temporary file beside the target, created before any
 * request and renamed over the target only once complete, so a failed download leaves nothing under its name.
 * `node:fs` comes from `process.getBuiltinModule` when called, so neither browser bundles nor Workers see it.
 */
import type { Transfer } from './transfer.js';
import { ValidationError, WfaError } from './errors.js';
import { noFileSystem } from './failures.js';

/** What `builds.downloadToFile` resolves with. */
export interface DownloadedFile {
  /** The path written, as given. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
}

/** Why a path can never be written, by the error creating a file there gives. */
const NEVER: Record<string, string> = {
  ENOENT: 'is in a folder that does not exist',
  ENOTDIR: 'is under a file, not a folder',
  EACCES: 'is in a folder that may not be written',
  ERR_INVALID_ARG_VALUE: 'holds a NUL byte',
};

export async function writeToFile(open: () => Promise<Transfer>, path: string): Promise<DownloadedFile> {
  const refuse = (message: string) => new ValidationError('downloadToFile', [{ path: ['path'], message, code: 'invalid_value' }]);
  if (typeof path !== 'string' || path === '') throw refuse('must be a non-empty string');
  // No import of node:fs at all, which a Worker would refuse to load and a browser bundler to resolve.
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises') as typeof import('node:fs/promises') | undefined;
  if (!fs) throw noFileSystem();
  const code = (cause: unknown) => (cause as { code?: unknown } | null)?.code;
  const file = <T>(work: Promise<T>) =>
    work.catch((cause: unknown) => Promise.reject(new WfaError(`Writing the download to ${path} failed (${code(cause)})`, { cause })));
  // Checked first: the rename would only fail (EISDIR) after the whole download.
  if ((await fs.stat(path).catch(() => undefined))?.isDirectory()) throw refuse(`is a directory: ${path}`);
  const temp = `${path}.${Math.random().toString(36).slice(2, 10)}.part`;
  // Before any request: a path that can never be written fails before the hosts are asked.
  const handle = await file(fs.open(temp, 'wx')).catch((error: WfaError) => {
    const never = NEVER[String(code(error.cause))];
    throw never ? refuse(`${never}: ${JSON.stringify(path)}`) : error;
  });
  let transfer: Transfer | undefined;
  try {
    transfer = await open();
    let position = 0;
    for (let step = await transfer.next(); !('done' in step); step = await transfer.next()) {
      if ('restart' in step) position = await file(handle.truncate(0)).then(() => 0);
      else {
        // Written before the next chunk is read: one chunk in memory at a time, whatever the artifact's size.
        await file(handle.write(step.chunk, 0, step.chunk.byteLength, position));
        position += step.chunk.byteLength;
      }
    }
    await file(handle.sync());
    await file(handle.close());
    await file(fs.rename(temp, path));
    return { path, bytes: position };
  } catch (error) {
    transfer?.cancel();
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
