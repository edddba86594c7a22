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
  ApiKeyError,
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
import { redact, redactAndCut, redactText, safeCause, usableSecrets } from './redact.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ERROR_BODY_BYTES, jsonBody, readText } from './body.js';
import { AttemptFailure, MAX_RETRIES, callDeadline, networkErrorCodes, withRetries, type Answer } from './retry.js';
import { now, runPhase } from './poll.js';
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
   * @internal Reads the body once `schema` (if any) has checked it: lists find their items this way, a build
   * poll checks what a wait needs. A `ResponseValidationError` it throws is re-thrown with the call's URL, and
   * with the call's secrets removed from its body.
   */
  read?: ((data: unknown) => T) | undefined;
  /** @internal Keep a success body out of errors entirely (it may hold a credential we cannot name). */
  hideBody?: boolean | undefined;
}

const OTHER_PREFIX: Record<ApiPrefix, ApiPrefix> = { '/api/v1': '/v1', '/v1': '/api/v1' };
const MAX_REDIRECTS = 5;
// The longest URL the SDK sends: many servers and proxies refuse longer ones, and an error quotes its URL.
const MAX_URL_LENGTH = 8192;
// Visible ASCII, `!` (0x21) to `~` (0x7e): no spaces, no control characters.
const HEADER_SAFE = /^[!-~]+$/;

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
      throw new WfaError('No baseUrl: pass { baseUrl } to new Client() or set WFA_BASE_URL');
    }
    const { root, prefix } = normaliseBaseUrl(baseUrl);
    this.root = root;
    const apiPrefix = options.apiPrefix ?? 'auto';
    if (apiPrefix !== 'auto' && !Object.hasOwn(OTHER_PREFIX, apiPrefix)) {
      throw new WfaError(`apiPrefix must be '/api/v1', '/v1' or 'auto'`);
    }
    this.#prefix = apiPrefix === 'auto' ? (prefix ?? '/api/v1') : apiPrefix;
    this.#confirmed = apiPrefix !== 'auto';
    this.#apiKey = options.apiKey ?? readEnv('WFA_API_KEY');
    this.#fetch = options.fetch;
    this.#headers = { ...options.headers };
    this.timeoutMs = checkCount(options, 'timeoutMs', 60_000, 1);
    this.maxRetries = checkCount(options, 'maxRetries', 2, 0, MAX_RETRIES);
    this.validateResponses = options.validateResponses ?? true;
    this.maxResponseBytes = checkCount(options, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, 1);
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
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    // One deadline for the whole call: every redirect hop and the prefix fallback run inside it.
    const deadline = callDeadline(timeoutMs, req.maxRetries ?? this.maxRetries);
    const target = this.#target(req.path);
    const foreign = target.foreign;
    const body = jsonBody(req.body);
    const path = withQuery(target.path, req.query);
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
    // The configured key, unless the call needs none, goes to another origin or carries its own. Resolved on
    // every call, so that a rotated key is picked up.
    let key: string | undefined;
    if (req.auth !== false && !foreign && explicitKeys.length === 0) {
      key = await this.#key(req.signal, timeoutMs);
      this.#lastKey = key;
      headers['x-api-key'] = key;
    }
    const secrets = usableSecrets([key, ...explicitKeys, ...(req.secrets ?? [])]);
    if (body !== undefined && !contentType) headers['content-type'] = 'application/json';

    const fixed = foreign ? undefined : (req.fixedPrefix ?? target.fixedPrefix);
    const auto = !fixed && !foreign;
    let prefix = fixed ?? this.#prefix;
    let answer: Received;
    for (let tries = 0; ; tries++) {
      const url = (foreign ? '' : this.root + prefix) + path;
      if (url.length > MAX_URL_LENGTH) {
        throw new ValidationError('request', [
          { path: ['url'], message: `is ${url.length} characters long; the SDK sends at most ${MAX_URL_LENGTH}`, code: 'too_big' },
        ]);
      }
      try {
        answer = await this.#send(method, url, headers, body, req, secrets, deadline);
        break;
      } catch (error) {
        // Anything but a 404 confirms the prefix; a 404 before any confirmation is tried under the other, once.
        if (!auto || !(error instanceof ApiError)) throw error;
        if (error.status !== 404) this.#confirm(prefix);
        else if (!tries && !this.#confirmed) {
          const other = OTHER_PREFIX[prefix];
          this.log.log('info', `404 under ${prefix}; trying ${other}`);
          prefix = other;
          continue;
        }
        throw error;
      }
    }
    if (auto) this.#confirm(prefix);
    return { data: this.#parse(answer, method, req, secrets), status: answer.status, headers: answer.headers };
  }

  /**
   * The key for one call. A key function is a user's callback: it may hang, throw or reject, so it runs bounded
   * by the call's `timeoutMs` and `signal`, and whatever it does ends in the SDK's own errors.
   */
  async #key(signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
    const source = this.#apiKey;
    let key: unknown = source;
    if (typeof source === 'function') {
      const result = await runPhase(async () => source(), { signal, deadline: now() + timeoutMs });
      if (result.type === 'aborted') throw new AbortError('The request was aborted by its signal', { cause: result.reason });
      if (result.type === 'deadline') throw new TimeoutError(`The apiKey function did not return within ${timeoutMs} ms`, timeoutMs);
      if (result.type === 'failed') {
        const { error } = result;
        const name = error instanceof Error ? error.name : typeof error;
        // Its message is not quoted: a vault's error may hold the key. The cause keeps it, with the last key removed.
        throw new ApiKeyError(`The apiKey function failed (${name}); its error is the cause`, {
          cause: safeCause(error, usableSecrets([this.#lastKey])),
        });
      }
      key = result.value;
    }
    if (typeof key !== 'string' || key === '') {
      throw new ApiKeyError(
        typeof source === 'function'
          ? 'The apiKey function returned no key: it must return a non-empty string'
          : 'No API key: pass { apiKey } to new Client(), set WFA_API_KEY, or use Client.login()',
      );
    }
    if (!HEADER_SAFE.test(key)) {
      throw new ApiKeyError('The API key holds spaces or control characters, which an HTTP header cannot carry');
    }
    return key;
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
      const { origin } = new URL(this.root);
      // The root is that origin and the base path, with no trailing slash.
      const rootPath = this.root.slice(origin.length);
      if (url.origin !== origin || !url.pathname.startsWith(rootPath)) {
        url.hash = '';
        return { path: url.href, foreign: true };
      }
      rest = url.pathname.slice(rootPath.length) + url.search;
    }
    if (!rest.startsWith('/')) rest = `/${rest}`;
    // Key issuing exists only at /v1/auth, whatever prefix the resources use.
    if (/^\/v1\/auth(?:\?|$)/.test(rest)) return { path: rest.slice(3), foreign: false, fixedPrefix: '/v1' };
    // A path that names a prefix itself (`/api/v1/...`, `/v1/...`) is sent under the confirmed one.
    return { path: rest.replace(/^(?:\/api)?\/v1(?=\/|$)/, ''), foreign: false };
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
    deadline: number,
  ): Promise<Received> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxRetries = req.maxRetries ?? this.maxRetries;
    for (let hops = 0; ; hops++) {
      const started = this.log.enabled('debug') ? Date.now() : 0;
      if (started) this.log.log('debug', `→ ${method} ${url}`, secrets);
      let answer: Received;
      try {
        answer = await withRetries((signal) => this.#attempt(method, url, headers, body, signal, secrets), {
          method,
          maxRetries,
          timeoutMs,
          signal: req.signal,
          deadline,
          onRetry: (retry, reason, waitMs) =>
            this.log.log('warn', `retry ${retry} of ${method} ${url} after ${reason}, in ${Math.round(waitMs)} ms`, secrets),
        });
      } catch (error) {
        // What the retry loop threw, as the SDK's error with the call's secrets removed.
        if (error instanceof WfaError) throw error;
        const shownUrl = redactText(url, secrets);
        const failure = error instanceof AttemptFailure ? error : undefined;
        if (failure?.name === 'CallerAbort') {
          throw new AbortError(`${method} ${shownUrl} was aborted by its signal`, { cause: failure.cause });
        }
        if (failure?.name === 'AttemptTimeout') {
          throw new TimeoutError(`${method} ${shownUrl} timed out after ${timeoutMs} ms`, timeoutMs);
        }
        // A fetch that failed, or (BodyReadError) a connection that broke while the body was read.
        const cause = failure ? failure.cause : error;
        const codes = networkErrorCodes(cause);
        const detail = codes.length ? codes.join(', ') : cause instanceof Error ? cause.message : String(cause);
        const what = failure ? 'The connection failed while the response was read' : 'Could not reach the service';
        throw new ConnectionError(redactText(`${what}: ${detail} (${method} ${shownUrl})`, secrets), { cause: safeCause(cause, secrets) });
      }
      if (started) this.log.log('debug', `← ${answer.status} ${method} ${url} (${Date.now() - started} ms)`, secrets);
      const { status } = answer;
      if (status < 300 && status !== 0) return answer;
      // Everything below is the rare path: built only when needed, every request passes here.
      const shownUrl = redactText(url, secrets);
      if (status === 0) {
        throw new ConnectionError(`${method} ${shownUrl} was redirected; browsers hide redirects from scripts, so it was not followed`);
      }
      const errorInit = { status, headers: redact(Object.fromEntries(answer.headers), secrets), method, url: shownUrl };
      if (status >= 400) throw ApiError.from({ ...errorInit, body: redact(parseErrorBody(answer.text), secrets) });

      // A redirect. Followed only within the service's origin; elsewhere the key would go with it.
      const location = answer.headers.get('location');
      const next = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
      // The message follows the status: "302 Redirect to another origin (…) not followed, … (GET /path)".
      const refuse = (message: string) => ApiError.from({ ...errorInit, body: undefined, message });
      if (!next) throw refuse('Redirect without a usable Location header');
      if (hops >= MAX_REDIRECTS) throw refuse(`More than ${MAX_REDIRECTS} redirects`);
      if (next.origin !== new URL(url).origin) {
        throw refuse(`Redirect to another origin (${next.origin}) not followed, so the API key stays with the service`);
      }
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next.href;
    }
  }

  /**
   * One attempt: the request, and its body read within the attempt's time. A body too large ends the call
   * with `ResponseValidationError` (which the retry loop passes on as it is).
   */
  async #attempt(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    secrets: string[],
  ): Promise<Received> {
    const init: RequestInit = { method, headers, body: body ?? null, signal, redirect: 'manual' };
    // The global `fetch` is looked up at call time, so tools that patch it after the client exists still work.
    const response = await (this.#fetch ? this.#fetch(url, init) : fetch(url, init));
    const failed = response.status >= 400;
    const text = await readText(response, failed ? ERROR_BODY_BYTES : this.maxResponseBytes, failed);
    if (text === undefined) {
      const message = `is larger than maxResponseBytes (${this.maxResponseBytes} bytes)`;
      const issues = [{ path: [], message, code: 'too_big' }];
      throw new ResponseValidationError({ body: undefined, issues, method, url: redactText(url, secrets) });
    }
    return { status: response.status, headers: response.headers, text, url };
  }

  /** Parses a 2xx body and checks it. Errors carry the body with every secret of the call removed. */
  #parse<T>(answer: Received, method: string, req: CoreRequest<T>, secrets: string[]): T {
    let body: unknown;
    let issues: readonly Issue[] | undefined;
    try {
      if (answer.text !== '') body = JSON.parse(answer.text);
    } catch {
      body = redactAndCut(answer.text, secrets, 10_000);
      issues = [{ path: [], message: `is not JSON (content-type ${answer.headers.get('content-type') ?? 'missing'})`, code: 'invalid_json' }];
    }
    if (!issues) {
      try {
        let data: unknown = body;
        if (req.schema && this.validateResponses) {
          const result = safeParse(req.schema, body);
          if (result.success) data = result.data;
          else issues = toIssues(result.error);
        }
        if (!issues) return req.read ? req.read(data) : (data as T);
      } catch (error) {
        // `read` reports a body it cannot use this way; it gets the call's URL and redaction below.
        if (!(error instanceof ResponseValidationError)) throw error;
        body = error.body;
        issues = error.issues;
      }
    }
    throw new ResponseValidationError({
      body: req.hideBody ? '[body hidden: it may contain a credential]' : redact(body, secrets),
      issues,
      method,
      url: redactText(answer.url, secrets),
      what: req.what,
    });
  }

  /** Removes the configured API key (as last sent) from a value the caller will see in an error. */
  redactSecrets<T>(value: T): T {
    return redact(value, usableSecrets([this.#lastKey]));
  }
}

/** Reads a whole-number client option (`fallback` when absent), refusing one below `min`. */
function checkCount(
  options: ClientOptions,
  name: 'timeoutMs' | 'maxRetries' | 'maxResponseBytes',
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = options[name] ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new WfaError(`${name} must be a whole number >= ${min}${max < Number.MAX_SAFE_INTEGER ? ` and <= ${max}` : ''}`);
  }
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

/** What form encoding (URLSearchParams) leaves as it is: ASCII letters and digits, `*`, `-`, `.` and `_`. */
const FORM_SAFE = /^[\w.*-]*$/;

/** Text as URLSearchParams writes it (`a b` → `a+b`), built only for text that needs encoding. */
function formEncode(text: string): string {
  return FORM_SAFE.test(text) ? text : new URLSearchParams([['', text]]).toString().slice(1);
}

/**
 * Adds a query to a path, skipping `undefined` and `null`, repeating array values: `?a=1&b=x`, or `&a=1&b=x`
 * after a path that has a query already. Encoded as URLSearchParams would, without building one for the
 * plain names and numbers nearly every query holds.
 */
export function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  let text = '';
  const add = (name: string, value: unknown) => {
    // A JavaScript caller can pass anything: an object or a symbol would be sent as `[object Object]` or throw.
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      const message = 'must be a string, number or boolean, or an array of them';
      throw new ValidationError('query', [{ path: [name], message, code: 'invalid_type' }]);
    }
    text += `${text ? '&' : ''}${formEncode(name)}=${formEncode(String(value))}`;
  };
  for (const name in query) {
    if (!Object.hasOwn(query, name)) continue;
    const value = query[name];
    if (Array.isArray(value)) for (const item of value as readonly unknown[]) add(name, item);
    else if (value !== undefined && value !== null) add(name, value);
  }
  if (!text) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}
