/**
 * How the mock responds: JSON bodies with `content-type: application/json`, and one error body shape,
 * `{ error: { message, code } }`, for every failure.
 */

import type { JsonValue } from './types.js';

/** A failure an endpoint reports by throwing; the router turns it into an error response. */
export class HttpError extends Error {
  readonly headers: Record<string, string>;
  readonly details: { [key: string]: JsonValue };

  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    { headers = {}, details = {} }: { headers?: Record<string, string>; details?: { [key: string]: JsonValue } } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.headers = headers;
    this.details = details;
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export function errorResponse(error: HttpError): Response {
  return json(error.status, { error: { message: error.message, code: error.code, ...error.details } }, error.headers);
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** The error code the mock uses for a status it is asked to fake. */
export function codeForStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
}
