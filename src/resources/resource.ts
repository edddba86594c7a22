import type { HttpCore } from '../core/http.js';

/**
 * What every resource namespace shares: the client's HTTP core, kept in a private field so that inspecting a
 * client shows its namespaces and nothing of its configuration.
 */
export abstract class Resource {
  readonly #core: HttpCore;

  /** @internal Resources are made by `Client`. */
  constructor(core: HttpCore) {
    this.#core = core;
  }

  /** @internal */
  protected get core(): HttpCore {
    return this.#core;
  }
}

/**
 * Any JSON value, for bodies whose shape the service does not document.
 *
 * @example
 * ```ts
 * const result: JsonValue | void = await client.workflows.delete('wf_1');
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
