/** The build model and its schema, shared by the builds resource and by build waits. */
import { checked, looseObject, nullableNumber, openString, optional, parsesTo, string, unknown } from '../core/schema.js';
import { isHttpUrl } from '../core/url.js';

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

export const BuildStatusSchema = openString(['building', 'completed', 'failed', 'error', 'cancelled', 'canceled']);

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
 * True when a build has completed with a download URL: narrows what `builds.get()` and `builds.watch()` give
 * to a {@link CompletedBuild}, so `download_url` is a `string` without a `!`.
 *
 * @example
 * ```ts
 * const build = await client.builds.get(workflow.build_id);
 * if (isCompletedBuild(build)) console.log(build.download_url.length);
 * ```
 */
export function isCompletedBuild(build: Build): build is CompletedBuild {
  return build.status === 'completed' && typeof build.download_url === 'string';
}
