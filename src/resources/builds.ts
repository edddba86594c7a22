/** `client.builds`: read a build, wait for it to complete, or watch it change. */
import type { RequestOptions } from '../core/options.js';
import { idSegment } from '../core/schema.js';
import { BuildSchema, type Build, type CompletedBuild } from './build.js';
import { waitForBuild, watchBuild, type BuildTarget, type WaitForBuildOptions, type WatchBuildOptions } from './build-wait.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, call, coreOf } from './resource.js';

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
    return call(coreOf(this), () => {
      const path = `/builds/${idSegment(id, 'build id')}`;
      return { ...options, method: 'GET', path, route: '/builds/{id}', response: { name: 'build', schema: BuildSchema } };
    });
  }

  /**
   * Polls a build until it completes and resolves with it (`download_url` typed as a string). Same as
   * `client.waitForBuild`; the schedule is in docs/waiting-for-builds.md.
   *
   * Rejects with `BuildFailedError` (a failure status, in any case), `WaitTimeoutError` (after `timeoutMs`,
   * default 10 minutes), `AbortError`, `ValidationError` (nothing sent), `ResponseValidationError` (no string
   * `status`, or a `completed` build without an http(s) `download_url`), or the API error of a poll that cannot
   * succeed by trying again. Connection errors, timeouts, 408, 429 and 5xx only delay the next poll.
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
   * Polls like {@link Builds.wait} and yields each new state, ending after the terminal one. A failed build is
   * yielded, not thrown: check `status` after the loop. Nothing is sent until iteration starts, and leaving
   * the loop early stops polling.
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
