/**
 * Key issuing: `POST /v1/auth` with an email and password. The response is not specified, so the key is looked
 * for under the names services commonly use; the body is never put in an error, since it may hold a key.
 */
import { checkApiKey } from '../core/api-key.js';
import { ResponseValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { checkInput, nonEmptyString, parsesTo, refine, strictObject, string } from '../core/schema.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, call, coreOf } from './resource.js';

/**
 * What `auth.issueKey` and `Client.login` take.
 *
 * @example
 * ```ts
 * const credentials: Credentials = { email: 'demo@example.com', password: 'demo' };
 * ```
 */
export interface Credentials {
  /** The account's email address. */
  email: string;
  /** The account's password; not empty. Kept out of every error and log line. */
  password: string;
}

export const CredentialsSchema = /* @__PURE__ */ parsesTo<Credentials>()(
  strictObject({
    email: string().check(refine((value: string) => /^[^\s@]+@[^\s@]+$/.test(value), 'must be an email address')),
    password: nonEmptyString(),
  }),
);

/**
 * An issued API key.
 *
 * @example
 * ```ts
 * const { apiKey }: IssuedKey = await client.auth.issueKey({ email, password });
 * ```
 */
export interface IssuedKey {
  /** The key, to pass as `apiKey`. */
  apiKey: string;
}

const KEY_FIELDS = ['api_key', 'apiKey', 'key', 'token', 'access_token', 'accessToken'];

/** Top level or under `data`. */
export function findIssuedKey(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const name of KEY_FIELDS) {
    const value = record[name];
    if (typeof value === 'string') return value;
  }
  // A parsed JSON body has no cycles, so this ends.
  return findIssuedKey(record['data']);
}

/**
 * `client.auth`: exchange an email and password for an API key. The call needs no key of its own.
 *
 * @example
 * ```ts
 * const { apiKey } = await client.auth.issueKey({ email: 'demo@example.com', password: 'demo' });
 * ```
 */
export class Auth extends Resource {
  /**
   * Issues a key at `/v1/auth` (the one path that has no `/api/v1` form).
   *
   * @example
   * ```ts
   * const { apiKey } = await client.auth.issueKey({ email: 'demo@example.com', password: 'demo' });
   * ```
   */
  issueKey(credentials: Credentials, options?: RequestOptions): ApiPromise<IssuedKey> {
    return call(coreOf(this), () => {
      const body = checkInput(CredentialsSchema, credentials, 'input to auth.issueKey');
      const read = (data: unknown): IssuedKey => {
        const apiKey = findIssuedKey(data);
        // The same rule as every other key: a key no header can carry fails here, not at the next call.
        if (apiKey !== undefined) return { apiKey: checkApiKey(apiKey, 'the key issuing answer') };
        // The core adds the URL and hides the body (`secret`).
        throw new ResponseValidationError({
          body: undefined,
          issues: [{ path: [], message: `has no key under ${KEY_FIELDS.join(', ')} (or data.*)`, code: 'missing_key' }],
          method: 'POST',
          url: '/v1/auth',
        });
      };
      return {
        ...options,
        method: 'POST',
        path: '/v1/auth',
        body,
        auth: false,
        secrets: [body.password],
        response: { name: 'issued key', hideBody: true, read },
      };
    });
  }
}
