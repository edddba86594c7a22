/** `client.builds`: read a build, wait for it to complete, or watch it change. */
import type { RequestOptions } from '../core/options.js';
import type { Build, CompletedBuild } from './build.js';
import { watchBuild, type BuildTarget, type WaitForBuildOptions, type WatchBuildOptions } from './build-wait.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, coreOf } from './resource.js';
import type { DownloadOptions } from '../core/download-options.js';
import type { DownloadedFile } from '../core/write-to-file.js';
import { downloadFile, downloadStream, type DownloadTarget } from './download-target.js';
import { notifyWaits, type BuildNotice } from './build-notify.js';
import { waitForAll, type BuildWaitResult } from './build-wait-all.js';
import { buildsGet, waitForBuild } from './build-calls.js';

/**
 * `client.builds`: read a build's state, wait for it to finish, or watch it change.
 *
 * @example
 * ```ts
 * const build = await client.builds.get(workflow.build_id);
 * const done = await client.builds.wait(workflow, { onProgress: (b) => console.log(b.progress) });
 * ```
 */
export class Builds extends Resource {
  /**
   * A build's current state by its id (a workflow's `build_id`).
   *
   * @example
   * ```ts
   * const { status, progress, download_url } = await client.builds.get('bld_1');
   * ```
   */
  get(id: string, options?: RequestOptions): ApiPromise<Build> {
    return buildsGet(this.core, id, options);
  }

  /**
   * Polls a build until it completes and resolves with it; the same as `client.waitForBuild`. Rejects with
   * `BuildFailedError`, `WaitTimeoutError`, `AbortError`, `ValidationError`, `ResponseValidationError`, or the
   * API error of a poll that cannot succeed by trying again: the schedule and each case in docs/waiting-for-builds.md.
   *
   * @param target - a build id, or a workflow (its `build_id` is used)
   */
  async wait(target: BuildTarget, options?: WaitForBuildOptions | null): Promise<CompletedBuild> {
    return waitForBuild(this.core, target, options);
  }

  /**
   * Waits for every build of a list at once, like {@link Builds.wait} with the same options for each, and
   * resolves when all have ended, in the list's order, each with its build or its error, as
   * `Promise.allSettled` does: one failed build hides no other. Rejects only with `ValidationError`, for a
   * bad target or option, before anything is sent.
   *
   * @param targets - build ids, or workflows (each one's `build_id` is used)
   * @example
   * ```ts
   * const results = await client.builds.waitForAll(workflows, { timeoutMs: 15 * 60_000 });
   * for (const r of results) {
   *   if (r.status === 'fulfilled') console.log(r.buildId, r.value.download_url);
   *   else console.error(r.buildId, r.reason.message);
   * }
   * ```
   */
  async waitForAll(targets: readonly BuildTarget[], options?: WaitForBuildOptions | null): Promise<BuildWaitResult[]> {
    return waitForAll(coreOf(this), targets, options);
  }

  /**
   * Tells this client's waits that a build may have ended, from a webhook delivery received in the same
   * process: each wait for that build (or for a build of that workflow) polls it at once, and ends only if
   * that poll says so, since a delivery may be forged. Returns how many waits will poll; a delivery nobody
   * waits for does nothing.
   *
   * @param notice - the event of a delivery, or a build id
   * @example
   * ```ts
   * const handler = createWebhookHandler({ on: { 'build.completed': (event) => client.builds.notify(event) } });
   * ```
   */
  notify(notice: BuildNotice | string): number {
    return notifyWaits(coreOf(this), notice);
  }

  /**
   * Polls like {@link Builds.wait} and yields each new state, ending after the terminal one, which is yielded
   * even when the build failed. Nothing is sent until iteration starts; leaving the loop stops polling.
   *
   * @param target - a build id, or a workflow (its `build_id` is used)
   * @example
   * ```ts
   * let last: Build | undefined;
   * for await (last of client.builds.watch('bld_1', { intervalMs: 1000 })) console.log(last.status, last.progress);
   * if (last?.status === 'completed') console.log(last.download_url); // a failed build is yielded, not thrown
   * ```
   */
  watch(target: BuildTarget, options?: WatchBuildOptions | null): AsyncGenerator<Build, void, undefined> {
    return watchBuild(coreOf(this), target, options);
  }

  /**
   * The artifact of a completed build, as a Web stream (every runtime), read only as fast as you consume it.
   * Resolves once the download host has answered; rejects first with `ValidationError` (bad input, nothing
   * sent), `BuildFailedError`, or `WfaError` (the build has not completed). The URL gets no API key and none of
   * the client's `headers`; drops are resumed, an expired URL is read again, and the stream's errors are listed
   * in docs/waiting-for-builds.md.
   *
   * @param target - a build id, a build (as `waitForBuild` gives it), or a workflow
   * @example
   * ```ts
   * const stream = await client.builds.download(build, { onProgress: ({ bytes, total }) => console.log(bytes, total) });
   * for await (const chunk of stream) hash.update(chunk);
   * ```
   */
  async download(target: DownloadTarget, options?: DownloadOptions | null): Promise<ReadableStream<Uint8Array>> {
    return downloadStream(this, target, options);
  }

  /**
   * Node, Bun and Deno: downloads the artifact to `path` like {@link Builds.download}, into a temporary file in
   * the same folder that is renamed to `path` only once complete. A failed download leaves no file at `path`
   * (an existing one is untouched) and removes the temporary one. A resume answered with the whole artifact
   * starts the file over. A `path` that is a directory is a `ValidationError` before anything is sent.
   *
   * @example
   * ```ts
   * const build = await client.waitForBuild(workflow);
   * const { path, bytes } = await client.builds.downloadToFile(build, 'build.zip');
   * ```
   */
  async downloadToFile(target: DownloadTarget, path: string, options?: DownloadOptions | null): Promise<DownloadedFile> {
    return downloadFile(this, target, path, options);
  }
}
