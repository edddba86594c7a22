/** The build model and its schema, shared by the builds resource, build waits and downloads. */
import {
  checked,
  looseObject,
  nullableNumber,
  openString,
  optional,
  parsesTo,
  refine,
  string,
  unknown,
  type Schema,
} from '../core/schema.js';
import { isHttpUrl } from '../core/url.js';

/**
 * Build statuses the SDK knows. A build keeps any other status, typed {@link UnknownBuildStatus}.
 */
export type BuildStatus = 'building' | 'completed' | 'failed' | 'error' | 'cancelled' | 'canceled';

/**
 * The type of a status this SDK does not know; at runtime it is the real string. Unlike `string`, it lets
 * `build.status === 'completed'` narrow a {@link Build}; to compare it with a status the SDK does not know,
 * widen it to `string` first.
 *
 * @example
 * ```ts
 * const status: string = build.status; // widen, then compare with any status
 * if (status === 'queued') console.log('not started yet');
 * ```
 */
export type UnknownBuildStatus = BuildStatusUnknownToThisSdk;

// Why an enum: docs/design.md, "An opaque type for event kinds the SDK does not know". Not exported: it has
// no runtime value.
declare enum BuildStatusUnknownToThisSdk {
  Opaque = '',
}

/** What every build state has; `S` is the type of its status. */
interface BuildState<S> {
  /** Its id; not in every response. */
  id?: string | undefined;
  /** Compare it with `'completed'` to narrow the build. */
  status: S;
  /** How far it has got, while `building`. */
  progress?: number | null | undefined;
  /** Where to download what was built, once `completed`. */
  download_url?: string | null | undefined;
  /** Kept as received: the spec mentions logs without showing their shape. */
  logs?: unknown;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * A build that reached `completed`: its `download_url` is a string.
 */
export interface CompletedBuild extends BuildState<'completed'> {
  /** Checked present (and http(s)) whenever the SDK reads a completed build. */
  download_url: string;
}

/**
 * A build's state as returned by the service. Comparing `status` with `'completed'` narrows it to a
 * {@link CompletedBuild}; a status this SDK does not know is kept, and a wait treats it as still running.
 *
 * @example
 * ```ts
 * const build: Build = await client.builds.get('bld_1');
 * if (build.status === 'completed') console.log(build.download_url); // a string
 * else if (build.status === 'building') console.log(`${build.progress ?? 0}%`);
 * ```
 */
export type Build = CompletedBuild | BuildState<Exclude<BuildStatus, 'completed'> | UnknownBuildStatus>;

/** The statuses that end a build without an artifact, in lower case. */
const BUILD_FAILURE_STATUSES: readonly string[] = ['failed', 'error', 'cancelled', 'canceled'];

/** How a status ends a build, in any case (`FAILED` is a failure); `undefined` while it may still change. */
export function buildEnd(status: unknown): 'completed' | 'failed' | undefined {
  const lower = String(status).toLowerCase();
  if (lower === 'completed') return 'completed';
  return BUILD_FAILURE_STATUSES.includes(lower) ? 'failed' : undefined;
}

/** What makes `CompletedBuild` true: a build completed (in any case) has an http(s) URL, the webhook parser's rule. */
function hasItsUrl(build: { status?: unknown; download_url?: unknown }): boolean {
  return buildEnd(build.status) !== 'completed' || (typeof build.download_url === 'string' && isHttpUrl(build.download_url));
}

const NO_URL = 'must be an http(s) URL on a completed build';

let build: Schema<Build> | undefined;
/**
 * What builds are checked against, wherever the SDK reads one (built on first use, as every model's is). The
 * refinement is what makes it a `Build`, so that the cast holds; a `javascript:` URL is refused.
 */
export const buildSchema = () =>
  (build ??= parsesTo<BuildState<BuildStatus | (string & {})>>()(
    looseObject({
      id: optional(string()),
      status: openString<BuildStatus>(),
      progress: optional(nullableNumber()),
      download_url: optional(
        checked<string | null>('an http(s) URL or null', (url) => url === null || (typeof url === 'string' && isHttpUrl(url))),
      ),
      logs: optional(unknown()),
    }).check(refine(hasItsUrl, NO_URL, ['download_url'])),
  ) as Schema<Build>);

let rule: Schema<unknown> | undefined;
/** `buildSchema`'s refinement alone, for `builds.get` with `validateResponses: false`: the rest is kept as received. */
export const completedBuildRule = () =>
  (rule ??= unknown().check(
    refine((value: unknown) => typeof value !== 'object' || value === null || hasItsUrl(value), NO_URL, ['download_url']),
  ));

/** The models of `builds.get` (resource.ts): polls and downloads read builds through it too. */
export const BUILD_MODELS = { response: buildSchema, always: completedBuildRule };

/**
 * True when a build has completed with a download URL: the same narrowing as `status === 'completed'`, for a
 * build from a source the SDK has not checked.
 */
export function isCompletedBuild(build: Build): build is CompletedBuild {
  return build.status === 'completed' && typeof build.download_url === 'string';
}
