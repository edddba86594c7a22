/**
 * One call, top to bottom: prepare it, send it with retries, follow a redirect, read the body; a failure's
 * error is `call-failure.ts`'s. A client with hooks runs `HookedCall`, which wraps two of an attempt's steps.
 */
import { resolveKey } from './api-key.js';
import { mapFailure, statusError } from './call-failure.js';
import { ERROR_BODY_READ, jsonBody, readText } from './body.js';
import { ApiError, ResponseValidationError, TimeoutError, ValidationError } from './errors.js';
import { abortedBy, pastDeadline } from './failures.js';
import { queryString } from './query.js';
import { credentialValuesSent, redactText, usableSecrets } from './redact.js';
import type { CallHost, CoreRequest, CoreResponse, Route } from './request.js';
import { notFoundUnderBoth, parseBody, responseDetails } from './response.js';
import { type Outgoing, redirected } from './redirect.js';
import { AttemptFailure, callDeadline, withRetries, type RetryPolicy } from './retry.js';
import { checkRequestOptions, type CallOptions } from './settings.js';
import { checkCall, targetOf, type Target } from './target.js';
import { type AbortSource, now } from './timing.js';
import { abortWith, asResponse, letGo, type TransportResponse, untilEnd } from './transport.js';
import { requestKey } from './url.js';

/** One attempt's response, its body read; for a raw success, left unread for the caller. */
export interface Received {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly url: string;
  readonly raw?: TransportResponse | undefined;
}

// Many servers and proxies refuse longer URLs, and an error quotes its URL.
const MAX_URL_LENGTH = 8192;

export class Call<T> {
  readonly started = now();
  /** Upper case. */
  readonly method: string;
  /** Requests sent: retries, redirects and the prefix fallback included. */
  attempts = 0;
  /** The last response's status and URL, for `onError`. */
  last: { readonly status: number; readonly url: string } | undefined;
  secrets: string[] = [];
  deadline: number;
  protected options: CallOptions = {};
  timeoutMs: number;
  protected headers: Record<string, string> = {};
  protected body: string | undefined;
  protected search = '';
  /** Every URL this call sent, so that no redirect sends one again (the prefix fallback's back to the first). */
  protected readonly sent = new Set<string>();

  constructor(
    readonly core: CallHost,
    readonly req: CoreRequest<T>,
    readonly raw: boolean,
  ) {
    const { settings } = core;
    this.method = String(req.method).toUpperCase();
    this.timeoutMs = settings.timeoutMs;
    // Until `prepare` knows the checked options: what a hook that fails that early is bounded by.
    this.deadline = this.started + (req.deadlineMs ?? settings.deadlineMs ?? settings.timeoutMs);
  }

  /** Rejects only with the SDK's errors. */
  async run(): Promise<CoreResponse<T>> {
    const { route, url } = await this.prepare();
    return this.respond(route ? await this.sendRouted(route) : await this.send(url));
  }

  /** Checks the call, builds its headers and body, and resolves the key: nothing is sent before this. */
  protected async prepare(): Promise<Target> {
    const { req } = this;
    const { settings, routes } = this.core;
    const options = checkRequestOptions(req, undefined, [settings.apiKey, ...(req.secrets ?? [])]);
    this.options = options;
    checkCall(req);
    if (options.signal?.aborted) throw abortedBy('The request', options.signal.reason);
    this.timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    // One deadline for the whole call: every redirect hop and every route tried run inside it.
    const deadlineMs = options.deadlineMs ?? settings.deadlineMs;
    this.deadline =
      deadlineMs === undefined ? callDeadline(this.timeoutMs, options.maxRetries ?? settings.maxRetries) : this.started + deadlineMs;
    const target = targetOf(req, routes);
    this.body = jsonBody(req.body);
    this.search = queryString(req.query);
    // Client-level headers go only where the key may go; the call's own go wherever the call goes.
    const headers: Record<string, string> = { accept: 'application/json', ...(target.route && settings.headers), ...options.headers };
    let key = headers['x-api-key'];
    if (!target.route) delete headers['x-api-key'];
    else if (req.auth !== false && key === undefined) headers['x-api-key'] = key = await this.resolveKey(deadlineMs);
    if (this.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    this.headers = headers;
    this.secrets = usableSecrets([
      key,
      ...credentialValuesSent(Object.entries(headers)),
      ...(this.search ? credentialValuesSent(new URLSearchParams(this.search)) : []),
      ...(req.secrets ?? []),
    ]);
    return target;
  }

  /** Resolved on every call, so that a rotated key is picked up, within the call's deadline. */
  protected async resolveKey(deadlineMs: number | undefined): Promise<string> {
    const { core } = this;
    const { apiKey, keyFromEnv } = core.settings;
    const keyMs = Math.max(1, Math.min(this.timeoutMs, this.deadline - now()));
    try {
      core.lastKey = await resolveKey(apiKey, keyFromEnv, { signal: this.options.signal, timeoutMs: keyMs }, core.lastKey);
      return core.lastKey;
    } catch (error) {
      // A TimeoutError from the key function then says which limit ran out.
      if (error instanceof TimeoutError && keyMs < this.timeoutMs && deadlineMs !== undefined) {
        throw new TimeoutError(`The call's deadlineMs (${deadlineMs} ms) ran out in the apiKey function`, deadlineMs, 'deadline');
      }
      throw error;
    }
  }

  /** Sends to the route's URL. Before the prefix is confirmed, a 404 not the service's own is tried once under the other prefix. */
  protected async sendRouted(route: Route): Promise<Received> {
    let url = route.url;
    let first: ApiError | undefined;
    for (;;) {
      try {
        const received = await this.send(url);
        route.confirm(received.status, received.url);
        return received;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // A redirect not followed (a 3xx error) says nothing of the prefix, and leaves the first 404 standing.
        const refused = error.status >= 300 && error.status < 400;
        if (!refused) route.confirm(error.status, error.url, error);
        const next = error.status === 404 ? route.fallback() : undefined;
        if (next === undefined) throw first && (refused || error.status === 404) ? notFoundUnderBoth(first, error) : error;
        first = error;
        url = next;
      }
    }
  }

  /** Sends one URL with retries, following same-origin redirects under the root by hand. */
  protected async send(url: string): Promise<Received> {
    const search = this.search && `${url.includes('?') ? '&' : '?'}${this.search}`;
    let request: Outgoing = { method: this.method, url: url + search, body: this.body };
    for (let hops = 0; ; hops++) {
      this.sent.add(requestKey(new URL(request.url)));
      const received = await this.sendWithRetries(request);
      const { status } = received;
      // Status 0: a redirect the browser hid from scripts (`redirect: 'manual'`), refused by `redirect`.
      if (status < 300 && status !== 0) return received;
      request = redirected(request, received, hops, { root: this.core.routes.root, secrets: this.secrets, sent: this.sent });
    }
  }

  /** One request with its retries: a response, or the SDK's error (an error status's too). */
  protected async sendWithRetries(request: Outgoing): Promise<Received> {
    if (request.url.length > MAX_URL_LENGTH) {
      const message = `is ${request.url.length} characters long; the SDK sends at most ${MAX_URL_LENGTH}`;
      throw new ValidationError('request', [{ path: ['url'], message, code: 'too_big' }]);
    }
    const { log } = this.core;
    const started = log.enabled('debug') ? Date.now() : 0;
    if (started) log.log('debug', `→ ${request.method} ${request.url}`, this.secrets);
    let received: Received;
    try {
      received = await withRetries((abort) => this.attempt(request, abort), this.retryPolicy(request));
    } catch (error) {
      throw mapFailure(this, error, request);
    }
    if (started) log.log('debug', `← ${received.status} ${request.method} ${request.url} (${Date.now() - started} ms)`, this.secrets);
    if (received.status >= 400) throw statusError(this.secrets, request, received);
    return received;
  }

  protected retryPolicy({ method, url }: Outgoing): RetryPolicy {
    const { settings, log } = this.core;
    return {
      method,
      // Of the request as the endpoint sends it: not of the GET a 303 turns it into.
      idempotent: this.req.idempotent === true && method === this.method,
      maxRetries: this.options.maxRetries ?? settings.maxRetries,
      timeoutMs: this.timeoutMs,
      signal: this.options.signal,
      deadline: this.deadline,
      retry: settings.retry,
      secrets: this.secrets,
      shownUrl: () => redactText(url, this.secrets),
      onRetry: (retry, reason, waitMs) =>
        log.log('warn', `retry ${retry} of ${method} ${url} after ${reason}, in ${Math.round(waitMs)} ms`, this.secrets),
      gate: this.core.gate,
    };
  }

  /** One request, its body read, within the attempt's timeout; hooks wrap its two named steps. */
  protected async attempt(request: Outgoing, abort: AbortSource): Promise<Received> {
    this.attempts++;
    const response = await this.transmit(request, await this.headersFor(request.url), abort);
    this.last = { status: response.status, url: request.url };
    const received = await this.read(request, response);
    await this.heard(received, abort);
    return received;
  }

  /** The headers an attempt sends: the call's (a `beforeRequest` hook adds to a copy). */
  protected headersFor(_url: string): Record<string, string> | Promise<Record<string, string>> {
    return this.headers;
  }

  /** What an attempt does once its response is read: nothing (an `afterResponse` hook runs here). */
  protected heard(_received: Received, _abort: AbortSource): Promise<void> | void {}

  protected async transmit(request: Outgoing, headers: Record<string, string>, attempt: AbortSource): Promise<TransportResponse> {
    // A raw body is read after the call returns: the caller's signal must still reach it, until that body ends.
    const caller = this.raw ? this.options.signal : undefined;
    const release = caller && abortWith(attempt, caller);
    let response: TransportResponse;
    try {
      response = await this.core.settings.transport({ ...request, headers, abort: attempt });
    } catch (error) {
      release?.();
      throw new AttemptFailure({ kind: 'network', cause: error });
    }
    const { status, body } = response;
    if (attempt.aborted) {
      // The transport ignored the abort (a custom `fetch`) and answered after the attempt ended: no one reads
      // this response, nor sees what is thrown, so its body, connection and listener are let go here.
      release?.();
      void letGo(body);
      throw attempt.reason;
    }
    if (release && body && status >= 200 && status < 300) return { ...response, body: untilEnd(body, release) };
    // Any other body is read within the attempt, which the caller's signal aborts.
    release?.();
    return response;
  }

  /** Reads the body within its size limit; a raw success's body is left for the caller. */
  protected async read({ method, url }: Outgoing, response: TransportResponse): Promise<Received> {
    const { status, headers } = response;
    if (this.raw && status >= 200 && status < 300) return { status, headers, text: '', url, raw: response };
    const limit = this.core.settings.maxResponseBytes;
    const text = await readText(response, status >= 400 ? ERROR_BODY_READ : limit, status >= 400);
    if (text === undefined) {
      const issues = [{ path: [], message: `is larger than maxResponseBytes (${limit} bytes)`, code: 'too_big' }];
      throw new ResponseValidationError({ body: undefined, issues, method, url: redactText(url, this.secrets) });
    }
    return { status, headers, text, url };
  }

  /** The error of `what` running past the call's deadline. */
  pastDeadline(what: string, where = ''): TimeoutError {
    const ms = this.options.deadlineMs ?? this.core.settings.deadlineMs ?? Math.round(this.deadline - this.started);
    return pastDeadline(what, ms, "the call's", where);
  }

  /** The data, checked, and the response's details; every value handed out has the call's secrets removed. */
  protected respond(received: Received): CoreResponse<T> {
    const { req, secrets, method } = this;
    const { headers, raw } = received;
    const validate = this.core.settings.validateResponses;
    const data = raw ? (undefined as T) : parseBody(received, req.response, { method, secrets, validate });
    if (headers.has('deprecation') || headers.has('sunset'))
      this.core.noteDeprecation(`${method} ${req.route ?? req.path.split('?')[0]}`, headers, secrets);
    const response = responseDetails(received, secrets, { attempts: this.attempts, elapsedMs: now() - this.started });
    return { data, response, raw: raw && asResponse(secrets.length ? { ...raw, headers: response.headers } : raw) };
  }
}
