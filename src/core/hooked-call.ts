/**
 * A call of a client with hooks: the same steps as `Call`, with the hooks wrapped around them. A hook's
 * failure (a throw, a rejection, a hang past the attempt's timeout) is the hook's: never retried, never a
 * network error.
 */
import { Call, type Outgoing, type Received } from './call.js';
import { AbortError, TimeoutError, WfaError } from './errors.js';
import { nextId, runHook, type HookContext, type Hooks } from './hooks.js';
import type { CoreRequest, CoreResponse, CallHost } from './request.js';
import { now, runPhase } from './timing.js';
import { redactText } from './redact.js';
import { redactHeaders } from './response.js';
import type { RetryPolicy } from './retry.js';
import { checkRequestOptions } from './settings.js';

export class HookedCall<T> extends Call<T> {
  readonly #hooks: Hooks;
  readonly #callId = nextId();
  /** The last attempt's status and URL, for `onError`. */
  #status: number | undefined;
  #url = '';
  /** The hook an attempt is waiting for: a timeout then is the hook's. */
  #pending: keyof Hooks | undefined;

  constructor(core: CallHost, req: CoreRequest<T>, raw: boolean) {
    super(core, req, raw);
    this.#hooks = core.settings.hooks!;
  }

  /** `onSuccess` and `onError` run once per call, awaited within its deadline and signal. */
  override async run(): Promise<CoreResponse<T>> {
    const { onSuccess, onError } = this.#hooks;
    let result: CoreResponse<T>;
    try {
      result = await super.run();
    } catch (error) {
      if (!onError) throw error;
      const pending = runHook(
        'onError',
        onError,
        { ...this.context(this.#url), error: error as WfaError, status: this.#status },
        this.secrets,
      );
      // Past the deadline a pending onError is not waited for: the call's error stands.
      if (pending) await this.#bound(pending);
      throw error;
    }
    if (onSuccess) {
      const pending = runHook('onSuccess', onSuccess, { ...this.context(this.#url), status: result.response.status }, this.secrets);
      const ended = pending && (await this.#bound(pending));
      if (ended) throw ended;
    }
    return result;
  }

  protected override async attempt(request: Outgoing, signal: AbortSignal): Promise<Received> {
    this.attempts++;
    const { url } = request;
    const { beforeRequest, afterResponse } = this.#hooks;
    const headers = beforeRequest ? await this.#beforeRequest(url) : this.headers;
    const response = await this.transmit(request, headers, signal);
    this.#status = response.status;
    this.#url = url;
    const received = await this.read(request, response);
    if (afterResponse) {
      const responseHeaders = new Headers(redactHeaders(response.headers, this.secrets));
      const context = { ...this.context(url), status: response.status, responseHeaders };
      await this.#wait('afterResponse', runHook('afterResponse', afterResponse, context, this.secrets));
    }
    return received;
  }

  protected override retryPolicy(request: Outgoing): RetryPolicy {
    const { beforeRetry } = this.#hooks;
    return {
      ...super.retryPolicy(request),
      beforeRetry:
        beforeRetry &&
        ((status, error, delayMs) =>
          runHook('beforeRetry', beforeRetry, { ...this.context(request.url), status, error, delayMs }, this.secrets)),
      hookTimeout: () => this.#pending && hookTimeout(this.#pending, this.timeoutMs),
    };
  }

  /** Hooks add headers to a copy, through a setter only: the key is never readable, nor replaceable. */
  async #beforeRequest(url: string): Promise<Record<string, string>> {
    const sent = { ...this.headers };
    const set = (given: string, value: string): void => {
      // Read once: a name whose `toString` changes between reads must not pass the check as one name and be sent as another.
      const name = String(given);
      const lower = name.toLowerCase();
      if (lower === 'x-api-key') throw new WfaError('hooks may not set X-API-Key');
      const checked = checkRequestOptions({ headers: { [name]: value } }, 'header set by a hook').headers!;
      sent[lower] = checked[lower]!;
    };
    const context = { ...this.context(url), headers: { set } };
    await this.#wait('beforeRequest', runHook('beforeRequest', this.#hooks.beforeRequest!, context, this.secrets));
    return sent;
  }

  async #wait(name: keyof Hooks, pending: Promise<void> | undefined): Promise<void> {
    if (!pending) return;
    this.#pending = name;
    try {
      await pending;
    } finally {
      this.#pending = undefined;
    }
  }

  context(url: string): HookContext {
    const { req } = this;
    return {
      callId: this.#callId,
      method: this.method,
      url: redactText(url, this.secrets),
      route: redactText(String(req.route ?? req.path).split('?')[0]!, this.secrets),
      attempt: this.attempts,
      elapsedMs: now() - this.started,
    };
  }

  /** Awaits a hook's promise until the call's signal or deadline; a rejection is thrown, an end returned. */
  async #bound(pending: Promise<void>): Promise<WfaError | undefined> {
    pending.catch(() => undefined);
    const result = await runPhase(() => pending, { signal: this.req.signal, deadline: this.deadline });
    const { method } = this;
    const route = this.context('').route;
    if (result.type === 'failed') throw result.error;
    if (result.type === 'aborted') return new AbortError(`${method} ${route} was aborted by its signal`, { cause: result.reason });
    if (result.type === 'deadline') {
      const ms = this.req.deadlineMs ?? this.core.settings.deadlineMs ?? Math.round(this.deadline - this.started);
      return new TimeoutError(`${method} ${route} ran past the call's deadline (${ms} ms) in a hook`, ms, 'deadline');
    }
    return undefined;
  }
}

function hookTimeout(name: keyof Hooks, timeoutMs: number): WfaError {
  return new WfaError(`hooks.${name} did not settle within the attempt's timeoutMs (${timeoutMs} ms); the call was not retried`);
}
