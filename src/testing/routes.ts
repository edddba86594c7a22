/**
 * From a request to an endpoint: the path prefix, the resource and id, the method, then the API key. The
 * order matters to clients: a path outside the configured prefixes is a 404 whatever the key, which is what
 * lets the SDK tell a wrong prefix from a wrong key.
 */

import {
  createWorkflow,
  deleteIntegration,
  deleteWorkflow,
  download,
  getBuild,
  getOrder,
  getWorkflow,
  listIntegrations,
  listOrders,
  listWorkflows,
  login,
  saveIntegration,
  updateWorkflow,
  type Endpoint,
  type ServiceState,
} from './endpoints.js';
import { errorResponse, HttpError } from './responses.js';

type Methods = Partial<Record<string, Endpoint>>;

const RESOURCES: Record<string, { collection: Methods; item: Methods }> = {
  workflows: {
    collection: { GET: listWorkflows, POST: createWorkflow },
    item: { GET: getWorkflow, PUT: updateWorkflow, DELETE: deleteWorkflow },
  },
  orders: { collection: { GET: listOrders }, item: { GET: getOrder } },
  builds: { collection: {}, item: { GET: getBuild } },
  integrations: {
    collection: { GET: listIntegrations, POST: saveIntegration },
    item: { DELETE: deleteIntegration },
  },
};

/** Key issuing lives at `/v1/auth` only (unless configured), whichever resource prefixes are enabled. */
export const AUTH_PATH = '/v1/auth';
const DOWNLOADS = '/downloads/';

function noEndpoint(request: Request, path: string): HttpError {
  return new HttpError(404, `No endpoint ${request.method} ${path}`, 'not_found');
}

function notAllowed(request: Request, path: string, allowed: string[]): HttpError {
  return new HttpError(405, `${request.method} is not allowed on ${path}`, 'method_not_allowed', {
    allow: allowed.join(', '),
  });
}

// Segments are split before decoding, so an encoded "/" in an id stays inside the id.
function segments(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function authenticate(request: Request, state: ServiceState): string {
  const key = request.headers.get('x-api-key');
  if (!key) throw new HttpError(401, 'Missing X-API-Key header', 'missing_api_key');
  const owner = state.store.keys.get(key);
  if (!owner) throw new HttpError(401, 'Invalid API key', 'invalid_api_key');
  return owner;
}

async function dispatch(request: Request, state: ServiceState, prefixes: readonly string[], authPath: string): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;

  if (path === authPath) {
    if (request.method !== 'POST') throw notAllowed(request, path, ['POST']);
    return login(request, state);
  }
  if (path.startsWith(DOWNLOADS)) {
    const names = segments(path.slice(DOWNLOADS.length - 1)) ?? [];
    if (request.method !== 'GET' || names.length !== 1 || !names[0]) throw noEndpoint(request, path);
    return download(request, names[0], state);
  }

  // Longest first, so a prefix that contains another wins.
  const prefix = [...prefixes].sort((a, b) => b.length - a.length).find((candidate) => path.startsWith(`${candidate}/`));
  const parts = prefix === undefined ? undefined : segments(path.slice(prefix.length));
  const [resource = '', id, ...rest] = parts ?? [];
  const routes = Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource] : undefined;
  if (!routes || rest.length > 0 || id === '') throw noEndpoint(request, path);

  const methods = id === undefined ? routes.collection : routes.item;
  const allowed = Object.keys(methods);
  if (allowed.length === 0) throw noEndpoint(request, path);
  const endpoint = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  if (!endpoint) throw notAllowed(request, path, allowed);

  const owner = authenticate(request, state);
  return endpoint({ request, url, id: id ?? '', owner, state });
}

/**
 * Answers a request with the endpoint it names. Failures thrown as {@link HttpError} become their JSON
 * error response; anything else is a bug in the mock and becomes a 500 that says so.
 */
export async function route(request: Request, state: ServiceState, prefixes: readonly string[], authPath = AUTH_PATH): Promise<Response> {
  try {
    return await dispatch(request, state, prefixes, authPath);
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    const message = error instanceof Error ? error.message : String(error);
    return errorResponse(new HttpError(500, `Mock service error: ${message}`, 'internal_error'));
  }
}
