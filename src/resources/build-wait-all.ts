/** `builds.waitForAll`: many waits at once, each settled on its own, like `Promise.allSettled`. */
import { ValidationError, type WfaError } from '../core/errors.js';
import type { HttpCore } from '../core/http.js';
import type { CompletedBuild } from './build.js';
import { checkWaitOptions, targetOf, waitChecked, type BuildTarget, type WaitForBuildOptions } from './build-wait.js';

/**
 * How one build of `builds.waitForAll` ended: the shape of `Promise.allSettled`'s results, with the build's id.
 * `reason` is what `builds.wait` would have rejected with.
 */
export type BuildWaitResult =
  | {
      /** The build completed. */
      readonly status: 'fulfilled';
      /** The build's id, as given or read from the workflow. */
      readonly buildId: string;
      /** The completed build, its `download_url` a string. */
      readonly value: CompletedBuild;
    }
  | {
      /** The wait failed: the build failed, timed out, was aborted, or a poll's error ended it. */
      readonly status: 'rejected';
      /** The build's id, as given or read from the workflow. */
      readonly buildId: string;
      /** Why: a `BuildFailedError`, `WaitTimeoutError`, `AbortError` or the poll's error. */
      readonly reason: WfaError;
    };

const CALLER = 'builds.waitForAll';

/** Every target and the options are checked before any wait starts; a build listed twice is waited for once. */
export async function waitForAll(
  core: HttpCore,
  targets: readonly BuildTarget[],
  options: WaitForBuildOptions | null | undefined,
): Promise<BuildWaitResult[]> {
  if (!Array.isArray(targets)) {
    throw new ValidationError(`targets of ${CALLER}`, [
      { path: [], message: 'must be an array of build ids or workflows', code: 'invalid_type' },
    ]);
  }
  const settings = checkWaitOptions(options, CALLER);
  const checked = targets.map((target, i) => targetOf(target, `${CALLER} (targets[${i}])`));
  const waits = new Map<string, Promise<BuildWaitResult>>();
  for (const target of checked) {
    const { buildId } = target;
    if (waits.has(buildId)) continue;
    const settled = waitChecked(core, target, settings).then(
      (value) => ({ status: 'fulfilled' as const, buildId, value }),
      (reason: WfaError) => ({ status: 'rejected' as const, buildId, reason }),
    );
    waits.set(buildId, settled);
  }
  return Promise.all(checked.map((target) => waits.get(target.buildId)!));
}
