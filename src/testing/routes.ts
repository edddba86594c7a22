/**
 * From a request to an endpoint of the SDK's table (`src/resources/endpoints.ts`): the path prefix, the path
 * template, the method, then the API key. The order matters to clients: a path outside the configured prefixes
 * is a 404 whatever the key, which is what lets the SDK tell a wrong prefix from a wrong key.
 */
import { ENDPOINTS, type Endpoint as Declared, type EndpointName } from '../resources/endpoints.js';
import { download, HANDLERS, type ServiceState } from './endpoints.js';
import { errorResponse, HttpError } from './responses.js';

interface Route {
  name: EndpointName;
  method: string;
  /** The template's segments; `{id}` matches any one non-empty segment. */
  segments: string[];
}

const routes = (keyIssuing: boolean): Route[] =>
  (Object.entries(ENDPOINTS) as [EndpointName, Declared][])
    .filter(([, endpoint]) => (endpoint.auth === false) === keyIssuing)
    .map(([name, { method, path }]) => ({ name, method, segments: path.split('/').slice(1) }));

// Key issuing is served at the mock's `authPath` (its table path by default), outside the prefixes, with no key.
const RESOURCE_ROUTES = routes(false);
const KEY_ISSUING_ROUTES = routes(true);

/** Key issuing lives at `/v1/auth` only (unless configured), whichever resource prefixes are enabled. */
export const AUTH_PATH = '/v1/auth';
const DOWNLOADS = '/downloads/';

function noEndpoint(request: Request, path: string): HttpError {
  return new HttpError(404, `No endpoint ${request.method} ${path}`, 'not_found');
}

// Segments are split before decoding, so an encoded "/" in an id stays inside the id.
function segments(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

const matches = (route: Route, parts: string[]): boolean =>
  route.segments.length === parts.length &&
  route.segments.every((segment, i) => (segment === '{id}' ? parts[i] !== '' : segment === parts[i]));

/** The route of the request's method among those of its path: 404 for a path of none, 405 for another method. */
function find(request: Request, path: string, candidates: Route[]): Route {
  if (candidates.length === 0) throw noEndpoint(request, path);
  const route = candidates.find((candidate) => candidate.method === request.method);
  if (route) return route;
  throw new HttpError(405, `${request.method} is not allowed on ${path}`, 'method_not_allowed', {
    headers: { allow: candidates.map((candidate) => candidate.method).join(', ') },
  });
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
    const route = find(request, path, KEY_ISSUING_ROUTES);
    return HANDLERS[route.name]({ request, url, id: '', owner: '', state });
  }
  if (path.startsWith(DOWNLOADS)) {
    const names = segments(path.slice(DOWNLOADS.length - 1)) ?? [];
    if (request.method !== 'GET' || names.length !== 1 || !names[0]) throw noEndpoint(request, path);
    return download(request, names[0], state);
  }

  // Longest first, so a prefix that contains another wins.
  const prefix = [...prefixes].sort((a, b) => b.length - a.length).find((candidate) => path.startsWith(`${candidate}/`));
  const parts = prefix === undefined ? undefined : segments(path.slice(prefix.length));
  const route = find(request, path, parts ? RESOURCE_ROUTES.filter((candidate) => matches(candidate, parts)) : []);
  const owner = authenticate(request, state);
  const id = parts![route.segments.indexOf('{id}')] ?? '';
  return HANDLERS[route.name]({ request, url, id, owner, state });
}

/**
 * Responds to a request with the endpoint it names. Failures thrown as {@link HttpError} become their JSON
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
