/**
 * Writes a download to a file on Node, Bun and Deno: into a temporary file beside the target, renamed over
 * it only once complete, so a failed download leaves nothing under the target's name. `node:fs` comes from
 * `process.getBuiltinModule` when called, so neither browser bundles nor Workers ever see it.
 */
import type { Transfer } from './download.js';
import { ValidationError, WfaError } from './errors.js';

/**
 * What `builds.downloadToFile` resolves with.
 *
 * @example
 * ```ts
 * const { path, bytes } = await client.builds.downloadToFile('bld_1', 'build.zip');
 * ```
 */
export interface DownloadedFile {
  /** The path written, as given. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
}

interface FileHandle {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<unknown>;
  truncate(length: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

interface Fs {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: boolean }): Promise<void>;
  stat(path: string): Promise<{ isDirectory(): boolean }>;
}

export async function writeToFile(open: () => Promise<Transfer>, path: string): Promise<DownloadedFile> {
  // No import of node:fs at all, which a Worker would refuse to load and a browser bundler to resolve.
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises') as Fs | undefined;
  if (!fs) throw new WfaError('downloadToFile needs Node 20.16 or later, Bun or Deno: use builds.download() for a stream');
  // Checked first: the rename would only fail (EISDIR) after the whole download.
  if ((await fs.stat(path).catch(() => undefined))?.isDirectory()) {
    throw new ValidationError('downloadToFile', [{ path: ['path'], message: `is a directory: ${path}`, code: 'invalid_value' }]);
  }
  const transfer = await open();
  const temp = `${path}.${Math.random().toString(36).slice(2, 10)}.part`;
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(temp, 'wx');
    let position = 0;
    for (;;) {
      const step = await transfer.next();
      if ('done' in step) break;
      if ('restart' in step) {
        await handle.truncate(0);
        position = 0;
        continue;
      }
      // Written before the next chunk is read: one chunk in memory at a time, whatever the artifact's size.
      await handle.write(step.chunk, 0, step.chunk.byteLength, position);
      position += step.chunk.byteLength;
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, path);
    return { path, bytes: position };
  } catch (error) {
    transfer.cancel();
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
