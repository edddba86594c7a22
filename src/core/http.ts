/**
 * The HTTP core: the only code that calls `fetch`. Every request of every resource passes through
 * {@link HttpCore.request}: API key, path prefix, query, JSON body, the retry loop (`retry.ts`: timeout and
 * retries over headers and body), redirects, error mapping, secret redaction and response validation.
 *
 * Why `fetch` and not ky: the SDK needs an attempt to cover reading the body and `Retry-After` read only as
 * documented, which ky's retry and timeout do not do (the reliability suite showed bodies that stalled or broke
 * escaping both). With its own loop, what remained of ky was building the `Request`: measured on Node 20 with
 * an in-memory fetch, a 20-item list cost 323-441 µs through ky against 161-190 µs without, and ky was 4.5 KB
 * of the 16 KB browser budget.
 */
import {
  AbortError,
  ApiError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  WfaError,
  type Issue,
} from './errors.js';
import { LevelLogger } from './logger.js';
import {
  checkRequestOptions,
  normaliseBaseUrl,
  readEnv,
  type ApiKeySource,
  type ApiPrefix,
  type ClientOptions,
  type FetchLike,
  type RequestOptions,
} from './options.js';
import { redact, redactText, safeCause, usableSecrets } from './redact.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ERROR_BODY_BYTES, ResponseTooLarge, jsonBody, readText } from './body.js';
import {
  AttemptTimeout,
  BodyReadError,
  CallerAbort,
  headerRecord,
  networkErrorCodes,
  withRetries,
  type Answer,
} from './retry.js';
import { safeParse, toIssues, type Schema } from './schema.js';

/**
 * Query values the core can put in a URL; `undefined` and `null` are left out, so optional filters can be
 * passed as they are. An array repeats the key.
 *
 * @example
 * ```ts
 * const query: Record<string, QueryValue> = { status: filter ?? undefined, tag: ['a', 'b'] }; // ?tag=a&tag=b
 * await client.request({ method: 'GET', path: '/workflows', query });
 * ```
 */
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
  schema?: Schema<T> | undefined;
  /** @internal Words for error messages: "workflow", "list of orders". */
  what?: string | undefined;
  /** @internal `false` for key issuing, which needs no key. */
  auth?: boolean | undefined;
  /** @internal A prefix this call always uses, whatever was detected (`/v1` for `/v1/auth`). */
  fixedPrefix?: ApiPrefix | undefined;
  /** @internal Values sent in this call that must never appear in an error or a log line. */
  secrets?: readonly (string | undefined)[] | undefined;
  /**
   * @internal Reads the parsed body instead of `schema` (lists). A `ResponseValidationError` it throws is
   * re-thrown with the call's secrets removed from its body.
   */
  read?: ((data: unknown) => T) | undefined;
  /** @internal Keep a success body out of errors entirely (it may hold a credential we cannot name). */
  hideBody?: boolean | undefined;
}

const OTHER_PREFIX: Record<ApiPrefix, ApiPrefix> = { '/api/v1': '/v1', '/v1': '/api/v1' };
const MAX_REDIRECTS = 5;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** An answer with its body read, as the retry loop and the redirect loop pass it on. */
interface Received extends Answer {
  text: string;
  url: string;
}

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
  declare readonly root: string;
  readonly #origin: string;
  declare readonly timeoutMs: number;
  declare readonly maxRetries: number;
  declare readonly validateResponses: boolean;
  declare readonly maxResponseBytes: number;
  declare readonly log: LevelLogger;
  /** The key the last call sent, so errors built outside the core (build waits) can be cleaned of it. */
  #lastKey: string | undefined;

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
    this.maxResponseBytes = checkCount('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 1);
    this.log = new LevelLogger(options.logger, options.logLevel);
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
    checkRequestOptions(req);
    if (req.signal?.aborted) throw new AbortError('The request was aborted by its signal', { cause: req.signal.reason });
    const method = req.method.toUpperCase();
    const target = this.#target(req.path);
    const foreign = target.foreign;
    const body = jsonBody(req.body);
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers, ...req.headers };
    // One pass over the caller's headers. An X-API-Key given explicitly (any case) is used as it is, and never
    // goes to another origin; adding ours too would send both. Likewise a Content-Type in any case is kept.
    const explicitKeys: string[] = [];
    let contentType = false;
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase();
      if (lower === 'content-type') contentType = true;
      else if (lower === 'x-api-key') {
        if (foreign) delete headers[name];
        else explicitKeys.push(headers[name]!);
      }
    }
    const needsKey = req.auth !== false && !foreign && explicitKeys.length === 0;
    const key = needsKey ? await this.#resolveKey() : undefined;
    const secrets = usableSecrets([key, ...explicitKeys, ...(req.secrets ?? [])]);
    if (body !== undefined && !contentType) headers['content-type'] = 'application/json';
    if (key !== undefined) headers['x-api-key'] = key;
    let search = queryString(req.query);
    if (search && target.path.includes('?')) search = `&${search.slice(1)}`;

    const send = (prefix: ApiPrefix | undefined) => {
      const url = (foreign ? target.path : this.root + (prefix ?? '') + target.path) + search;
      return this.#send(method, url, headers, body, req, secrets);
    };

    const fixed = foreign ? undefined : (req.fixedPrefix ?? target.fixedPrefix);
    const auto = !fixed && !foreign;
    let prefix = fixed ?? this.#prefix;
    let answer: Received;
    for (let tries = 0; ; tries++) {
      try {
        answer = await send(prefix);
        break;
      } catch (error) {
        // Anything but a 404 confirms the prefix; a 404 before any confirmation is tried under the other, once.
        if (!auto || !(error instanceof ApiError)) throw error;
        if (error.status !== 404) this.#confirm(prefix);
        if (error.status !== 404 || tries || this.#confirmed) throw error;
        const other = OTHER_PREFIX[prefix];
        this.log.log('info', `404 under ${prefix}; trying ${other}`);
        prefix = other;
      }
    }
    if (auto) this.#confirm(prefix);
    return { data: this.#parse(answer, method, req, secrets), status: answer.status, headers: answer.headers };
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
    this.#lastKey = key;
    return key;
  }

  /**
   * Sends through the retry loop and follows same-origin redirects by hand, so the key never leaves the
   * origin. Resolves with a 2xx answer (body read); throws the SDK's error for everything else.
   */
  async #send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    req: CoreRequest<unknown>,
    secrets: string[],
  ): Promise<Received> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxRetries = req.maxRetries ?? this.maxRetries;
    for (let hops = 0; ; hops++) {
      const started = this.log.enabled('debug') ? Date.now() : 0;
      if (started) this.log.log('debug', `→ ${method} ${redactText(url, secrets)}`);
      let answer: Received;
      try {
        answer = await withRetries((signal) => this.#attempt(method, url, headers, body, signal), {
          method,
          maxRetries,
          timeoutMs,
          signal: req.signal,
          onRetry: (retry, reason, waitMs) =>
            this.log.log('warn', `retry ${retry} of ${method} ${redactText(url, secrets)} after ${reason}, in ${Math.round(waitMs)} ms`),
        });
      } catch (error) {
        throw this.#mapError(error, method, url, secrets);
      }
      if (started) this.log.log('debug', `← ${answer.status} ${method} ${redactText(url, secrets)} (${Date.now() - started} ms)`);
      const { status } = answer;
      if (status < 300 && status !== 0) return { ...answer, url };
      // Everything below is the rare path: built only when needed, every request passes here.
      const shownUrl = redactText(url, secrets);
      const errorInit = { status, headers: redact(headerRecord(answer.headers), secrets), method, url: shownUrl };
      if (status >= 400 || status === 0) {
        if (status === 0) {
          throw new ConnectionError(`${method} ${shownUrl} was redirected; browsers hide redirects from scripts, so it was not followed`);
        }
        throw ApiError.from({ ...errorInit, body: redact(parseErrorBody(answer.text), secrets) });
      }

      // A redirect. Followed only within the service's origin; elsewhere the key would go with it.
      const location = answer.headers.get('location');
      const next = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
      if (!next || hops >= MAX_REDIRECTS || next.origin !== new URL(url).origin) {
        const why = !next
          ? 'a redirect without a usable Location header'
          : hops >= MAX_REDIRECTS
            ? `more than ${MAX_REDIRECTS} redirects`
            : `a redirect to another origin (${next.origin}), not followed so the API key stays with the service`;
        throw ApiError.from({ ...errorInit, body: undefined, message: `The service answered with ${why}` });
      }
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next.href;
    }
  }

  /** One attempt: the request, and its body read within the attempt's time. */
  async #attempt(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<Received> {
    const init: RequestInit = { method, headers, body: body ?? null, signal, redirect: 'manual' };
    // The global `fetch` is looked up at call time, so tools that patch it after the client exists still work.
    const response = await (this.#fetch ? this.#fetch(url, init) : fetch(url, init));
    const failed = response.status >= 400;
    const text = await readText(response, failed ? ERROR_BODY_BYTES : this.maxResponseBytes, failed);
    return { status: response.status, headers: response.headers, text, url };
  }

  #mapError(error: unknown, method: string, url: string, secrets: string[]): WfaError {
    const shownUrl = redactText(url, secrets);
    if (error instanceof WfaError) return error;
    if (error instanceof CallerAbort) return new AbortError(`${method} ${shownUrl} was aborted by its signal`, { cause: error.reason });
    if (error instanceof AttemptTimeout) return new TimeoutError(`${method} ${shownUrl} timed out after ${error.timeoutMs} ms`, error.timeoutMs);
    if (error instanceof ResponseTooLarge) {
      return new ResponseValidationError({ body: undefined, issues: [{ path: [], message: error.message, code: 'too_big' }], method, url: shownUrl });
    }
    const cause = error instanceof BodyReadError ? error.cause : error;
    const codes = networkErrorCodes(cause);
    const detail = codes.length ? codes.join(', ') : cause instanceof Error ? cause.message : String(cause);
    const what = error instanceof BodyReadError ? 'The connection failed while the response was read' : 'Could not reach the service';
    return new ConnectionError(redactText(`${what}: ${detail} (${method} ${shownUrl})`, secrets), { cause: safeCause(cause, secrets) });
  }

  /** Parses a 2xx body and checks it. Errors carry the body with every secret of the call removed. */
  #parse<T>(answer: Received, method: string, req: CoreRequest<T>, secrets: string[]): T {
    const shownUrl = redactText(answer.url, secrets);
    const shownBody = (body: unknown) => (req.hideBody ? '[body hidden: it may contain a credential]' : redact(body, secrets));
    let data: unknown;
    if (answer.text !== '') {
      try {
        data = JSON.parse(answer.text);
      } catch {
        throw new ResponseValidationError({
          body: shownBody(answer.text.slice(0, 10_000)),
          issues: [{ path: [], message: `is not JSON (content-type ${answer.headers.get('content-type') ?? 'missing'})`, code: 'invalid_json' }],
          method,
          url: shownUrl,
          what: req.what,
        });
      }
    }
    try {
      if (req.read) return req.read(data);
      if (!req.schema || !this.validateResponses) return data as T;
      const result = safeParse(req.schema, data);
      if (result.success) return result.data;
      throw new ResponseValidationError({ body: data, issues: toIssues(result.error), method, url: shownUrl, what: req.what });
    } catch (error) {
      if (!(error instanceof ResponseValidationError)) throw error;
      throw new ResponseValidationError({ body: shownBody(error.body), issues: error.issues, method, url: shownUrl, what: req.what });
    }
  }

  /** Removes the configured API key (as last sent) from a value the caller will see in an error. */
  redactSecrets<T>(value: T): T {
    return redact(value, usableSecrets([this.#lastKey]));
  }
}

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new WfaError(`${name} must be a whole number >= ${min}`);
  return value;
}




/** An error body as the caller sees it: JSON when it parses, the text otherwise, `undefined` when empty. */
function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
