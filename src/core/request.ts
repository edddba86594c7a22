/** What a resource hands the core, and what the core needs of its host: types only, so every core file can import them. */
import type { ApiError } from './api-error.js';
import type { LevelLogger } from './logger.js';
import type { RequestOptions, ResponseDetails } from './options.js';
import type { QueryValue } from './query.js';
import type { RateGate } from './rate-gate.js';
import type { Schema } from './schema.js';
import type { ClientSettings } from './settings.js';

/** What a resource says about a response. */
export interface ResponseSpec<T> {
  /** Words for error messages: "workflow", "list of orders". */
  name: string;
  schema?: Schema<unknown> | undefined;
  /** Runs inside the core, so a `ResponseValidationError` it throws gets the call's URL and redaction. */
  read?: ((data: unknown) => T) | undefined;
  /** The body may hold a credential the SDK cannot name: it is kept out of errors entirely. */
  hideBody?: boolean | undefined;
  /** Checked in place of `schema` with `validateResponses: false`: what the SDK's types rest on (`schema` includes it). */
  always?: Schema<unknown> | undefined;
}

/** One call, as a resource hands it to the core. */
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
  /** A POST that acts once however often it is sent (the endpoint table's `idempotent`): retried as a PUT is. */
  idempotent?: boolean | undefined;
  response?: ResponseSpec<T> | undefined;
}

/** Where one path goes. */
export interface Route {
  readonly url: string;
  /**
   * Called with each response's status and the URL that gave it, after any redirect (and an error status's
   * error): any but 404, or the service's own 404, confirms the prefix that URL is under.
   */
  confirm(status: number, url: string, error?: ApiError): void;
  /** After a 404: the URL to try instead, once, while the prefix is not confirmed. */
  fallback(): string | undefined;
}

/** The key is sent under the root and nowhere else. */
export interface Routes {
  /** Origin plus any base path, no trailing slash. */
  readonly root: string;
  route(path: string): Route;
}

/** A call's result: the checked data and the response's details. */
export interface CoreResponse<T> {
  data: T;
  response: ResponseDetails;
  /** Set when the call was sent with `raw`: the success's body, unread. */
  raw?: Response | undefined;
}

/** What a call needs of the client's core. */
export interface CallHost {
  readonly settings: ClientSettings;
  readonly routes: Routes;
  readonly log: LevelLogger;
  lastKey: string | undefined;
  /** Every send of the client passes it; `undefined` with `rateLimit: false`. */
  readonly gate: RateGate | undefined;
  noteDeprecation(endpoint: string, headers: Headers, secrets: readonly string[]): void;
}
