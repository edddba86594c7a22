import type { CoreRequest, HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/options.js';
import { ownFields } from '../core/readable.js';
import { checkInput, idSegment, type Schema } from '../core/schema.js';
import { ApiPromise } from './api-promise.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from './endpoints.js';
import type { MODELS, ModelName } from './models.js';

/**
 * What every standalone function takes first (`createCore` makes one): the client's options, key, path
 * prefix and connection pool. A `Client` has one, which its namespaces' methods pass to the same functions.
 */
export class Core {
  // Private, so the published declaration names no part of the HTTP core (whose types refer to zod), and
  // inspecting a client shows nothing of its configuration.
  readonly #http: HttpCore;

  /** @internal Made by `createCore` and `Client`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** @internal */
  static http(core: Core): HttpCore {
    return core.#http;
  }
}

/** What every resource namespace shares: the client's core. */
export abstract class Resource {
  /** @internal The core its methods pass to the endpoint functions. */
  readonly core: Core;

  /** @internal Resources are made by `Client`. */
  constructor(core: Core) {
    this.core = core;
  }
}

export function coreOf(of: Core | Resource): HttpCore {
  return Core.http(of instanceof Resource ? of.core : of);
}

/** One request as an `ApiPromise`; `build` runs when it is sent, so its `ValidationError` is a rejection. */
export function call<T>(core: HttpCore, build: () => CoreRequest<T>): ApiPromise<T> {
  return new ApiPromise(async (raw) => core.request(build(), raw));
}

/** Any JSON value, for bodies whose shape the service does not document. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Table = typeof ENDPOINTS;
export type ListName = { [K in EndpointName]: Table[K] extends { list: object } ? K : never }[EndpointName];
type Models = typeof MODELS;
export type ModelOf<M> = M extends ModelName
  ? ReturnType<Models[M]> extends Schema<infer T>
    ? T
    : ReturnType<Models[M]> extends (data: unknown) => infer T
      ? T
      : never
  : JsonValue | undefined;
type ResponseOf<E> = E extends { response: { model: infer M } } ? ModelOf<M> : JsonValue | undefined;

/**
 * The models an endpoint's function gives, each the one the table names (by its type): a function imports only
 * its own, so an app bundles only the schemas of the endpoints it calls. `always`: what is checked even with
 * `validateResponses: false`, what the SDK's types rest on.
 */
export type ModelsOf<E> = (E extends { body: infer B extends ModelName } ? { body: Models[B] } : { body?: undefined }) &
  (E extends { response: { model: infer M extends ModelName } }
    ? { response: Models[M]; always?: () => Schema }
    : { response?: undefined });

/** Sends the endpoint `name` of the table. The id and body are checked when it is sent, so a `ValidationError` is a rejection. */
export function send<K extends Exclude<EndpointName, ListName>>(
  core: HttpCore,
  name: K,
  models: ModelsOf<Table[K]>,
  input: { id?: unknown; body?: unknown; options?: RequestOptions | undefined },
): ApiPromise<ResponseOf<Table[K]>> {
  return call(core, () => requestOf(name, models, input));
}

/** The core's request for the endpoint `name` of the table: its path with the id, its checked body, its response spec. */
export function requestOf<K extends Exclude<EndpointName, ListName>>(
  name: K,
  models: ModelsOf<Table[K]>,
  { id, body, options }: { id?: unknown; body?: unknown; options?: RequestOptions | undefined },
): CoreRequest<ResponseOf<Table[K]>> {
  // Read once, first, into a plain copy that is checked and sent: a getter or a Proxy trap that throws is a
  // ValidationError naming its field, and one that answers differently on a second read is never read twice.
  const read = ownFields(options, 'request options');
  const endpoint: Endpoint = ENDPOINTS[name];
  const given = models as { body?: () => Schema; response?: () => unknown; always?: () => Schema };
  const path = endpoint.path.replace('{id}', () => idSegment(id, `${endpoint.noun} id`));
  const checked = given.body && (checkInput(given.body(), body, `input to ${name}`) as Record<string, string>);
  const { response } = endpoint;
  const model = given.response?.();
  return {
    ...read,
    method: endpoint.method,
    path,
    route: endpoint.path,
    body: checked,
    auth: endpoint.auth,
    secrets: endpoint.secrets?.map((field) => checked?.[field]),
    idempotent: endpoint.idempotent,
    response: response && {
      name: response.name,
      hideBody: response.hideBody,
      always: given.always?.(),
      ...(typeof model === 'function' ? { read: model as never } : { schema: model as Schema }),
    },
  };
}
