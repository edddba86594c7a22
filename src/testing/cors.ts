/**
 * CORS, so that browser code can call the mock HTTP server (`wfa mock`) directly. msw does not need it, but
 * the headers are harmless there.
 */

const EXPOSED = 'x-request-id, retry-after, x-total-count';

/** Adds the headers a cross-origin caller needs to read a response. */
export function withCors(response: Response): Response {
  response.headers.set('access-control-allow-origin', '*');
  response.headers.set('access-control-expose-headers', EXPOSED);
  return response;
}

/**
 * The response to a CORS preflight (`OPTIONS`): every method and the headers asked for, without an API key,
 * since browsers never send one on a preflight.
 */
export function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? 'content-type, x-api-key',
      'access-control-max-age': '600',
    },
  });
}
