/**
 * Integrations: third-party platform API keys kept by the service for the user. The key sent with `save` is a
 * secret: it never appears in an error or a log line, even when the service echoes it back in an error body.
 */
import type { RequestOptions } from '../core/options.js';
import { listPages, type PagePromise, type PageParams } from '../core/pagination.js';
import * as z from 'zod/mini';
import { checkInput, idSegment, looseObject, nonEmptyString, positiveInt, stringOrNumber } from '../core/schema.js';
import { Resource, type JsonValue } from './resource.js';

/**
 * The schema of a saved integration. The spec does not show the record, so every field is optional and kept
 * (whether `api_key` comes back masked is up to the service).
 */
export const IntegrationSchema = looseObject({
  id: z.optional(stringOrNumber()),
  platform: z.optional(z.string()),
  label: z.optional(z.nullable(z.string())),
  api_key: z.optional(z.nullable(z.string())),
});

/**
 * A saved integration as returned by the service.
 *
 * @example
 * ```ts
 * const saved: Integration = await client.integrations.save({ platform: 'shopify', api_key: 'shpat_…', label: 'Store' });
 * ```
 */
export type Integration = z.infer<typeof IntegrationSchema>;

/** The schema of `integrations.save` input: checked before sending. */
export const IntegrationSaveSchema = looseObject({
  platform: nonEmptyString(),
  api_key: nonEmptyString(),
  label: z.optional(z.string()),
});

/**
 * What `integrations.save` takes.
 *
 * @example
 * ```ts
 * const input: IntegrationSaveParams = { platform: 'shopify', api_key: process.env.SHOPIFY_KEY!, label: 'Main store' };
 * ```
 */
export type IntegrationSaveParams = z.input<typeof IntegrationSaveSchema>;

const ListSchema = z.strictObject({ page: z.optional(positiveInt()), limit: z.optional(positiveInt()) });

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
  async save(params: IntegrationSaveParams, options?: RequestOptions): Promise<Integration> {
    const body = checkInput(IntegrationSaveSchema, params, 'input to integrations.save');
    return this.core.request({
      ...options,
      method: 'POST',
      path: '/integrations',
      body,
      schema: IntegrationSchema,
      what: 'integration',
      secrets: [body.api_key],
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
  list(params: PageParams = {}, options?: RequestOptions): PagePromise<Integration> {
    return listPages(this.core, { path: '/integrations', plural: 'integrations', item: IntegrationSchema, query: { ...params } }, options, () => {
      checkInput(ListSchema, params, 'parameters of integrations.list');
    });
  }

  /**
   * Removes a saved key. Resolves to `undefined` for an empty answer (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.integrations.delete('int_1');
   * ```
   */
  async delete(id: string | number, options?: RequestOptions): Promise<JsonValue | void> {
    const path = `/integrations/${idSegment(id, 'integration id')}`;
    return this.core.request<JsonValue | undefined>({ ...options, method: 'DELETE', path });
  }
}
