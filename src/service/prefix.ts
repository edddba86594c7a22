/**
 * Where a path goes: the service answers under `/api/v1` (its reference) or `/v1` (its quick-start), and
 * issues keys only at `/v1/auth`. Until a prefix is confirmed (set, or answered with anything but 404), a 404
 * is tried once under the other prefix.
 */
import { ValidationError, WfaError } from '../core/errors.js';
import type { Route, Routes } from '../core/http.js';
import type { LevelLogger } from '../core/logger.js';
import type { ApiPrefix } from '../core/options.js';
import { isHttpUrl } from '../core/url.js';

const OTHER_PREFIX: Record<ApiPrefix, ApiPrefix> = { '/api/v1': '/v1', '/v1': '/api/v1' };
// Key issuing exists only at /v1/auth, whatever prefix the resources use.
const KEY_ISSUING = /^\/v1\/auth(?:\?|$)/;
// A path that names a prefix itself (`/api/v1/...`, `/v1/...`) is sent under the confirmed one.
const NAMED_PREFIX = /^(?:\/api)?\/v1(?=\/|$)/;

export interface NormalisedBaseUrl {
  /** Origin plus any path before the version prefix, without a trailing slash. */
  root: string;
  prefix: ApiPrefix | undefined;
}

/** `https://host/svc/api/v1/` is `{ root: 'https://host/svc', prefix: '/api/v1' }`. */
export function normaliseBaseUrl(input: string): NormalisedBaseUrl {
  const text = input.trim();
  if (!isHttpUrl(text)) {
    throw new WfaError('baseUrl must be an absolute http or https URL, such as "https://automation.example.com"');
  }
  const url = new URL(text);
  // Parts a request URL cannot keep: named, so the caller knows what to move where. The values are never quoted.
  const part =
    url.username || url.password
      ? 'user:password@ (send credentials with the apiKey or headers option)'
      : url.search
        ? 'a query (?…); pass query parameters with each call'
        : url.hash
          ? 'a fragment (#…)'
          : '';
  if (part)
    throw new ValidationError('client options', [{ path: ['baseUrl'], message: `must not contain ${part}`, code: 'invalid_value' }]);
  // The pattern always matches.
  const [, path, prefix] = /^(.*?)((?:\/api)?\/v1)?\/*$/.exec(url.pathname)!;
  return { root: url.origin + path, prefix: prefix as ApiPrefix | undefined };
}

/** The prefix is detected on the first answers. */
export class PrefixRoutes implements Routes {
  readonly root: string;
  readonly #log: LevelLogger;
  #prefix: ApiPrefix;
  #confirmed: boolean;

  constructor(baseUrl: string | undefined, apiPrefix: ApiPrefix | 'auto' | undefined, log: LevelLogger) {
    if (!baseUrl) throw new WfaError('No baseUrl: pass { baseUrl } to new Client() or set WFA_BASE_URL');
    const { root, prefix } = normaliseBaseUrl(baseUrl);
    const chosen = apiPrefix ?? 'auto';
    if (chosen !== 'auto' && !Object.hasOwn(OTHER_PREFIX, chosen)) {
      throw new WfaError(`apiPrefix must be '/api/v1', '/v1' or 'auto'`);
    }
    this.root = root;
    this.#log = log;
    this.#prefix = chosen === 'auto' ? (prefix ?? '/api/v1') : chosen;
    this.#confirmed = chosen !== 'auto';
  }

  get state(): { prefix: ApiPrefix; confirmed: boolean } {
    return { prefix: this.#prefix, confirmed: this.#confirmed };
  }

  route(path: string): Route {
    if (KEY_ISSUING.test(path)) return { url: this.root + path, answered: () => undefined };
    const rest = path.replace(NAMED_PREFIX, '');
    let prefix = this.#prefix;
    let retried = false;
    return {
      url: this.root + prefix + rest,
      answered: (status) => {
        if (status !== 404) {
          this.#confirm(prefix);
          return undefined;
        }
        // Once, and only while the prefix tried may be wrong: a call that raced the confirmation of the other
        // prefix goes there.
        if (retried || (this.#confirmed && this.#prefix === prefix)) return undefined;
        retried = true;
        const other = this.#confirmed ? this.#prefix : OTHER_PREFIX[prefix];
        this.#log.log('info', `404 under ${prefix}; trying ${other}`);
        prefix = other;
        return this.root + prefix + rest;
      },
    };
  }

  #confirm(prefix: ApiPrefix): void {
    if (this.#confirmed) return;
    this.#prefix = prefix;
    this.#confirmed = true;
    this.#log.log('info', `using path prefix ${prefix}`);
  }
}
