/**
 * A call of a client with hooks: the same steps as `Call`, with the hooks wrapped around them. A hook's
 * failure (a throw, a rejection, a hang past the attempt's timeout) is the hook's: never retried, never a
 * network error.
 */
import { Call, type Received } from './call.js';
import type { Outgoing } from './redirect.js';
import { WfaError } from './errors.js';
import { abortedBy } from './failures.js';
import { nextId, runHook, type BeforeRequestContext, type Hook, type HookContext, type Hooks } from './hooks.js';
import type { CoreResponse } from './request.js';
import { type AbortSource, now, runPhase } from './timing.js';
import { letGo } from './transport.js';
import { credentialValuesSent, redactText, thrownName, usableSecrets } from './redact.js';
import { redactHeaders } from './response.js';
import type { RetryPolicy } from './retry.js';
import { checkRequestOptions } from './settings.js';

export class HookedCall<T> extends Call<T> {
  readonly #hooks: Hooks = this.core.settings.hooks!;
  readonly #callId = nextId();
  /** The hook an attempt is waiting for: a timeout then is the hook's. */
  #pending: keyof Hooks | undefined;

  /**
   * `onSuccess` and `onError` run once per call, awaited within its deadline and signal. A call failed by its
   * `onSuccess` failed: `onError` hears it too.
   */
  override async run(): Promise<CoreResponse<T>> {
    const { onSuccess, onError } = this.#hooks;
    try {
      const result = await super.run();
      if (onSuccess) {
        const context = { ...this.context(this.last?.url ?? ''), status: result.response.status };
        try {
          const ended = await this.#bound(runHook('onSuccess', onSuccess, context, this.secrets));
          if (ended) throw ended;
        } catch (error) {
          // A raw success is then never handed out: its body, connection and abort listener are let go.
          void result.raw?.body?.cancel().catch(() => undefined);
          throw error;
        }
      }
      return result;
    } catch (error) {
      // A pending onError is waited for one timeoutMs at most, and never past the deadline: then the call's error
      // stands. The deadline alone is no bound for a failure before any attempt (a key function's): it counts
      // every retry the call will now never make. An onError that throws changes nothing either: the caller
      // handles the call's error by its type, and the hook's failure is a warning.
      if (onError) {
        const context = { ...this.context(this.last?.url ?? ''), error: error as WfaError, status: this.last?.status };
        try {
          await this.#bound(runHook('onError', onError, context, this.secrets), Math.min(this.deadline, now() + this.timeoutMs));
        } catch (failure) {
          const name = thrownName((failure as Error).cause);
          this.core.log.log('warn', `hooks.onError threw (${name}); the call's own error stands`, this.secrets);
        }
      }
      throw error;
    }
  }

  protected override headersFor(url: string): Record<string, string> | Promise<Record<string, string>> {
    const { beforeRequest } = this.#hooks;
    return beforeRequest ? this.#beforeRequest(beforeRequest, url) : this.headers;
  }

  protected override async heard(received: Received, abort: AbortSource): Promise<void> {
    const { afterResponse } = this.#hooks;
    if (!afterResponse) return;
    const { url, status, headers } = received;
    const context = { ...this.context(url), status, responseHeaders: new Headers(redactHeaders(headers, this.secrets)) };
    // A raw success is never handed out if the hook fails, or if the attempt ends first (its timeoutMs, the
    // caller's signal) while the hook runs, slow or hung: its body, connection and abort listener are let go.
    const stop = (): void => void letGo(received.raw?.body);
    abort.addListener(stop);
    try {
      await this.#wait('afterResponse', runHook('afterResponse', afterResponse, context, this.secrets));
    } catch (error) {
      stop();
      throw error;
    } finally {
      abort.removeListener(stop);
    }
  }

  protected override retryPolicy(request: Outgoing): RetryPolicy {
    const { beforeRetry } = this.#hooks;
    return {
      ...super.retryPolicy(request),
      beforeRetry:
        beforeRetry &&
        ((status, error, delayMs) =>
          runHook('beforeRetry', beforeRetry, { ...this.context(request.url), status, error, delayMs }, this.secrets)),
      hookTimeout: () =>
        this.#pending &&
        new WfaError(
          `hooks.${this.#pending} did not settle within the attempt's timeoutMs (${this.timeoutMs} ms); the call was not retried`,
        ),
    };
  }

  /** Hooks add headers to a copy, through a setter only: the key is never readable, nor replaceable. */
  async #beforeRequest(hook: Hook<BeforeRequestContext>, url: string): Promise<Record<string, string>> {
    const sent = { ...this.headers };
    const set = (given: string, value: string): void => {
      // Read once: a name whose `toString` changes between reads must not pass the check as one name and be sent as another.
      const name = String(given);
      if (name.toLowerCase() === 'x-api-key') throw new WfaError('hooks may not set X-API-Key');
      const checked = checkRequestOptions({ headers: { [name]: value } }, 'header set by a hook').headers ?? {};
      Object.assign(sent, checked);
      // A credential a hook adds (a rotating bearer token) is a secret of the call, as one given in `headers` is.
      this.secrets = usableSecrets([...this.secrets, ...credentialValuesSent(Object.entries(checked))]);
    };
    await this.#wait('beforeRequest', runHook('beforeRequest', hook, { ...this.context(url), headers: { set } }, this.secrets));
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

  /** Awaits a hook's promise until the call's signal or deadline (or an earlier one); a rejection is thrown, an end returned. */
  async #bound(pending: Promise<void> | undefined, deadline = this.deadline): Promise<WfaError | undefined> {
    if (!pending) return undefined;
    pending.catch(() => undefined);
    const result = await runPhase(() => pending, { signal: this.req.signal, deadline });
    if (result.type === 'failed') throw result.error;
    const what = `${this.method} ${this.context('').route}`;
    if (result.type === 'aborted') return abortedBy(what, result.reason);
    return result.type === 'deadline' ? this.pastDeadline(what, ' in a hook') : undefined;
  }
}
