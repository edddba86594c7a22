import type { HttpCore } from '../core/http.js';

// The core of each resource, outside the class: a resource's published declaration then names no part of
// the HTTP core (whose request type refers to zod), and inspecting a client shows its namespaces and nothing
// of its configuration.
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

/** The HTTP core a resource was made with. */
export function coreOf(resource: Resource): HttpCore {
  // Set by the constructor, which every resource runs.
  return cores.get(resource)!;
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
