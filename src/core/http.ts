/**
 * The HTTP core: the only code that talks to ky. Every request of every resource passes through
 * {@link HttpCore.request}: API key, path prefix, query, JSON body, timeout, retries (see `retry.ts`),
 * redirects, error mapping, secret redaction and response validation.
 */
import ky, { HTTPError, TimeoutError as KyTimeoutError, type Options as KyOptions } from 'ky';
import {
  AbortError,
  ApiError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  WfaError,
} from './errors.js';
import { LevelLogger } from './logger.js';
import {
  normaliseBaseUrl,
  readEnv,
  type ApiKeySource,
  type ApiPrefix,
  type ClientOptions,
  type FetchLike,
  type RequestOptions,
} from './options.js';
import { redact, redactText, usableSecrets } from './redact.js';
import { MAX_BACKOFF_MS, headerRecord, networkErrorCodes, retryOptions } from './retry.js';
import type * as z from 'zod/mini';
import { toIssues } from './schema.js';

/** Query values the core can put in a URL; `undefined` and `null` are left out. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * One call as a resource describes it.
 *
 * @example
 * ```ts
 * await client.request({ method: 'GET', path: '/workflows', query: { page: 2 } });
 * ```
 */
export interface CoreRequest<T = unknown> extends RequestOptions {
  /** HTTP method, any case. */
  method: string;
  /**
   * Path under the API prefix (`/workflows/wf_1`). A path that already starts with `/api/v1` or `/v1` is sent
   * under the confirmed prefix instead. An absolute URL on another origin is called without the API key.
   */
  path: string;
  /** Query parameters. */
  query?: Record<string, QueryValue> | undefined;
  /** JSON body. */
  body?: unknown;
  /** @internal How the response body is checked; absent: returned as received. */
  schema?: z.ZodMiniType<T> | undefined;
  /** @internal Words for error messages: "workflow", "list of orders". */
  what?: string | undefined;
  /** @internal `false` for key issuing, which needs no key. */
  auth?: boolean | undefined;
  /** @internal A prefix this call always uses, whatever was detected (`/v1` for `/v1/auth`). */
  fixedPrefix?: ApiPrefix | undefined;
  /** @internal Values sent in this call that must never appear in an error or a log line. */
  secrets?: readonly (string | undefined)[] | undefined;
  /** @internal Keep a success body out of errors entirely (it may hold a credential we cannot name). */
  hideBody?: boolean | undefined;
}

const OTHER_PREFIX: Record<ApiPrefix, ApiPrefix> = { '/api/v1': '/v1', '/v1': '/api/v1' };
const MAX_REDIRECTS = 5;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** What the core hands back to resources: the body and the facts a caller may want. */
export interface CoreResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/**
 * The machinery behind a `Client`. Resources hold one and call {@link HttpCore.request}.
 *
 * @example
 * ```ts
 * const core = new HttpCore({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' });
 * const { data } = await core.request({ method: 'GET', path: '/orders' });
 * ```
 */
export class HttpCore {
  readonly #apiKey: ApiKeySource | undefined;
  readonly #fetch: FetchLike | undefined;
  readonly #headers: Record<string, string>;
  #prefix: ApiPrefix;
  #confirmed: boolean;
  /** The service root: origin plus any base path, no prefix, no trailing slash. */
  readonly root: string;
  readonly #origin: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly validateResponses: boolean;
  readonly log: LevelLogger;
  readonly #hooks: KyOptions['hooks'];

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? readEnv('WFA_BASE_URL');
    if (!baseUrl) {
      throw new WfaError('No baseUrl: pass { baseUrl } to new Client(), or set the WFA_BASE_URL environment variable');
    }
    const { root, prefix } = normaliseBaseUrl(baseUrl);
    this.root = root;
    this.#origin = new URL(root).origin;
    const apiPrefix = options.apiPrefix ?? 'auto';
    if (apiPrefix !== 'auto' && apiPrefix !== '/api/v1' && apiPrefix !== '/v1') {
      throw new WfaError(`apiPrefix must be '/api/v1', '/v1' or 'auto'`);
    }
    this.#prefix = apiPrefix === 'auto' ? (prefix ?? '/api/v1') : apiPrefix;
    this.#confirmed = apiPrefix !== 'auto';
    this.#apiKey = options.apiKey ?? readEnv('WFA_API_KEY');
    this.#fetch = options.fetch;
    this.#headers = { ...options.headers };
    this.timeoutMs = checkCount('timeoutMs', options.timeoutMs ?? 60_000, 1);
    this.maxRetries = checkCount('maxRetries', options.maxRetries ?? 2, 0);
    this.validateResponses = options.validateResponses ?? true;
    this.log = new LevelLogger(options.logger, options.logLevel);
    this.#hooks = {
      beforeRetry: [
        ({ request, error, retryCount }) => {
          if (this.log.enabled('warn')) {
            const reason = error instanceof HTTPError ? String(error.response.status) : error.name;
            this.log.log('warn', `retry ${retryCount} of ${request.method} ${request.url} after ${reason}`);
          }
        },
      ],
    };
  }

  /** The prefix resource calls use now, and whether it is confirmed (answered something other than 404). */
  get prefix(): { prefix: ApiPrefix; confirmed: boolean } {
    return { prefix: this.#prefix, confirmed: this.#confirmed };
  }

  /** True when a key is configured (without revealing it). */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /**
   * Sends one call and returns its (validated) body. Rejects only with the SDK's errors.
   */
  async request<T = unknown>(req: CoreRequest<T>): Promise<T> {
    return (await this.exchange(req)).data;
  }

  /** Like {@link HttpCore.request}, with the status and headers too. */
  async exchange<T = unknown>(req: CoreRequest<T>): Promise<CoreResponse<T>> {
    if (req.signal?.aborted) throw abortError(req.signal);
    const method = req.method.toUpperCase();
    const target = this.#target(req.path);
    const foreign = target.foreign;
    const key = req.auth === false || foreign ? undefined : await this.#resolveKey();
    const secrets = usableSecrets([key, ...(req.secrets ?? [])]);
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers, ...req.headers };
    if (key !== undefined) headers['x-api-key'] = key;
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'x-api-key') {
        if (foreign) delete headers[name];
        else secrets.push(value);
      }
    }
    let search = queryString(req.query);
    if (search && target.path.includes('?')) search = `&${search.slice(1)}`;

    const send = (prefix: ApiPrefix | undefined) => {
      const url = (foreign ? target.path : this.root + (prefix ?? '') + target.path) + search;
      return this.#send(method, url, headers, req, secrets);
    };

    const fixed = foreign ? undefined : (req.fixedPrefix ?? target.fixedPrefix);
    let response: Response;
    let url: string;
    if (fixed || foreign) {
      ({ response, url } = await send(fixed));
    } else {
      const prefix = this.#prefix;
      try {
        ({ response, url } = await send(prefix));
        this.#confirm(prefix);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.status !== 404 || this.#confirmed) {
          this.#confirm(prefix);
          throw error;
        }
        const other = OTHER_PREFIX[prefix];
        this.log.log('info', `404 under ${prefix}; trying ${other}`);
        try {
          ({ response, url } = await send(other));
          this.#confirm(other);
        } catch (second) {
          if (second instanceof ApiError && second.status !== 404) this.#confirm(other);
          throw second;
        }
      }
    }
    const data = await this.#readBody(response, method, url, req, secrets);
    return { data, status: response.status, headers: response.headers };
  }

  #confirm(prefix: ApiPrefix): void {
    if (this.#confirmed) return;
    this.#prefix = prefix;
    this.#confirmed = true;
    this.log.log('info', `using path prefix ${prefix}`);
  }

  /** Splits what a caller passed as `path` into where it goes. */
  #target(path: string): { path: string; foreign: boolean; fixedPrefix?: ApiPrefix } {
    let rest = path;
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
      const url = new URL(path);
      const rootPath = new URL(this.root).pathname.replace(/\/$/, '');
      if (url.origin !== this.#origin || !url.pathname.startsWith(rootPath)) {
        return { path: url.href.replace(/#.*$/, ''), foreign: true };
      }
      rest = url.pathname.slice(rootPath.length) + url.search;
    }
    if (!rest.startsWith('/')) rest = `/${rest}`;
    // Key issuing exists only at /v1/auth, whatever prefix the resources use.
    if (/^\/v1\/auth(?:\?|$)/.test(rest)) return { path: rest.slice(3), foreign: false, fixedPrefix: '/v1' };
    for (const prefix of ['/api/v1', '/v1'] as const) {
      if (rest === prefix || rest.startsWith(`${prefix}/`)) return { path: rest.slice(prefix.length), foreign: false };
    }
    return { path: rest, foreign: false };
  }

  async #resolveKey(): Promise<string> {
    const source = this.#apiKey;
    const key = typeof source === 'function' ? await source() : source;
    if (typeof key !== 'string' || key === '') {
      throw new WfaError(
        'No API key: pass { apiKey } to new Client(), set the WFA_API_KEY environment variable, or use Client.login()',
      );
    }
    if (!HEADER_SAFE.test(key)) {
      throw new WfaError('The API key contains characters that cannot be sent in an HTTP header (spaces or control characters)');
    }
    return key;
  }

  /** Runs ky (with retries) and follows same-origin redirects by hand, so the key never leaves the origin. */
  async #send(
    method: string,
    url: string,
    headers: Record<string, string>,
    req: CoreRequest<unknown>,
    secrets: string[],
  ): Promise<{ response: Response; url: string }> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxRetries = req.maxRetries ?? this.maxRetries;
    let body = req.body;
    for (let hops = 0; ; hops++) {
      const started = this.log.enabled('debug') ? Date.now() : 0;
      if (started) this.log.log('debug', `→ ${method} ${redactText(url, secrets)}`);
      let response: Response;
      try {
        response = await ky(url, {
          method,
          headers,
          json: body,
          signal: req.signal,
          timeout: timeoutMs,
          retry: retryOptions(method, maxRetries, Date.now() + (timeoutMs + MAX_BACKOFF_MS) * (maxRetries + 1)),
          redirect: 'manual',
          throwHttpErrors: (status) => status >= 400 || status === 0,
          hooks: this.#hooks,
          ...(this.#fetch ? { fetch: this.#fetch } : {}),
        });
      } catch (error) {
        throw await this.#mapError(error, method, url, req, secrets, timeoutMs);
      }
      if (started) this.log.log('debug', `← ${response.status} ${method} ${redactText(url, secrets)} (${Date.now() - started} ms)`);
      if (response.status < 300 || response.status >= 400) return { response, url };

      // A redirect. Followed only within the service's origin; elsewhere the key would go with it.
      const location = response.headers.get('location');
      const next = location ? new URL(location, url) : undefined;
      void response.body?.cancel().catch(() => undefined);
      if (!next || hops >= MAX_REDIRECTS || next.origin !== new URL(url).origin) {
        const why = !next
          ? 'a redirect without a Location header'
          : hops >= MAX_REDIRECTS
            ? `more than ${MAX_REDIRECTS} redirects`
            : `a redirect to another origin (${next.origin}), not followed so the API key stays with the service`;
        throw ApiError.from({ status: response.status, body: undefined, headers: redact(headerRecord(response.headers), secrets), method, url: redactText(url, secrets), message: `The service answered with ${why}` });
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next.href;
    }
  }

  async #mapError(
    error: unknown,
    method: string,
    url: string,
    req: CoreRequest<unknown>,
    secrets: string[],
    timeoutMs: number,
  ): Promise<WfaError> {
    const shownUrl = redactText(url, secrets);
    if (error instanceof WfaError) return error;
    if (error instanceof HTTPError) {
      const { response } = error;
      if (response.status === 0) {
        return new ConnectionError(`${method} ${shownUrl} was redirected; browsers hide redirects from scripts, so it was not followed`);
      }
      const body = redact(await readErrorBody(response), secrets);
      return ApiError.from({ status: response.status, body, headers: redact(headerRecord(response.headers), secrets), method, url: shownUrl });
    }
    if (req.signal?.aborted) return abortError(req.signal);
    if (error instanceof KyTimeoutError) {
      return new TimeoutError(`${method} ${shownUrl} timed out after ${timeoutMs} ms`, timeoutMs);
    }
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'AbortError' || name === 'TimeoutError') {
      return new AbortError(`${method} ${shownUrl} was aborted`, { cause: error });
    }
    const codes = networkErrorCodes(error);
    const detail = codes.length ? codes.join(', ') : error instanceof Error ? error.message : String(error);
    return new ConnectionError(redactText(`Could not reach the service: ${detail} (${method} ${shownUrl})`, secrets), {
      cause: error,
    });
  }

  async #readBody<T>(
    response: Response,
    method: string,
    url: string,
    req: CoreRequest<T>,
    secrets: string[],
  ): Promise<T> {
    const shownUrl = redactText(url, secrets);
    const text = response.status === 204 ? '' : await response.text();
    let data: unknown;
    if (text !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        throw new ResponseValidationError({
          body: req.hideBody ? '[body hidden: it may contain a credential]' : redactText(text.slice(0, 10_000), secrets),
          issues: [{ path: [], message: `is not JSON (content-type ${response.headers.get('content-type') ?? 'missing'})`, code: 'invalid_json' }],
          method,
          url: shownUrl,
          what: req.what,
        });
      }
    }
    if (!req.schema || !this.validateResponses) return data as T;
    const result = req.schema.safeParse(data, { reportInput: true });
    if (result.success) return result.data;
    throw new ResponseValidationError({
      body: req.hideBody ? '[body hidden: it may contain a credential]' : redact(data, secrets),
      issues: toIssues(result.error),
      method,
      url: shownUrl,
      what: req.what,
    });
  }
}

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new WfaError(`${name} must be a whole number >= ${min}`);
  return value;
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('The request was aborted by its signal', { cause: signal.reason });
}

/** Reads an error body: JSON when it parses, the text otherwise, `undefined` when empty. */
async function readErrorBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text.length > 10_000 ? `${text.slice(0, 10_000)}…` : text;
  }
}

/** Builds `?a=1&b=x` from a record, skipping `undefined` and `null`, repeating array values. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
