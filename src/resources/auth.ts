import type { RequestOptions } from '../core/options.js';
import type { ApiPromise } from './api-promise.js';
import { credentialsSchema, issuedKeyReader, type Credentials, type IssuedKey } from './credentials.js';
import { Resource, coreOf, send, type Core } from './resource.js';

/** `client.auth`: exchange an email and password for an API key. The call needs no key of its own. */
export class Auth extends Resource {
  /**
   * Issues a key at `/v1/auth` (the one path that has no `/api/v1` form). The response is not specified: the
   * key is looked for under the names services commonly use, and the body is never put in an error.
   *
   * @example
   * ```ts
   * const { apiKey } = await client.auth.issueKey({ email: 'demo@example.com', password: 'demo' });
   * ```
   */
  issueKey(credentials: Credentials, options?: RequestOptions): ApiPromise<IssuedKey> {
    return authIssueKey(this.core, credentials, options);
  }
}

/** `client.auth.issueKey` as a function of a core (the `/funcs` entry): sent without an API key. */
export function authIssueKey(core: Core, credentials: Credentials, options?: RequestOptions): ApiPromise<IssuedKey> {
  return send(coreOf(core), 'auth.issueKey', { body: credentialsSchema, response: issuedKeyReader }, { body: credentials, options });
}
