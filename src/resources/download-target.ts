/** From what `builds.download` and `downloadToFile` are given (a build, its id, a workflow) to a started transfer. */
import { downloadOptionsSchema, type DownloadOptions } from '../core/download-options.js';
import { BuildFailedError, TimeoutError, ValidationError, WfaError } from '../core/errors.js';
import { noFileSystem, pastDeadline } from '../core/failures.js';
import { now } from '../core/timing.js';
import { usableSecrets } from '../core/redact.js';
import { hasCredentials } from '../core/url.js';
import { checkInput, idSegment } from '../core/schema.js';
import type { Transfer } from '../core/transfer.js';
import type { DownloadedFile } from '../core/write-to-file.js';
import { BUILD_MODELS, buildEnd } from './build.js';
import { coreOf, send, type Resource } from './resource.js';

/**
 * What a download accepts: a build id, a build (its `download_url` is used as is, and its `id` read again if
 * that URL has expired), or a workflow (its `build_id`).
 */
export type DownloadTarget =
  | string
  | {
      /** A build's id (or a workflow's, which is not used). */
      readonly id?: string | undefined;
      /** A workflow's build. */
      readonly build_id?: string | null | undefined;
      /** A build's download URL. */
      readonly download_url?: string | null | undefined;
      /** A build's status. */
      readonly status?: string | undefined;
    };

/**
 * Why a download URL cannot be used, if it cannot. Fetch refuses an unparseable URL or `user:password@` with an
 * error quoting the whole URL, signature and all, so such a URL is refused first, never quoted.
 */
function urlProblem(url: string): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return 'is not a valid URL; it is not shown';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  if (hasCredentials(parsed)) return 'must not carry a user name or password (user:password@): fetch refuses them; the URL is not shown';
  return undefined;
}

function invalid(message: string, path: string[] = []): ValidationError {
  return new ValidationError('download target', [{ path, message, code: 'invalid_value' }]);
}

/** The build id to read, and a URL already known (a completed build given as an object). */
function parseTarget(target: DownloadTarget): { id: string | undefined; url: string | undefined } {
  if (typeof target === 'string') return { id: target, url: undefined };
  if (typeof target !== 'object' || target === null) throw invalid('must be a build id, a build or a workflow');
  if (typeof target.build_id === 'string' && target.build_id !== '') return { id: target.build_id, url: undefined };
  const url = typeof target.download_url === 'string' ? target.download_url : undefined;
  const isBuild = 'download_url' in target || ('status' in target && !('build_id' in target));
  const id = isBuild && typeof target.id === 'string' && target.id !== '' ? target.id : undefined;
  if (url === undefined && id === undefined)
    throw invalid('has no build_id, id or download_url: there is nothing to download', ['build_id']);
  const problem = url === undefined ? undefined : urlProblem(url);
  if (problem) throw invalid(problem, ['download_url']);
  return { id, url };
}

/** Reads the build for its `download_url` (the table's `builds.get`), within what is left of the download's deadline. */
async function readUrl(builds: Resource, id: string, options: DownloadOptions & { deadline: number }): Promise<string> {
  const { signal, timeoutMs, maxRetries, deadline, deadlineMs } = options;
  const left = deadlineMs === undefined ? undefined : Math.max(1, Math.ceil(deadline - now()));
  const build = await send(coreOf(builds), 'builds.get', BUILD_MODELS, {
    id,
    options: { signal, timeoutMs, maxRetries, deadlineMs: left },
  }).catch((error: unknown) => {
    // The read's own deadline is what was left of the download's: the error names the download's.
    if (error instanceof TimeoutError && error.reason === 'deadline' && deadlineMs !== undefined)
      throw pastDeadline(`Downloading build ${id}`, deadlineMs);
    throw error;
  });
  const end = buildEnd(build.status);
  if (end === 'failed') throw new BuildFailedError(id, build);
  if (end !== 'completed' || typeof build.download_url !== 'string') {
    throw new WfaError(`Build ${id} has no artifact to download yet (status ${build.status}); wait for it first: client.waitForBuild()`);
  }
  const problem = urlProblem(build.download_url);
  if (problem) throw new WfaError(`Build ${id}: its download_url ${problem}`);
  return build.download_url;
}

/**
 * Checks the options and the target (nothing sent), then gives what starts the transfer: reads the build if
 * needed, and connects, so a download that cannot start rejects there.
 */
async function prepare(builds: Resource, target: DownloadTarget, given: unknown, file: boolean): Promise<() => Promise<Transfer>> {
  // The transfer code is loaded on first use: most apps never download, and a browser bundle leaves it out.
  const { Transfer } = await import('../core/transfer.js');
  const options =
    checkInput(downloadOptionsSchema(), given ?? undefined, `options of builds.${file ? 'downloadToFile' : 'download'}`) ?? {};
  const { id, url } = parseTarget(target);
  if (url === undefined) idSegment(id, 'build id');
  return async () => {
    const { deadlineMs, timeoutMs, maxRetries } = options;
    const core = coreOf(builds);
    const bounds = { ...options, deadline: deadlineMs === undefined ? Number.POSITIVE_INFINITY : now() + deadlineMs };
    const transfer = new Transfer({
      ...bounds,
      url: url ?? (await readUrl(builds, id!, bounds)),
      transport: core.settings.transport,
      refresh: id === undefined ? undefined : () => readUrl(builds, id, bounds),
      timeoutMs: timeoutMs ?? core.settings.timeoutMs,
      maxRetries: maxRetries ?? core.settings.maxRetries,
      log: core.log,
      restartable: file,
      secrets: usableSecrets([core.lastKey, typeof core.settings.apiKey === 'string' ? core.settings.apiKey : undefined]),
    });
    await transfer.open();
    return transfer;
  };
}

/** `builds.download`: the artifact as a Web stream. */
export async function downloadStream(builds: Resource, target: DownloadTarget, options: unknown): Promise<ReadableStream<Uint8Array>> {
  const start = await prepare(builds, target, options, false);
  const { transferStream } = await import('../core/transfer.js');
  return transferStream(await start());
}

/** `builds.downloadToFile`: the artifact written to `path`, which is checked before anything is sent. */
export async function downloadFile(builds: Resource, target: DownloadTarget, path: string, options: unknown): Promise<DownloadedFile> {
  const start = await prepare(builds, target, options, true);
  const writer = await (await import('../core/file-writer.js')).loadFileWriter?.(); // not loaded by the root's import
  if (!writer) throw noFileSystem();
  return writer.writeToFile(start, path);
}
