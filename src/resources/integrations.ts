/**
 * Integrations: third-party platform API keys kept by the service for the user. The key sent with `save` is a
 * secret: it never appears in an error or a log line, even when the service echoes it back in an error body.
 */
import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import { listEndpoint } from './list.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import {
  checkInput,
  idSegment,
  looseObject,
  nonEmptyString,
  nullableString,
  optional,
  parsesTo,
  string,
  stringOrNumber,
} from '../core/schema.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, call, coreOf, type JsonValue } from './resource.js';

/**
 * A saved integration as returned by the service.
 *
 * @example
 * ```ts
 * const saved: Integration = await client.integrations.save({ platform: 'shopify', api_key: 'shpat_…', label: 'Store' });
 * ```
 */
export interface Integration {
  /** Its id, for `integrations.delete`. */
  id?: string | number | undefined;
  /** The platform the key belongs to. */
  platform?: string | undefined;
  /** The label it was saved with. */
  label?: string | null | undefined;
  /** The platform's key as the service returns it, perhaps masked. */
  api_key?: string | null | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * What `integrations.save` takes.
 *
 * @example
 * ```ts
 * const input: IntegrationSaveParams = { platform: 'shopify', api_key: process.env.SHOPIFY_KEY!, label: 'Main store' };
 * ```
 */
export interface IntegrationSaveParams {
  /** The platform the key belongs to, such as `shopify`; not empty. */
  platform: string;
  /** The platform's API key (not this service's). Kept out of every error and log line, even when echoed. */
  api_key: string;
  /** A name to tell keys for the same platform apart. */
  label?: string | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/** The spec does not show the record, so every field is optional and kept. */
export const IntegrationSchema = /* @__PURE__ */ parsesTo<Integration>()(
  looseObject({
    id: optional(stringOrNumber()),
    platform: optional(string()),
    label: optional(nullableString()),
    api_key: optional(nullableString()),
  }),
);

export const IntegrationSaveSchema = /* @__PURE__ */ parsesTo<IntegrationSaveParams>()(
  looseObject({
    platform: nonEmptyString(),
    api_key: nonEmptyString(),
    label: optional(string()),
  }),
);

const listIntegrations = listEndpoint('integrations', IntegrationSchema);

/**
 * `client.integrations`: save, list and remove third-party platform keys.
 *
 * @example
 * ```ts
 * await client.integrations.save({ platform: 'shopify', api_key: key, label: 'Main store' });
 * for await (const integration of client.integrations.list()) console.log(integration.platform, integration.label);
 * ```
 */
export class Integrations extends Resource {
  /**
   * Saves (or, as the service decides, updates) the key for a platform.
   *
   * @example
   * ```ts
   * const saved = await client.integrations.save({ platform: 'shopify', api_key: key, label: 'Main store' });
   * ```
   */
  save(params: IntegrationSaveParams, options?: RequestOptions): ApiPromise<Integration> {
    return call(coreOf(this), () => {
      const body = checkInput(IntegrationSaveSchema, params, 'input to integrations.save');
      return {
        ...options,
        method: 'POST',
        path: '/integrations',
        body,
        response: { name: 'integration', schema: IntegrationSchema },
        secrets: [body.api_key],
      };
    });
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
    return listIntegrations(coreOf(this), params, options);
  }

  /**
   * Removes a saved key. Resolves to `undefined` for an empty answer (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.integrations.delete('int_1');
   * ```
   */
  delete(id: string | number, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
    return call<JsonValue | undefined>(coreOf(this), () => ({
      ...options,
      method: 'DELETE',
      path: `/integrations/${idSegment(id, 'integration id')}`,
      route: '/integrations/{id}',
    }));
  }
}
