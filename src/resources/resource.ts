import type { CoreRequest, HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/options.js';
import { checkInput, idSegment, type Schema } from '../core/schema.js';
import { ApiPromise } from './api-promise.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from './endpoints.js';
import { ALWAYS_CHECKED, MODELS, type ModelName } from './models.js';

// Outside the class, so a resource's published declaration names no part of the core (whose types refer to
// zod), and inspecting a client shows nothing of its configuration.
const cores = new WeakMap<Resource, HttpCore>();

/** What every resource namespace shares: the client's HTTP core. */
export abstract class Resource {
  /** @internal Resources are made by `Client`, with its `HttpCore` (typed `object` for the reason `cores` is a map). */
  constructor(core: object) {
    cores.set(this, core as HttpCore);
  }
}

export function coreOf(resource: Resource): HttpCore {
  // Set by the constructor, which every resource runs.
  return cores.get(resource)!;
}

/** One request as an `ApiPromise`; `build` runs when it is sent, so its `ValidationError` is a rejection. */
export function call<T>(core: HttpCore, build: () => CoreRequest<T>): ApiPromise<T> {
  return new ApiPromise(async (raw) => core.request(build(), raw));
}

/** Any JSON value, for bodies whose shape the service does not document. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Table = typeof ENDPOINTS;
export type ListName = { [K in EndpointName]: Table[K] extends { list: object } ? K : never }[EndpointName];
export type ModelOf<M> = M extends ModelName
  ? (typeof MODELS)[M] extends Schema<infer T>
    ? T
    : (typeof MODELS)[M] extends (data: unknown) => infer T
      ? T
      : never
  : JsonValue | undefined;
type ResponseOf<E> = E extends { response: { model: infer M } } ? ModelOf<M> : JsonValue | undefined;

/** Sends the endpoint `name` of the table. The id and body are checked when it is sent, so a `ValidationError` is a rejection. */
export function send<K extends Exclude<EndpointName, ListName>>(
  resource: Resource,
  name: K,
  input: { id?: unknown; body?: unknown; options?: RequestOptions | undefined },
): ApiPromise<ResponseOf<Table[K]>> {
  return call(coreOf(resource), () => requestOf(name, input));
}

/** The core's request for the endpoint `name` of the table: its path with the id, its checked body, its response spec. */
export function requestOf<K extends Exclude<EndpointName, ListName>>(
  name: K,
  { id, body, options }: { id?: unknown; body?: unknown; options?: RequestOptions | undefined },
): CoreRequest<ResponseOf<Table[K]>> {
  const endpoint: Endpoint = ENDPOINTS[name];
  const path = endpoint.path.replace('{id}', () => idSegment(id, `${endpoint.noun} id`));
  const checked = endpoint.body && (checkInput(MODELS[endpoint.body] as Schema, body, `input to ${name}`) as Record<string, string>);
  const { response } = endpoint;
  const model = response && MODELS[response.model];
  return {
    ...options,
    method: endpoint.method,
    path,
    route: endpoint.path,
    body: checked,
    auth: endpoint.auth,
    secrets: endpoint.secrets?.map((field) => checked?.[field]),
    response: response && {
      name: response.name,
      hideBody: response.hideBody,
      always: ALWAYS_CHECKED[response.model],
      ...(typeof model === 'function' ? { read: model as never } : { schema: model }),
    },
  };
}
