/**
 * Builds: started by creating a workflow; `building` with a `progress` figure, then `completed` with a
 * `download_url`.
 */
import type { RequestOptions } from '../core/options.js';
import { isHttpUrl } from '../core/url.js';
import {
  idSegment,
  looseObject,
  checked,
  nullableNumber,
  openString,
  optional,
  parsesTo,
  string,
  unknown,
} from '../core/schema.js';
import { waitForBuild, watchBuild, type BuildTarget, type WaitForBuildOptions, type WatchBuildOptions } from './build-wait.js';
import { Resource, coreOf } from './resource.js';

/**
 * Build statuses the SDK knows. `Build['status']` accepts any other string too, and a wait treats it as still running.
 *
 * @example
 * ```ts
 * const done = (status: BuildStatus | (string & {})) => status === 'completed';
 * ```
 */
export type BuildStatus = 'building' | 'completed' | 'failed' | 'error' | 'cancelled' | 'canceled';

/**
 * A build's state as returned by the service.
 *
 * @example
 * ```ts
 * const build: Build = await client.builds.get('bld_1');
 * if (build.status === 'building') console.log(`${build.progress ?? 0}%`);
 * ```
 */
export interface Build {
  /** Its id; not in every response. */
  id?: string | undefined;
  /** A status this SDK does not know is kept, and a wait treats it as still running. */
  status: BuildStatus | (string & {});
  /** How far it has got, while `building`. */
  progress?: number | null | undefined;
  /** Where to download what was built, once `completed`. */
  download_url?: string | null | undefined;
  /** Kept as received: the spec mentions logs without showing their shape. */
  logs?: unknown;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/** An http(s) URL or `null`: the webhook parser's rule for a download URL, so a `javascript:` URL is refused. */
/* @__NO_SIDE_EFFECTS__ */
function nullableHttpUrl() {
  return checked<string | null>('an http(s) URL or null', (value) => value === null || (typeof value === 'string' && isHttpUrl(value)));
}

/** The schema of a build's status: the values the SDK knows, and any other string. */
export const BuildStatusSchema = openString(['building', 'completed', 'failed', 'error', 'cancelled', 'canceled']);

/** The schema of a build; `download_url` is an http(s) URL, as in a webhook event. */
export const BuildSchema = /* @__PURE__ */ parsesTo<Build>()(
  looseObject({
    id: optional(string()),
    status: BuildStatusSchema,
    progress: optional(nullableNumber()),
    download_url: optional(nullableHttpUrl()),
    logs: optional(unknown()),
  }),
);

/**
 * A build that reached `completed`: its `download_url` is a string.
 *
 * @example
 * ```ts
 * function download(build: CompletedBuild) { return fetch(build.download_url); }
 * ```
 */
export type CompletedBuild = Build & {
  /** Always `completed`: a wait resolves with nothing else. */
  status: 'completed';
  /** Checked present by the wait, so it needs no check of yours. */
  download_url: string;
};

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
    return coreOf(this).request({ ...options, method: 'GET', path, schema: BuildSchema, what: 'build' });
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
    return waitForBuild(coreOf(this), BuildSchema, target, options, 'waitForBuild');
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
    return watchBuild(coreOf(this), BuildSchema, target, options, 'builds.watch');
  }
}
