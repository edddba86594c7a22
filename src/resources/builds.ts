/**
 * `client.builds`: read a build, wait for it to complete, or watch it change.
 */
import type { RequestOptions } from '../core/options.js';
import { idSegment } from '../core/schema.js';
import { BuildSchema, type Build, type CompletedBuild } from './build.js';
import { waitForBuild, watchBuild, type BuildTarget, type WaitForBuildOptions, type WatchBuildOptions } from './build-wait.js';
import { Resource, coreOf } from './resource.js';

/**
 * `client.builds`: read a build's state, wait for it to finish, or watch it change.
 *
 * @example
 * ```ts
 * const build = await client.builds.get(workflow.build_id!);
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
  async get(id: string, options?: RequestOptions): Promise<Build> {
    const path = `/builds/${idSegment(id, 'build id')}`;
    return coreOf(this).request({ ...options, method: 'GET', path, response: { name: 'build', schema: BuildSchema } });
  }

  /**
   * Polls a build until it completes and resolves with it (`download_url` typed as a string). Same as
   * `client.waitForBuild`.
   *
   * Rejects with `BuildFailedError` (status `failed`, `error`, `cancelled` or `canceled`, in any case; carries
   * the build and its logs), `WaitTimeoutError` (after `timeoutMs`, default 10 minutes; carries the last build
   * seen), `AbortError` (the `signal`), `ValidationError` (no build id; nothing sent), `ResponseValidationError`
   * (a poll without a string `status`, or a `completed` build without an http(s) `download_url`), or the API error of a poll that cannot succeed by trying
   * again (401, 403, 404, other 4xx). Connection errors, timeouts, 408, 429 and 5xx only delay the next poll.
   *
   * Polls at once, then every `intervalMs` (default 2000); while status and progress stay the same the
   * interval grows by 1.5x per poll up to `maxIntervalMs` (default 5x the interval, at most 10 s unless the
   * interval is longer), and a `Retry-After` from the service is respected up to `MAX_RETRY_AFTER_MS`. Every timer and signal
   * listener is released when the wait ends, whichever way it ends.
   *
   * @param target - a build id, or a workflow (its `build_id` is used)
   * @example
   * ```ts
   * const build = await client.builds.wait(workflow, {
   *   timeoutMs: 5 * 60_000,
   *   onProgress: (b) => console.log(`${b.status} ${b.progress ?? 0}%`),
   * });
   * console.log(build.download_url);
   * ```
   */
  async wait(target: BuildTarget, options?: WaitForBuildOptions | null): Promise<CompletedBuild> {
    return waitForBuild(coreOf(this), target, options, 'waitForBuild');
  }

  /**
   * Polls a build on the same schedule as {@link Builds.wait} and yields each new state (first seen, then each
   * change of `status` or `progress`), ending after the terminal one. A failed build is yielded as its last
   * state, not thrown: check `status` after the loop. Throws `WaitTimeoutError`, `AbortError` or a poll's
   * unrecoverable error like `wait`. Nothing is sent until iteration starts, nothing runs while the loop body
   * runs, and leaving the loop early (`break`, `return`, a throw) stops polling.
   *
   * @param target - a build id, or a workflow (its `build_id` is used)
   * @example
   * ```ts
   * let last: Build | undefined;
   * for await (const build of client.builds.watch('bld_1', { intervalMs: 1000 })) {
   *   console.log(build.status, build.progress);
   *   last = build;
   * }
   * if (last?.status === 'completed') console.log(last.download_url);
   * ```
   */
  watch(target: BuildTarget, options?: WatchBuildOptions | null): AsyncGenerator<Build, void, undefined> {
    return watchBuild(coreOf(this), target, options, 'builds.watch');
  }
}
