/**
 * The core: one call goes through the `Transport` (`transport.ts`) to the URL its `Routes` give, with the API
 * key, the retry loop (`retry.ts`), same-origin redirects, error mapping, secret redaction and the response
 * check. It knows no endpoint paths; where a path goes is the routes' business (`src/service/prefix.ts`).
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
import { resolveKey } from './api-key.js';
import { checkHooks, nextId, runHook, type HookContext, type Hooks } from './hooks.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ERROR_BODY_BYTES, jsonBody, readText } from './body.js';
import { LevelLogger } from './logger.js';
import { userAgent } from './user-agent.js';
import {
  checkRequestOptions,
  readEnv,
  type ApiKeySource,
  type ClientOptions,
  type FetchLike,
  type RequestOptions,
  type ResponseDetails,
} from './options.js';
import { queryString, withSearch, type QueryValue } from './query.js';
import { redact, redactAndCut, redactText, safeCause, usableSecrets } from './redact.js';
import { now, runPhase } from './poll.js';
import { AttemptFailure, MAX_RETRIES, callDeadline, networkErrorCodes, withRetries, type Answer, type RetryOptions } from './retry.js';
import { safeParse, toIssues, type Schema } from './schema.js';
import { chooseTransport } from './choose-transport.js';
import { asResponse, type Transport, type TransportResponse } from './transport.js';

export interface ResponseSpec<T> {
  /** Words for error messages: "workflow", "list of orders". */
  name: string;
  schema?: Schema<unknown> | undefined;
  /** A hand-written check, stricter than `schema`, that lets a valid body through as received, uncopied. */
  plain?: ((data: unknown) => boolean) | undefined;
  /** Runs inside the core, so a `ResponseValidationError` it throws gets the call's URL and redaction. */
  read?: ((data: unknown) => T) | undefined;
  /** The body may hold a credential the SDK cannot name: it is kept out of errors entirely. */
  hideBody?: boolean | undefined;
}

export interface CoreRequest<T = unknown> extends RequestOptions {
  method: string;
  /** A path under the service root, given to the routes; or an absolute URL. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** `false` for key issuing, which needs no key. */
  auth?: boolean | undefined;
  /** Values that must never appear in an error or a log line. */
  secrets?: readonly (string | undefined)[] | undefined;
  /** The path's template (`/workflows/{id}`), naming the endpoint; default: the path. */
  route?: string | undefined;
  response?: ResponseSpec<T> | undefined;
}

export interface Route {
  readonly url: string;
  /** Returns another URL to try instead, if there is one. */
  answered(status: number): string | undefined;
}

/** The key is sent to the root's origin and nowhere else. */
export interface Routes {
  /** Origin plus any base path, no trailing slash. */
  readonly root: string;
  route(path: string): Route;
}

interface Received extends Answer {
  text: string;
  url: string;
  /** Only in raw mode, for a success: its body unread. */
  raw?: TransportResponse | undefined;
}

export interface CoreResponse<T> {
  data: T;
  response: ResponseDetails;
  /** Set when the call was sent with `raw`. */
  raw?: Response | undefined;
}

/** One call's count of requests sent, shared by its retries, redirects and routes. */
interface Tally {
  attempts: number;
  readonly raw: boolean;
  readonly started: number;
  /** Only when the client has hooks. */
  readonly hooked?: HookedCall | undefined;
}

/** What the hooks of one call share; filled in as the call learns it. */
interface HookedCall {
  readonly hooks: Hooks;
  readonly callId: number;
  method: string;
  route: string;
  secrets: string[];
  started: number;
  deadline: number;
  deadlineMs: number | undefined;
  status: number | undefined;
  /** The last attempt's URL. */
  url: string;
  tally?: Tally | undefined;
}

const MAX_REDIRECTS = 5;
// What `fetch` sends everywhere: CONNECT, TRACE and TRACK are forbidden to it.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
// `.` and `..` segments, plain or percent-encoded, after `/` or `\` (which URLs read as `/`).
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i;
// Many servers and proxies refuse longer URLs, and an error quotes its URL.
const MAX_URL_LENGTH = 8192;

export class HttpCore {
  readonly #apiKey: ApiKeySource | undefined;
  readonly #keyFromEnv: boolean;
  readonly #fetch: FetchLike | undefined;
  readonly #transport: Transport;
  readonly #headers: Record<string, string>;
  readonly #routes: Routes;
  readonly #userAgent: string | undefined;
  /** Endpoints already reported as deprecated: once each, and a bounded set. */
  readonly #deprecated = new Set<string>();
  declare readonly timeoutMs: number;
  declare readonly maxRetries: number;
  declare readonly deadlineMs: number | undefined;
  readonly #retry: RetryOptions | undefined;
  readonly #hooks: Hooks | undefined;
  declare readonly validateResponses: boolean;
  declare readonly maxResponseBytes: number;
  declare readonly log: LevelLogger;
  /** So errors built outside the core (build waits) can be cleaned of the key. */
  #lastKey: string | undefined;

  constructor(options: ClientOptions, routes: Routes, log = new LevelLogger(options.logger, options.logLevel)) {
    this.#routes = routes;
    this.#apiKey = options.apiKey ?? readEnv('WFA_API_KEY');
    this.#keyFromEnv = options.apiKey === undefined;
    this.#fetch = options.fetch;
    checkRequestOptions({ headers: options.headers }, 'client options');
    this.#headers = { ...options.headers };
    this.#userAgent = userAgent(options.appInfo);
    this.timeoutMs = checkCount(options, 'timeoutMs', 60_000, 1);
    this.maxRetries = checkCount(options, 'maxRetries', 2, 0, MAX_RETRIES);
    this.deadlineMs = options.deadlineMs === undefined ? undefined : checkCount(options, 'deadlineMs', 0, 1);
    this.#retry = checkRetry(options.retry);
    this.#hooks = checkHooks(options.hooks);
    this.validateResponses = options.validateResponses ?? true;
    this.maxResponseBytes = checkCount(options, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, 1);
    this.log = log;
    const transport = chooseTransport(options);
    this.#transport = transport.send;
    log.log('debug', `sending through the ${transport.name} transport`);
  }

  get root(): string {
    return this.#routes.root;
  }

  /** The client's `fetch` option, for downloads (`download.ts`), which send none of the client's headers. */
  get fetchOption(): FetchLike | undefined {
    return this.#fetch;
  }

  /** For build waits' `onWait`. */
  get hooks(): Hooks | undefined {
    return this.#hooks;
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** For messages. */
  urlOf(path: string): string {
    return this.#routes.route(path).url;
  }

  /** Rejects only with the SDK's errors. With `raw`, a success's body is left unread for the caller, and `data` is `undefined`. */
  request<T = unknown>(req: CoreRequest<T>, raw = false): Promise<CoreResponse<T>> {
    // Not async: without hooks, no extra promise turn.
    return this.#hooks ? this.#hooked(req, raw, this.#hooks) : this.#exchange(req, raw, undefined);
  }

  /** `onSuccess` and `onError` run once per call, awaited within its deadline and signal. */
  async #hooked<T>(req: CoreRequest<T>, raw: boolean, hooks: Hooks): Promise<CoreResponse<T>> {
    const started = now();
    const call: HookedCall = {
      hooks,
      callId: nextId(),
      method: String(req.method).toUpperCase(),
      route: String(req.route ?? req.path).split('?')[0]!,
      secrets: [],
      started,
      deadline: started + (req.deadlineMs ?? this.deadlineMs ?? this.timeoutMs),
      deadlineMs: req.deadlineMs ?? this.deadlineMs,
      status: undefined,
      url: '',
    };
    let result: CoreResponse<T>;
    try {
      result = await this.#exchange(req, raw, call);
    } catch (error) {
      if (!hooks.onError) throw error;
      const pending = runHook(
        'onError',
        hooks.onError,
        { ...hookContext(call, call.url), error: error as WfaError, status: call.status },
        call.secrets,
      );
      // Past the deadline a pending onError is not waited for: the call's error stands.
      if (pending) await this.#bound(pending, req, call);
      throw error;
    }
    if (hooks.onSuccess) {
      const pending = runHook(
        'onSuccess',
        hooks.onSuccess,
        { ...hookContext(call, call.url), status: result.response.status },
        call.secrets,
      );
      if (pending) {
        const ended = await this.#bound(pending, req, call);
        if (ended) throw ended;
      }
    }
    return result;
  }

  /** Awaits a hook's promise until the call's signal or deadline; a rejection is thrown, an end returned. */
  async #bound(pending: Promise<void>, req: CoreRequest<unknown>, call: HookedCall): Promise<WfaError | undefined> {
    pending.catch(() => undefined);
    const result = await runPhase(() => pending, { signal: req.signal, deadline: call.deadline });
    if (result.type === 'failed') throw result.error;
    if (result.type === 'aborted')
      return new AbortError(`${call.method} ${call.route} was aborted by its signal`, { cause: result.reason });
    if (result.type === 'deadline') {
      const ms = call.deadlineMs ?? Math.round(call.deadline - call.started);
      return new TimeoutError(`${call.method} ${call.route} ran past the call's deadline (${ms} ms) in a hook`, ms, 'deadline');
    }
    return undefined;
  }

  async #exchange<T>(req: CoreRequest<T>, raw: boolean, hooked: HookedCall | undefined): Promise<CoreResponse<T>> {
    const started = now();
    const tally: Tally = { attempts: 0, raw, started, hooked };
    checkRequestOptions(req);
    checkCall(req);
    if (req.signal?.aborted) throw new AbortError('The request was aborted by its signal', { cause: req.signal.reason });
    const method = req.method.toUpperCase();
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    // One deadline for the whole call: every redirect hop and every route tried run inside it.
    const deadlineMs = req.deadlineMs ?? this.deadlineMs;
    const deadline = deadlineMs === undefined ? callDeadline(timeoutMs, req.maxRetries ?? this.maxRetries) : started + deadlineMs;
    const target = this.#target(req.path);
    const foreign = target.route === undefined;
    const body = jsonBody(req.body);
    const search = queryString(req.query);
    const { headers, explicitKeys, contentType } = this.#headersFor(req, foreign);
    // Resolved on every call, so that a rotated key is picked up.
    let key: string | undefined;
    if (req.auth !== false && !foreign && explicitKeys.length === 0) {
      // The key function runs within the deadline too; a TimeoutError from it then says which limit ran out.
      const keyMs = Math.max(1, Math.min(timeoutMs, deadline - now()));
      try {
        key = await resolveKey(this.#apiKey, this.#keyFromEnv, { signal: req.signal, timeoutMs: keyMs }, this.#lastKey);
      } catch (error) {
        if (error instanceof TimeoutError && keyMs < timeoutMs && deadlineMs !== undefined) {
          throw new TimeoutError(`The call's deadlineMs (${deadlineMs} ms) ran out in the apiKey function`, deadlineMs, 'deadline');
        }
        throw error;
      }
      this.#lastKey = key;
      headers['x-api-key'] = key;
    }
    const secrets = usableSecrets([key, ...explicitKeys, ...(req.secrets ?? [])]);
    if (hooked) {
      hooked.secrets = secrets;
      hooked.route = redactText(hooked.route, secrets);
      hooked.started = started;
      hooked.deadline = deadline;
      hooked.tally = tally;
    }
    if (body !== undefined && !contentType) headers['content-type'] = 'application/json';

    let url = target.route ? target.route.url : target.url;
    let answer: Received;
    for (;;) {
      const full = withSearch(url, search);
      if (full.length > MAX_URL_LENGTH) {
        throw new ValidationError('request', [
          { path: ['url'], message: `is ${full.length} characters long; the SDK sends at most ${MAX_URL_LENGTH}`, code: 'too_big' },
        ]);
      }
      try {
        answer = await this.#send(method, full, headers, body, req, secrets, deadline, tally);
        target.route?.answered(answer.status);
        break;
      } catch (error) {
        if (!target.route || !(error instanceof ApiError)) throw error;
        const next = target.route.answered(error.status);
        if (next === undefined) throw error;
        url = next;
      }
    }
    const data = answer.raw ? (undefined as T) : this.#parse(answer, method, req.response, secrets);
    const { status, headers: answered } = answer;
    if (answered.has('deprecation') || answered.has('sunset')) this.#noteDeprecation(method, req, answered, secrets);
    // Every call builds this, few read it: the header lookups and the redaction wait until asked for. Only the
    // URL is kept, not the answer, whose body text a page's details must not hold on to.
    const finalUrl = answer.url;
    const response: ResponseDetails = {
      status,
      headers: answered,
      get requestId() {
        return answered.get('x-request-id') ?? answered.get('request-id') ?? undefined;
      },
      get url() {
        return redactText(finalUrl, secrets);
      },
      attempts: tally.attempts,
      elapsedMs: now() - started,
    };
    return { data, response, raw: answer.raw && asResponse(answer.raw) };
  }

  #noteDeprecation(method: string, req: CoreRequest<unknown>, headers: Headers, secrets: string[]): void {
    const endpoint = `${method} ${req.route ?? req.path.split('?')[0]}`;
    if (this.#deprecated.has(endpoint) || this.#deprecated.size >= 100) return;
    this.#deprecated.add(endpoint);
    let said = '';
    for (const name of ['deprecation', 'sunset', 'link']) if (headers.has(name)) said += `; ${name}: ${headers.get(name)?.slice(0, 200)}`;
    this.log.log('warn', `${endpoint} is deprecated by the service (${said.slice(2)})`, secrets);
  }

  /** An explicit X-API-Key (any case) is used as it is and never goes to another origin. */
  #headersFor(req: CoreRequest<unknown>, foreign: boolean) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#userAgent && !foreign) headers['user-agent'] = this.#userAgent;
    Object.assign(headers, this.#headers, req.headers);
    const explicitKeys: string[] = [];
    let contentType = false;
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase();
      if (lower === 'content-type') contentType = true;
      else if (lower === 'user-agent' && name !== 'user-agent') delete headers['user-agent'];
      else if (lower === 'x-api-key') {
        if (foreign) delete headers[name];
        else explicitKeys.push(headers[name]!);
      }
    }
    return { headers, explicitKeys, contentType };
  }

  /** An absolute URL under the root is routed like its path; any other is foreign, and gets no key. */
  #target(path: string): { route: Route; url?: undefined } | { route?: undefined; url: string } {
    let rest = path;
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
      const url = new URL(path);
      if (url.username || url.password) {
        // fetch refuses such a URL, and an error quoting it would show the password.
        const message = 'must not contain user:password@; send credentials in headers';
        throw new ValidationError('request', [{ path: ['path'], message, code: 'invalid_value' }]);
      }
      const { origin } = new URL(this.root);
      const rootPath = this.root.slice(origin.length);
      if (url.origin !== origin || !url.pathname.startsWith(rootPath)) {
        url.hash = '';
        return { url: url.href };
      }
      rest = url.pathname.slice(rootPath.length) + url.search;
    }
    if (DOT_SEGMENT.test(rest.split(/[?#]/, 1)[0]!)) {
      // A URL parser resolves them, and the call would leave the service root with the key.
      throw new ValidationError('request', [{ path: ['path'], message: 'must not hold "." or ".." segments', code: 'invalid_value' }]);
    }
    return { route: this.#routes.route(rest.startsWith('/') ? rest : `/${rest}`) };
  }

  /** Follows same-origin redirects by hand, so the key never leaves the origin. */
  async #send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    req: CoreRequest<unknown>,
    secrets: string[],
    deadline: number,
    tally: Tally,
  ): Promise<Received> {
    const callStarted = tally.started;
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxRetries = req.maxRetries ?? this.maxRetries;
    for (let hops = 0; ; hops++) {
      const started = this.log.enabled('debug') ? Date.now() : 0;
      if (started) this.log.log('debug', `→ ${method} ${url}`, secrets);
      let answer: Received;
      try {
        answer = await withRetries((signal) => this.#attempt(method, url, headers, body, signal, secrets, tally), {
          method,
          maxRetries,
          timeoutMs,
          signal: req.signal,
          deadline,
          retry: this.#retry,
          shownUrl: this.#retry?.shouldRetry ? redactText(url, secrets) : undefined,
          onRetry: (retry, reason, waitMs) =>
            this.log.log('warn', `retry ${retry} of ${method} ${url} after ${reason}, in ${Math.round(waitMs)} ms`, secrets),
          beforeRetry: tally.hooked?.hooks.beforeRetry
            ? (status, error, delayMs) =>
                runHook(
                  'beforeRetry',
                  tally.hooked!.hooks.beforeRetry!,
                  { ...hookContext(tally.hooked!, url), status, error, delayMs },
                  secrets,
                )
            : undefined,
        });
      } catch (error) {
        if (error instanceof WfaError) throw error;
        const shownUrl = redactText(url, secrets);
        if (!(error instanceof AttemptFailure)) throw error;
        const { failure } = error;
        switch (failure.kind) {
          case 'abort':
            throw new AbortError(`${method} ${shownUrl} was aborted by its signal`, { cause: failure.cause });
          case 'deadline': {
            const ms = req.deadlineMs ?? this.deadlineMs ?? Math.round(deadline - callStarted);
            throw new TimeoutError(`${method} ${shownUrl} ran past the call's deadline (${ms} ms)`, ms, 'deadline');
          }
          case 'should-retry':
            throw new WfaError(`retry.shouldRetry threw on ${method} ${shownUrl}; not retried`, {
              cause: safeCause(failure.cause, secrets),
            });
          case 'timeout':
            throw new TimeoutError(`${method} ${shownUrl} timed out after ${timeoutMs} ms`, timeoutMs);
        }
        const { cause } = failure;
        const codes = networkErrorCodes(cause);
        const detail = codes.length ? codes.join(', ') : cause instanceof Error ? cause.message : String(cause);
        const what = failure.kind === 'body-read' ? 'The connection failed while the response was read' : 'Could not reach the service';
        throw new ConnectionError(redactText(`${what}: ${detail} (${method} ${shownUrl})`, secrets), { cause: safeCause(cause, secrets) });
      }
      if (started) this.log.log('debug', `← ${answer.status} ${method} ${url} (${Date.now() - started} ms)`, secrets);
      const { status } = answer;
      if (status < 300 && status !== 0) return answer;
      // The rare path: built only when needed, since every request passes here.
      const shownUrl = redactText(url, secrets);
      if (status === 0) {
        throw new ConnectionError(`${method} ${shownUrl} was redirected; browsers hide redirects from scripts, so it was not followed`);
      }
      const errorInit = { status, headers: redact(Object.fromEntries(answer.headers), secrets), method, url: shownUrl };
      if (status >= 400) throw ApiError.from({ ...errorInit, body: redact(parseErrorBody(answer.text), secrets) });

      const location = answer.headers.get('location');
      const next = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
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

  /** The body is read within the attempt, so its timeout covers it. */
  async #attempt(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    secrets: string[],
    tally: Tally,
  ): Promise<Received> {
    tally.attempts++;
    const { hooked } = tally;
    const sent = hooked?.hooks.beforeRequest ? await beforeRequest(hooked, url, headers, secrets) : headers;
    let response: TransportResponse;
    try {
      response = await this.#transport({ method, url, headers: sent, body, signal });
    } catch (error) {
      throw new AttemptFailure({ kind: 'network', cause: error });
    }
    const failed = response.status >= 400;
    if (hooked) {
      hooked.status = response.status;
      hooked.url = url;
    }
    if (tally.raw && response.status >= 200 && response.status < 300) {
      if (hooked?.hooks.afterResponse) await afterResponse(hooked, url, response, secrets);
      return { status: response.status, headers: response.headers, text: '', url, raw: response };
    }
    const text = await readText(response, failed ? ERROR_BODY_BYTES : this.maxResponseBytes, failed);
    if (text === undefined) {
      const message = `is larger than maxResponseBytes (${this.maxResponseBytes} bytes)`;
      const issues = [{ path: [], message, code: 'too_big' }];
      throw new ResponseValidationError({ body: undefined, issues, method, url: redactText(url, secrets) });
    }
    if (hooked?.hooks.afterResponse) await afterResponse(hooked, url, response, secrets);
    return { status: response.status, headers: response.headers, text, url };
  }

  #parse<T>(answer: Received, method: string, spec: ResponseSpec<T> | undefined, secrets: string[]): T {
    let body: unknown;
    let issues: readonly Issue[] | undefined;
    try {
      if (answer.text !== '') body = JSON.parse(answer.text);
    } catch {
      body = redactAndCut(answer.text, secrets, 10_000);
      issues = [
        { path: [], message: `is not JSON (content-type ${answer.headers.get('content-type') ?? 'missing'})`, code: 'invalid_json' },
      ];
    }
    if (!issues) {
      try {
        let data: unknown = body;
        if (spec?.schema && this.validateResponses && !spec.plain?.(body)) {
          const result = safeParse(spec.schema, body);
          if (result.success) data = result.data;
          else issues = toIssues(result.error);
        }
        if (!issues) return spec?.read ? spec.read(data) : (data as T);
      } catch (error) {
        if (!(error instanceof ResponseValidationError)) throw error;
        body = error.body;
        issues = error.issues;
      }
    }
    throw new ResponseValidationError({
      body: spec?.hideBody ? '[body hidden: it may contain a credential]' : redact(body, secrets),
      issues,
      method,
      url: redactText(answer.url, secrets),
      what: spec?.name,
    });
  }

  redactSecrets<T>(value: T): T {
    return redact(value, usableSecrets([this.#lastKey]));
  }
}

function hookContext(call: HookedCall, url: string): HookContext {
  return {
    callId: call.callId,
    method: call.method,
    url: redactText(url, call.secrets),
    route: call.route,
    attempt: call.tally?.attempts ?? 0,
    elapsedMs: now() - call.started,
  };
}

/** Hooks add headers to a copy, through a setter only: the key is never readable, nor replaceable. */
async function beforeRequest(call: HookedCall, url: string, headers: Record<string, string>, secrets: string[]) {
  const sent = { ...headers };
  const set = (name: string, value: string): void => {
    const lower = String(name).toLowerCase();
    if (lower === 'x-api-key') throw new WfaError('hooks may not set X-API-Key');
    checkRequestOptions({ headers: { [name]: value } }, 'header set by a hook');
    for (const existing of Object.keys(sent)) if (existing.toLowerCase() === lower) delete sent[existing];
    sent[name] = value;
  };
  const pending = runHook('beforeRequest', call.hooks.beforeRequest!, { ...hookContext(call, url), headers: { set } }, secrets);
  if (pending) await pending;
  return sent;
}

async function afterResponse(call: HookedCall, url: string, response: TransportResponse, secrets: string[]) {
  const responseHeaders = new Headers(redact(Object.fromEntries(response.headers), secrets));
  const pending = runHook(
    'afterResponse',
    call.hooks.afterResponse!,
    { ...hookContext(call, url), status: response.status, responseHeaders },
    secrets,
  );
  if (pending) await pending;
}

/** Refuses, before anything is sent, a method or path a JavaScript caller got wrong. */
function checkCall(req: CoreRequest<unknown>): void {
  const issues: Issue[] = [];
  if (typeof req.method !== 'string' || !METHODS.includes(req.method.toUpperCase())) {
    issues.push({ path: ['method'], message: `must be one of ${METHODS.join(', ')}`, code: 'invalid_value' });
  }
  if (typeof req.path !== 'string' || req.path === '') {
    issues.push({ path: ['path'], message: 'must be a non-empty string', code: 'invalid_type' });
  }
  if (issues.length) throw new ValidationError('request', issues);
}

function checkCount(
  options: ClientOptions,
  name: 'timeoutMs' | 'maxRetries' | 'maxResponseBytes' | 'deadlineMs',
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

/** A wrong retry option is named when the client is made, not on the first failure. */
function checkRetry(retry: RetryOptions | undefined): RetryOptions | undefined {
  if (retry === undefined) return undefined;
  const { statuses, shouldRetry, ...delays } = retry ?? {};
  const ms = (v: unknown) => v === undefined || (Number.isFinite(v) && (v as number) >= 0);
  if (
    typeof retry !== 'object' ||
    !(statuses === undefined || (Array.isArray(statuses) && statuses.every((s) => Number.isInteger(s) && s >= 400 && s < 600))) ||
    !Object.values(delays).every(ms) ||
    !(shouldRetry === undefined || typeof shouldRetry === 'function')
  ) {
    throw new WfaError(
      'retry must be { statuses: 400 to 599, baseDelayMs, maxDelayMs, maxRetryAfterMs: ms >= 0, shouldRetry: a function }',
    );
  }
  return { ...retry, statuses: statuses && [...statuses] };
}

function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
