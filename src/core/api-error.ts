/** `ApiError`, the error for an HTTP error status: its subclasses by status, and its message. Imports no HTTP code. */
import { parseRetryAfter, requestIdOf } from './retry-after.js';
import { WfaError } from './wfa-error.js';

/** Facts about the HTTP request that failed, as the core hands them to {@link ApiError}; public for tests and wrappers. */
export interface ApiErrorInit {
  /** The HTTP status code; it picks the subclass in {@link ApiError.from}. */
  status: number;
  /** The error body as received. It appears in messages and logs, so the core removes secrets from it first. */
  body: unknown;
  /** The response headers, names in lower case (`x-request-id` becomes `requestId`); the core redacts them first, as for `body`. */
  headers: Record<string, string>;
  /** The request method, upper case. */
  method: string;
  /** The URL that was called; secrets removed first, as for `body`. */
  url: string;
  /** Overrides the message that would be read from the body. */
  message?: string;
}

// A code is a short token; anything else (a sentence, a redacted secret's `[redacted]`) is no code.
const CODE = /^[\w.:-]{1,100}$/;

/** The body's error code: `error.code`, else `code`, else `error.type` (Stripe's and OpenAI's shapes). */
function codeOf(body: unknown): string | undefined {
  // `?.` on a string or a number body reads `undefined`; only null and undefined need guarding.
  const fields = body as { error?: { code?: unknown; type?: unknown } | null; code?: unknown } | null | undefined;
  return [fields?.error?.code, fields?.code, fields?.error?.type].find((c): c is string => typeof c === 'string' && CODE.test(c));
}

/** The service responded with an HTTP error status. Subclasses name the common statuses. */
export class ApiError extends WfaError {
  static override readonly kind: string = 'ApiError';
  /** The HTTP status code. */
  readonly status: number;
  /**
   * The service's error code, read from the body's `error.code`, `code` or `error.type` (the first that is a
   * short token), or `undefined` when the body has none: `if (e.code === 'validation_error') …`.
   */
  readonly code: string | undefined;
  /** The error body as received: parsed JSON, text, or `undefined` when empty. */
  readonly body: unknown;
  /** The response headers, names in lower case; a credential-named one's value (`set-cookie`, `x-api-key`) is `[redacted]`. */
  readonly headers: Record<string, string>;
  /** The service's request id (`x-request-id` or `request-id`), for support tickets. */
  readonly requestId: string | undefined;
  /** The request method, upper case. */
  readonly method: string;
  /** The full URL that was called. */
  readonly url: string;
  /** The wait the service asked for (`Retry-After` or `retry-after-ms`) in milliseconds, on any status. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const requestId = requestIdOf(init.headers);
    const reason = init.message ?? messageFromBody(init.status, init.body);
    super(`${init.status} ${reason} (${init.method} ${pathOf(init.url)}${requestId ? `, request id ${requestId}` : ''})`);
    this.status = init.status;
    this.code = codeOf(init.body);
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = requestId;
    this.method = init.method;
    this.url = init.url;
    this.retryAfterMs = parseRetryAfter(init.headers);
  }

  /** Builds the subclass that fits the status: `ApiError.from({ status: 404, ... })` is a `NotFoundError`. */
  static from(init: ApiErrorInit): ApiError {
    const Class = statusEntry(init.status)?.[1] ?? ApiError;
    return new Class(init);
  }
}

/** 400: the service rejected the request as malformed. */
export class BadRequestError extends ApiError {
  static override readonly kind: string = 'BadRequestError';
}
/** 401: the API key is missing, wrong or revoked. */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
}
/** 403: the key may not do this. */
export class PermissionDeniedError extends ApiError {
  static override readonly kind: string = 'PermissionDeniedError';
}
/** 404: no such resource (or no such endpoint). */
export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
}
/** 409: the request conflicts with the resource's state. */
export class ConflictError extends ApiError {
  static override readonly kind: string = 'ConflictError';
}
/** 422: the service understood the request but refused its content. */
export class UnprocessableEntityError extends ApiError {
  static override readonly kind: string = 'UnprocessableEntityError';
}
/**
 * 429: too many requests. Thrown once retries are used up, or when the service asks for a wait longer than
 * the SDK will sleep on its own (`retryAfterMs` says how long).
 */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
}
/** 5xx: the service failed. Retried automatically for GET, PUT and DELETE. */
export class InternalServerError extends ApiError {
  static override readonly kind: string = 'InternalServerError';
}

/** Each status with a class of its own, 408 and the gateway errors: its name, its class; each name costs browser bundle bytes. */
const STATUSES: Record<number, readonly [string, (new (init: ApiErrorInit) => ApiError)?]> = {
  400: ['Bad Request', BadRequestError],
  401: ['Unauthorized', AuthenticationError],
  403: ['Forbidden', PermissionDeniedError],
  404: ['Not Found', NotFoundError],
  408: ['Request Timeout'],
  409: ['Conflict', ConflictError],
  422: ['Unprocessable Entity', UnprocessableEntityError],
  429: ['Too Many Requests', RateLimitError],
  500: ['Internal Server Error', InternalServerError],
  502: ['Bad Gateway', InternalServerError],
  503: ['Service Unavailable', InternalServerError],
  504: ['Gateway Timeout', InternalServerError],
};

/** Any other 5xx is a 500's kind; a status past 599 is no class HTTP defines, so a plain `ApiError`. */
function statusEntry(status: number) {
  return STATUSES[status] ?? (status >= 500 && status <= 599 ? STATUSES[500] : undefined);
}

/** A URL's path and query, as messages show it. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

const MAX_MESSAGE = 300;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE ? `${oneLine.slice(0, MAX_MESSAGE)}…` : oneLine;
}

/** A string, an object's `msg` or `message`, or a list's texts joined (FastAPI's `detail: [{ msg, loc }]`). */
function textOf(value: unknown): string {
  const entries = (Array.isArray(value) ? value : [value]) as (string | { msg?: unknown; message?: unknown } | null | undefined)[];
  return entries
    .map((entry) => (typeof entry === 'string' ? entry : (entry?.msg ?? entry?.message)))
    .filter((text) => typeof text === 'string' && text !== '')
    .join('; ');
}

/** The message of an `ApiError`: the service's own words from the error body, else the status's name. */
export function messageFromBody(status: number, body: unknown): string {
  const fallback = statusEntry(status)?.[0] ?? 'HTTP Error';
  if (body === undefined || body === null || body === '') return `${fallback} (empty body)`;
  if (typeof body === 'string' && /^\s*</.test(body)) {
    // An error page from a proxy or load balancer: its title says enough, the markup would drown the message.
    const title = clip(/<title[^>]*>([^<]*)/i.exec(body)?.[1] ?? '');
    return `${fallback} (HTML page${title ? `: ${title}` : ''})`;
  }
  // In an object, the first field that holds text wins.
  const fields = body as Record<string, unknown>;
  const candidates =
    typeof body === 'string' ? [body] : [fields.message, fields.error, fields.detail, fields.error_description, fields.title];
  for (const candidate of candidates) {
    const text = clip(textOf(candidate));
    if (text) return text;
  }
  return fallback;
}
