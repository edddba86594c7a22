/** The integration model: a third-party platform's API key kept by the service. */
import { looseObject, nonEmptyString, nullableString, optional, parsesTo, string, stringOrNumber, type Schema } from '../core/schema.js';

/** A saved integration as returned by the service. */
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

/** What `integrations.save` takes. */
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
let integration: Schema<Integration> | undefined;
export const integrationSchema = () =>
  (integration ??= parsesTo<Integration>()(
    looseObject({
      id: optional(stringOrNumber()),
      platform: optional(string()),
      label: optional(nullableString()),
      api_key: optional(nullableString()),
    }),
  ));

let save: Schema<IntegrationSaveParams> | undefined;
export const integrationSaveSchema = () =>
  (save ??= parsesTo<IntegrationSaveParams>()(
    looseObject({ platform: nonEmptyString(), api_key: nonEmptyString(), label: optional(string()) }),
  ));
