import type { CoreRequest, HttpCore } from '../core/http.js';
import { ApiPromise } from './api-promise.js';

// Outside the class, so a resource's published declaration names no part of the core (whose types refer to
// zod), and inspecting a client shows nothing of its configuration.
const cores = new WeakMap<Resource, HttpCore>();

/** What every resource namespace shares: the client's HTTP core. */
export abstract class Resource {
  /**
   * @internal Resources are made by `Client`, with its `HttpCore`; typed `object` so that the published
   * types do not carry the core's declarations.
   */
  constructor(core: object) {
    cores.set(this, core as HttpCore);
  }
}

export function coreOf(resource: Resource): HttpCore {
  // Set by the constructor, which every resource runs.
  return cores.get(resource)!;
}

/** One request as an `ApiPromise`; `build` runs when it is sent, so its `ValidationError` is a rejection. */
export function call<T>(core: HttpCore, build: () => CoreRequest<T>): ApiPromise<T> {
  return new ApiPromise(async (raw) => core.request(build(), raw));
}

/**
 * Any JSON value, for bodies whose shape the service does not document.
 *
 * @example
 * ```ts
 * const result: JsonValue | undefined = await client.workflows.delete('wf_1');
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
