/**
 * Where a path goes: the service responds under `/api/v1` (its reference) or `/v1` (its quick-start), and
 * issues keys only at `/v1/auth`. Until a prefix is confirmed (set, a response other than 404 under it, or the
 * service's own 404), a 404 is tried once under the other prefix. A gateway's own prefix (or none) is set, never detected.
 */
import { type ApiError, messageFromBody, ValidationError, WfaError } from '../core/errors.js';
import type { Route, Routes } from '../core/request.js';
import type { LevelLogger } from '../core/logger.js';
import type { ApiPrefix } from '../core/options.js';
import type { ClientSettings } from '../core/settings.js';
import { hasCredentials, isHttpUrl } from '../core/url.js';
import { climbs } from '../core/url.js';

const OTHER_PREFIX: Record<ApiPrefix, ApiPrefix> = { '/api/v1': '/v1', '/v1': '/api/v1' };
// Key issuing is at /v1/auth whatever the known prefix; a custom prefix has its own (`authPath`).
const KEY_ISSUING = /^\/v1\/auth(?=\?|$)/;
// Path segments of RFC 3986 (pchar), so that a prefix is sent as written.
const PATH_PREFIX = /^(?:\/[\w.~!$&'()*+,;=:@%-]+)*$/;
// A path that names a prefix itself (`/api/v1/...`, `/v1/...`) is sent under the confirmed one.
const NAMED_PREFIX = /^(?:\/api)?\/v1(?=\/|$)/;

/** `https://host/svc/api/v1/` is `{ root: 'https://host/svc', prefix: '/api/v1' }`: the root without a trailing slash. */
export function normaliseBaseUrl(input: string): { root: string; prefix: ApiPrefix | undefined } {
  const text = input.trim();
  if (!isHttpUrl(text)) {
    const message = 'must be an absolute http or https URL, such as "https://automation.example.com"';
    throw new ValidationError('client options', [{ path: ['baseUrl'], message, code: 'invalid_value' }]);
  }
  const url = new URL(text);
  // Parts a request URL cannot keep: named, so the caller knows what to move where. The values are never quoted.
  const part = hasCredentials(url)
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

/** `''` and `'/'` are no prefix; a path prefix loses its trailing slashes. Named in a `ValidationError` otherwise. */
function checkPathPrefix(value: string, option: 'apiPrefix' | 'authPath'): string {
  const issue = (message: string): never => {
    throw new ValidationError('client options', [{ path: [option], message, code: 'invalid_value' }]);
  };
  const path = value.trim().replace(/\/+$/, '');
  if (path !== '' && !path.startsWith('/')) issue(`must start with "/", such as "/wfa/v1"`);
  if (!PATH_PREFIX.test(path)) issue("must be path segments only: letters, digits and -._~!$&'()*+,;=:@%, no query, fragment or spaces");
  if (/%(?![\da-f]{2})/i.test(path)) issue('has a "%" that is not a percent-escape');
  // Percent-encoded too, in any case and any mix: a URL parser resolves `%2e%2e` as `..`.
  if (climbs(path)) issue('must not contain "." or ".." segments, plain or percent-encoded');
  if (option === 'authPath' && path === '') issue('must be a path, such as "/auth"');
  return path;
}

const isKnown = (prefix: string): prefix is ApiPrefix => Object.hasOwn(OTHER_PREFIX, prefix);

/**
 * A 404 the service answered itself, about a record: so the prefix it came under exists. Its error body has an
 * error code, and words of its own that do not quote the path: a router's 404 for a path it does not serve
 * quotes it ("No endpoint GET /api/v1/…", "Cannot GET /v1/…") or says only "Not Found", and a gateway's bare 404
 * or page has no code.
 */
function servicesOwn404(error: ApiError, prefix: string): boolean {
  const words = messageFromBody(error.status, error.body);
  return error.code !== undefined && !words.includes(`${prefix}/`) && !/^not found\.?$/i.test(words);
}

/** The prefix is detected on the first responses, unless set. */
export class PrefixRoutes implements Routes {
  readonly root: string;
  readonly #log: LevelLogger;
  readonly #authPath: string;
  #prefix: string;
  #confirmed: boolean;

  constructor(settings: Pick<ClientSettings, 'baseUrl' | 'apiPrefix' | 'authPath' | 'log'>) {
    const { baseUrl, apiPrefix, authPath, log } = settings;
    if (!baseUrl) throw new WfaError('No baseUrl: pass { baseUrl } to new Client() or set WFA_BASE_URL');
    const { root, prefix } = normaliseBaseUrl(baseUrl);
    const chosen = apiPrefix === undefined || apiPrefix === 'auto' ? 'auto' : checkPathPrefix(apiPrefix, 'apiPrefix');
    const custom = chosen !== 'auto' && !isKnown(chosen);
    // A custom prefix is appended to the base URL as written: its `/v1` may be the gateway's own path.
    this.root = custom ? root + (prefix ?? '') : root;
    this.#log = log;
    this.#prefix = chosen === 'auto' ? (prefix ?? '/api/v1') : chosen;
    this.#confirmed = chosen !== 'auto';
    this.#authPath = authPath !== undefined ? checkPathPrefix(authPath, 'authPath') : custom ? `${chosen}/auth` : '/v1/auth';
  }

  get state(): { prefix: string; confirmed: boolean } {
    return { prefix: this.#prefix, confirmed: this.#confirmed };
  }

  route(path: string): Route {
    const issuing = KEY_ISSUING.exec(path);
    if (issuing)
      return { url: this.root + this.#authPath + path.slice(issuing[0].length), confirm: () => undefined, fallback: () => undefined };
    const rest = path.replace(NAMED_PREFIX, '');
    let prefix = this.#prefix;
    // Where the last answer came from: a redirect may have led to the other prefix.
    let answered = prefix;
    let retried = false;
    return {
      url: this.root + prefix + rest,
      confirm: (status, url, error) => {
        answered = this.#prefixOf(url) ?? prefix;
        if (status !== 404 || (error && servicesOwn404(error, answered))) this.#confirm(answered);
      },
      fallback: () => {
        // Once, and only while the prefix tried may be wrong: a call that raced the confirmation of the other
        // prefix goes there. A custom prefix is never retried.
        if (retried || !isKnown(prefix) || (this.#confirmed && this.#prefix === prefix)) return undefined;
        retried = true;
        const other = this.#confirmed ? this.#prefix : OTHER_PREFIX[prefix];
        // A redirect already led there, and that URL answered the 404: it is not sent again.
        if (other === answered) return undefined;
        this.#log.log('info', `404 under ${prefix}; trying ${other}`);
        prefix = other;
        return this.root + prefix + rest;
      },
    };
  }

  /** The known prefix a URL under the root is under, if any. */
  #prefixOf(url: string): string | undefined {
    if (!url.startsWith(`${this.root}/`)) return undefined;
    return NAMED_PREFIX.exec(url.slice(this.root.length))?.[0];
  }

  #confirm(prefix: string): void {
    if (this.#confirmed) return;
    this.#prefix = prefix;
    this.#confirmed = true;
    this.#log.log('info', `using path prefix ${prefix}`);
  }
}
