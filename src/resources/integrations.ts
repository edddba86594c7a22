import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import type { ApiPromise } from './api-promise.js';
import { integrationSaveSchema, integrationSchema, type Integration, type IntegrationSaveParams } from './integration.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import { list } from './list.js';
import { Resource, coreOf, send, type Core, type JsonValue } from './resource.js';

/** `client.integrations`: save, list and remove third-party platform keys. */
export class Integrations extends Resource {
  /**
   * Saves (or, as the service decides, updates) the key for a platform. The key never appears in an error or
   * a log line, even when the service echoes it back in an error body.
   *
   * @example
   * ```ts
   * const saved = await client.integrations.save({ platform: 'shopify', api_key: key, label: 'Main store' });
   * ```
   */
  save(params: IntegrationSaveParams, options?: RequestOptions): ApiPromise<Integration> {
    return integrationsSave(this.core, params, options);
  }

  /**
   * The saved keys, one page awaited or all with `for await`.
   *
   * @example
   * ```ts
   * const page = await client.integrations.list({ limit: 100 });
   * ```
   */
  list(params: PageParams = {}, options?: ListOptions): PagePromise<Integration> {
    return integrationsList(this.core, params, options);
  }

  /**
   * Removes a saved key. Resolves to `undefined` for an empty response (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.integrations.delete('int_1');
   * ```
   */
  delete(id: string | number, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
    return integrationsDelete(this.core, id, options);
  }
}

/** `client.integrations.save` as a function of a core (the `/funcs` entry): the key never appears in an error or log line. */
export function integrationsSave(core: Core, params: IntegrationSaveParams, options?: RequestOptions): ApiPromise<Integration> {
  return send(coreOf(core), 'integrations.save', { body: integrationSaveSchema, response: integrationSchema }, { body: params, options });
}

/** `client.integrations.list` as a function of a core. */
export function integrationsList(core: Core, params: PageParams = {}, options?: ListOptions): PagePromise<Integration> {
  return list(coreOf(core), 'integrations.list', integrationSchema, params, options);
}

/** `client.integrations.delete` as a function of a core. */
export function integrationsDelete(core: Core, id: string | number, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
  return send(coreOf(core), 'integrations.delete', {}, { id, options });
}
