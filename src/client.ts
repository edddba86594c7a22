/** The `Client`: the service's routes, one HTTP core, and the resource namespaces that share them. */
import type { HttpCore } from './core/http.js';
import { ownFields } from './core/readable.js';
import type { ClientOptions, RequestOptions } from './core/options.js';
import type { QueryValue } from './core/query.js';
import { Auth } from './resources/auth.js';
import type { Credentials } from './resources/credentials.js';
import type { CompletedBuild } from './resources/build.js';
import type { BuildTarget, WaitForBuildOptions } from './resources/build-wait.js';
import { Builds } from './resources/builds.js';
import { Integrations } from './resources/integrations.js';
import { Orders } from './resources/orders.js';
import { Workflows } from './resources/workflows.js';
import type { ApiPromise } from './resources/api-promise.js';
import { Core, call } from './resources/resource.js';
import type { PrefixRoutes } from './service/prefix.js';
import { openCore, type Parent } from './resources/create-core.js';

/**
 * A call to an endpoint the SDK does not model yet, through the same core (key, prefix, retries, errors).
 *
 * @example
 * ```ts
 * const stats = await client.request<{ count: number }>({ method: 'GET', path: '/workflows/stats' });
 * ```
 */
export interface RawRequest extends RequestOptions {
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | (string & {});
  /** `/workflows`, `/api/v1/workflows` or `/v1/workflows`: all go under the confirmed prefix. */
  path: string;
  /** Query parameters; `undefined` and `null` are left out, arrays repeat the name. */
  query?: Record<string, QueryValue> | undefined;
  /** A JSON body. */
  body?: unknown;
}

/** What {@link Client.login} takes: the client's options plus the credentials. */
export type LoginOptions = Omit<ClientOptions, 'apiKey'> & Credentials;

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Workflow Automation Service client.
 *
 * @example
 * ```ts
 * import { Client } from 'workflow-automation-sdk';
 *
 * const client = new Client({ apiKey: process.env.WFA_API_KEY, baseUrl: 'https://automation.example.com' });
 * const workflow = await client.workflows.get('wf_1');
 * ```
 */
export class Client {
  /** Create, read, change and delete workflows. */
  readonly workflows: Workflows;
  /** Read orders. */
  readonly orders: Orders;
  /** Read builds, wait for them (`builds.wait`) or watch them change (`builds.watch`). */
  readonly builds: Builds;
  /** Save, list and remove third-party platform keys. */
  readonly integrations: Integrations;
  /** Issue API keys from an email and password. */
  readonly auth: Auth;
  readonly #core: HttpCore;
  readonly #routes: PrefixRoutes;
  readonly #options: ClientOptions;
  // Set by `withOptions` for the one constructor call it makes: the public constructor takes options only.
  static #parent: Parent | undefined;

  /**
   * @throws ValidationError naming an invalid option; WfaError when `baseUrl` is missing or not http(s). A missing
   * API key is reported by the first call that needs one, so key issuing works without one.
   */
  constructor(options: ClientOptions = {}) {
    const parent = Client.#parent;
    Client.#parent = undefined;
    // Read once: the copy is checked, and kept for withOptions, which would otherwise read the caller's object again.
    const given = ownFields(options, 'client options');
    const { http, routes } = openCore(given, parent);
    this.#options = given;
    this.#core = http;
    this.#routes = routes;
    const core = new Core(http);
    this.builds = new Builds(core);
    this.workflows = new Workflows(core);
    this.orders = new Orders(core);
    this.integrations = new Integrations(core);
    this.auth = new Auth(core);
    // Not a method: a class with a computed method name is one a bundler must keep, even when nothing uses it.
    Object.defineProperty(this, inspectSymbol, { value: () => `Client ${JSON.stringify(this.toJSON())}` });
  }

  /**
   * A client with these options merged over this one's. It shares this client's connection pool, confirmed path
   * prefix and rate gate (one budget), unless the options given replace what they come from (`fetch` or `agent`;
   * `baseUrl`, `apiPrefix` or `authPath`; `rateLimit`). This client is unchanged.
   *
   * @throws ValidationError naming an invalid option, as `new Client` does.
   * @example
   * ```ts
   * const patient = client.withOptions({ timeoutMs: 120_000, maxRetries: 5 });
   * await patient.workflows.list();
   * ```
   */
  withOptions(options: ClientOptions): Client {
    const changed = ownFields(options ?? {}, 'client options');
    Client.#parent = { http: this.#core, routes: this.#routes, changed };
    try {
      return new Client({ ...this.#options, ...changed });
    } finally {
      Client.#parent = undefined;
    }
  }

  /**
   * Logs in with an email and password at `/v1/auth` and returns a client holding the issued key.
   *
   * @example
   * ```ts
   * const client = await Client.login({ baseUrl: 'http://127.0.0.1:4010', email: 'demo@example.com', password: 'demo' });
   * ```
   */
  static async login(options: LoginOptions, requestOptions?: RequestOptions): Promise<Client> {
    const { email, password, ...clientOptions } = ownFields(options, 'login options');
    const anonymous = new Client({ ...clientOptions, apiKey: undefined });
    const { apiKey } = await anonymous.auth.issueKey({ email, password }, requestOptions);
    return new Client({ ...clientOptions, apiKey });
  }

  /**
   * Waits for a build (a build id, or a workflow's `build_id`) to complete and resolves with it. Same as
   * `client.builds.wait`, which documents every rejection and the polling schedule.
   *
   * @example
   * ```ts
   * const build = await client.waitForBuild(workflow, { onProgress: (b) => console.log(b.status, b.progress) });
   * console.log(build.download_url);
   * ```
   */
  waitForBuild(target: BuildTarget, options?: WaitForBuildOptions | null): Promise<CompletedBuild> {
    return this.builds.wait(target, options);
  }

  /**
   * Calls an endpoint the SDK does not model yet; returns the body as received (`undefined` when empty).
   *
   * @example
   * ```ts
   * const body = await client.request<{ data: unknown[] }>({ method: 'GET', path: '/v1/workflows', query: { limit: 5 } });
   * ```
   */
  request<T = unknown>(request: RawRequest): ApiPromise<T> {
    return call<T>(this.#core, () => {
      const { method, path, query, body, signal, timeoutMs, maxRetries, headers, deadlineMs } = ownFields(request, 'request');
      return { method, path, query, body, signal, timeoutMs, maxRetries, headers, deadlineMs };
    });
  }

  /**
   * The service root and prefix state, for logs and `JSON.stringify(client)`; never the key.
   *
   * @example
   * ```ts
   * console.log(JSON.stringify(client));
   * // {"baseUrl":"https://automation.example.com","apiPrefix":"/api/v1","prefixConfirmed":true,"apiKey":"[redacted]"}
   * ```
   */
  toJSON(): {
    /** The service root, without the path prefix. */
    baseUrl: string;
    /** The path prefix in use (or tried first, until confirmed). */
    apiPrefix: string;
    /** Set in the options, or a response other than 404 under it; until then a 404 makes the client try the other. */
    prefixConfirmed: boolean;
    /** `'[redacted]'` or `'(none)'`: whether a key is set helps debugging; its value never would. */
    apiKey: string;
  } {
    const { prefix, confirmed } = this.#routes.state;
    return {
      baseUrl: this.#routes.root,
      apiPrefix: prefix,
      prefixConfirmed: confirmed,
      apiKey: this.#core.settings.apiKey !== undefined ? '[redacted]' : '(none)',
    };
  }
}
