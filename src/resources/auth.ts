import type { RequestOptions } from '../core/options.js';
import type { ApiPromise } from './api-promise.js';
import type { Credentials, IssuedKey } from './credentials.js';
import { Resource, send } from './resource.js';

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
    return send(this, 'auth.issueKey', { body: credentials, options });
  }
}
