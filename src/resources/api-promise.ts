/** `ApiPromise`: what every single-request method returns (`PagePromise`, what `list()` returns, extends it). */
import { WfaError } from '../core/errors.js';
import type { CoreResponse } from '../core/http.js';
import type { ResponseDetails } from '../core/options.js';

/** The data of a call with its response's details. */
export interface WithResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** Status, headers, request id, final URL, attempts and time. */
  response: ResponseDetails;
}

/**
 * A `Promise` of a call's data that can also give the response's details (`withResponse`) or the raw, unread
 * `Response` (`asResponse`). The one rule for when a call is sent: on the microtask after the method returns,
 * awaited or not (as in openai-node), and once however it is read; that microtask lets `asResponse()`, called
 * right away, ask for the body unread.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #run: (raw: boolean) => Promise<CoreResponse<T>>;
  #call: Promise<CoreResponse<T>> | undefined;
  // Set when the call is sent: whether it was sent for `asResponse()`.
  #raw: boolean | undefined;

  /** @internal Derived promises (`finally`) are plain ones: `then` comes from the call. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** @internal Made by the resource methods. */
  constructor(run: (raw: boolean) => Promise<CoreResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#run = run;
    queueMicrotask(() => void this.#start(false));
  }

  #start(raw: boolean): Promise<CoreResponse<T>> {
    this.#raw ??= raw;
    this.#call ??= this.#run(raw);
    return this.#call;
  }

  #sent(): Promise<CoreResponse<T>> {
    const call = this.#start(false);
    return this.#raw ? Promise.reject(new WfaError('This call was sent for asResponse()')) : call;
  }

  /** The data with the response's details: `{ data, response: { status, headers, requestId, url, attempts, elapsedMs } }`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#sent().then(({ data, response }) => ({ data, response }));
  }

  /**
   * The raw `Response` of a success, its body unread (and not validated): call it on the method's promise
   * right away, before the request is sent. Errors still reject as usual.
   *
   * @throws WfaError when the call was already sent to be read by the SDK.
   * @example
   * ```ts
   * const response = await client.workflows.get('wf_1').asResponse();
   * const text = await response.text();
   * ```
   */
  asResponse(): Promise<Response> {
    if (this.#raw === false) {
      return Promise.reject(new WfaError('asResponse() must be called right away, before the call is sent'));
    }
    return this.#start(true).then((call) => call.raw!);
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise's own `then`, delegating to the call.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#sent()
      .then((call) => call.data)
      .then(onfulfilled, onrejected);
  }
}
