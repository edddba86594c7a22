/**
 * Builds: started by creating a workflow; `building` with a `progress` figure, then `completed` with a
 * `download_url`.
 */
import type { RequestOptions } from '../core/options.js';
import * as z from 'zod/mini';
import { idSegment, looseObject, openString } from '../core/schema.js';
import { Resource } from './resource.js';

/** Build statuses the SDK knows; any other string is accepted and treated as still running. */
export type BuildStatus = 'building' | 'completed' | 'failed' | 'error' | 'cancelled' | 'canceled';

/** The schema of a build; `download_url` is not URL-checked here (responses are trusted to be URLs). */
export const BuildSchema = looseObject({
  id: z.optional(z.string()),
  status: openString<BuildStatus>(),
  progress: z.optional(z.nullable(z.number())),
  download_url: z.optional(z.nullable(z.string())),
  /** The spec mentions logs without showing their shape: kept as received. */
  logs: z.optional(z.unknown()),
});

/**
 * A build's state as returned by the service.
 *
 * @example
 * ```ts
 * const build: Build = await client.builds.get('bld_1');
 * if (build.status === 'building') console.log(`${build.progress ?? 0}%`);
 * ```
 */
export type Build = z.infer<typeof BuildSchema>;

/**
 * A build that reached `completed`: its `download_url` is a string.
 *
 * @example
 * ```ts
 * function download(build: CompletedBuild) { return fetch(build.download_url); }
 * ```
 */
export type CompletedBuild = Build & { status: 'completed'; download_url: string };

/**
 * `client.builds`: read a build's state.
 *
 * @example
 * ```ts
 * const build = await client.builds.get(workflow.build_id!);
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
    return this.core.request({ ...options, method: 'GET', path, schema: BuildSchema, what: 'build' });
  }
}
