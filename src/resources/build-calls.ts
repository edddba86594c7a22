/** The builds' functions of a core (`/funcs`), apart from the class: a bundler keeps the downloads' `import()`. */
import type { RequestOptions } from '../core/options.js';
import type { ApiPromise } from './api-promise.js';
import { BUILD_MODELS, type Build, type CompletedBuild } from './build.js';
import * as waits from './build-wait.js';
import { coreOf, send, type Core } from './resource.js';

/** `client.builds.get` as a function of a core (the `/funcs` entry). */
export function buildsGet(core: Core, id: string, options?: RequestOptions): ApiPromise<Build> {
  return send(coreOf(core), 'builds.get', BUILD_MODELS, { id, options });
}

/**
 * `client.waitForBuild` as a function of a core (the `/funcs` entry): polls a build until it completes and
 * resolves with it, rejecting as `client.builds.wait` documents.
 *
 * @example
 * ```ts
 * const build = await waitForBuild(core, workflow, { timeoutMs: 300_000 });
 * ```
 */
export function waitForBuild(core: Core, target: waits.BuildTarget, options?: waits.WaitForBuildOptions | null): Promise<CompletedBuild> {
  return waits.waitForBuild(coreOf(core), target, options);
}
