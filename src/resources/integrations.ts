import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import type { ApiPromise } from './api-promise.js';
import type { Integration, IntegrationSaveParams } from './integration.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import { list } from './list.js';
import { Resource, send, type JsonValue } from './resource.js';

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
    return send(this, 'integrations.save', { body: params, options });
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
    return list(this, 'integrations.list', params, options);
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
    return send(this, 'integrations.delete', { id, options });
  }
}
