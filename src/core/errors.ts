/**
 * Every error class the SDK throws. Each carries a brand (its chain's class names under a `Symbol.for` key),
 * so `instanceof` and `is()` also recognise errors from another copy of the package (ESM and CJS in one
 * process). Imports no HTTP code, so the webhooks entry can use it.
 */
import { messageFromBody, pathOf } from './error-message.js';
import { parseRetryAfter } from './retry-after.js';

const KINDS = Symbol.for('workflow-automation-sdk.error-kinds');

type ErrorClass<T extends WfaError> = abstract new (...args: never[]) => T;

/**
 * One problem found in an input or a response, as a plain object (no zod types leak into the public API).
 *
 * @example
 * ```ts
 * try { await client.workflows.create({ name: '', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }); }
 * catch (e) { if (ValidationError.is(e)) console.log(e.issues[0]?.path); } // ['name']
 * ```
 */
export interface Issue {
  /** Where the problem is, from the root of the checked value: `['actions', 0, 'app']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong, in words. Never contains the offending value, which may be a secret. */
  readonly message: string;
  /** A machine-readable code (zod's issue code, for example `invalid_type` or `too_small`). */
  readonly code: string;
}

/** `actions[0].app`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
}

/**
 * The base class of every error this SDK throws.
 *
 * @example
 * ```ts
 * try { await client.workflows.get('wf_1'); }
 * catch (e) { if (e instanceof WfaError) console.error(e.name, e.message); }
 * ```
 */
export class WfaError extends Error {
  /** The class name, kept as data because minifiers rename classes. */
  static readonly kind: string = 'WfaError';
  /** @internal The brand `is()` and `instanceof` read: the class names of the chain, most derived first. */
  declare readonly [KINDS]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Only the SDK's classes have an own `kind`: a user's subclass is named after the SDK class it extends.
    const kinds: string[] = [];
    for (let c: object = new.target; 'kind' in c; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'kind')) kinds.push((c as typeof WfaError).kind);
    }
    Object.defineProperties(this, {
      [KINDS]: { value: kinds },
      // Not enumerable, like Error's own `name`, so spreading or logging an error does not repeat it.
      name: { value: kinds[0], writable: true, configurable: true },
    });
  }

  /**
   * True when `value` is an error of this class (or a subclass), from any copy of the package.
   *
   * @example
   * ```ts
   * if (NotFoundError.is(err)) return null;
   * ```
   */
  static is<T extends WfaError>(this: ErrorClass<T> & { kind: string }, value: unknown): value is T {
    // `?.` guards null and undefined; any other primitive simply has no brand.
    const kinds = (value as { [KINDS]?: unknown } | null | undefined)?.[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  /**
   * Makes `instanceof` work like {@link WfaError.is}, across copies of the package that share no prototype.
   * A subclass of your own keeps ordinary `instanceof`.
   *
   * @example
   * ```ts
   * const { NotFoundError } = require('workflow-automation-sdk'); // the CJS copy
   * const error = await esmClient.workflows.get('wf_missing').catch((e) => e);
   * error instanceof NotFoundError; // true, although an ESM copy threw it
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A user's subclass has no own `kind`: it gets ordinary prototype-chain semantics.
    if (!Object.hasOwn(this, 'kind')) return super[Symbol.hasInstance](value);
    return (this as unknown as typeof WfaError).is(value);
  }
}

/**
 * Facts about the HTTP exchange that failed, as the core hands them to {@link ApiError}. Public so that tests
 * and wrappers can make the SDK's own errors.
 *
 * @example
 * ```ts
 * const init: ApiErrorInit = { status: 404, body: { error: 'not found' }, headers: {}, method: 'GET', url: 'https://wfa.test/api/v1/workflows/wf_1' };
 * const error = ApiError.from(init); // a NotFoundError
 * ```
 */
export interface ApiErrorInit {
  /** The HTTP status code; it picks the subclass in {@link ApiError.from}. */
  status: number;
  /** The error body as received. It appears in messages and logs, so the core removes secrets from it first. */
  body: unknown;
  /** The response headers, names in lower case (`x-request-id` becomes `requestId`). */
  headers: Record<string, string>;
  /** The request method, upper case. */
  method: string;
  /** The URL that was called; secrets removed first, as for `body`. */
  url: string;
  /** Overrides the message that would be read from the body. */
  message?: string;
}

/**
 * The service answered with an HTTP error status. Subclasses name the common statuses.
 *
 * @example
 * ```ts
 * try { await client.workflows.delete('wf_1'); }
 * catch (e) {
 *   if (ApiError.is(e)) console.error(e.status, e.requestId, e.body);
 * }
 * ```
 */
export class ApiError extends WfaError {
  static override readonly kind: string = 'ApiError';
  /** The HTTP status code. */
  declare readonly status: number;
  /** The error body as received: parsed JSON, text, or `undefined` when empty. */
  declare readonly body: unknown;
  /** The response headers, names in lower case. */
  declare readonly headers: Record<string, string>;
  /** The service's request id (`x-request-id` or `request-id`), for support tickets. */
  declare readonly requestId: string | undefined;
  /** The request method, upper case. */
  declare readonly method: string;
  /** The full URL that was called. */
  declare readonly url: string;
  /** The wait the service asked for (`Retry-After` or `retry-after-ms`) in milliseconds, on any status. */
  declare readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const requestId = init.headers['x-request-id'] ?? init.headers['request-id'];
    const reason = init.message ?? messageFromBody(init.status, init.body);
    super(`${init.status} ${reason} (${init.method} ${pathOf(init.url)}${requestId ? `, request id ${requestId}` : ''})`);
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = requestId;
    this.method = init.method;
    this.url = init.url;
    this.retryAfterMs = parseRetryAfter(init.headers);
  }

  /**
   * Builds the subclass that fits the status: `ApiError.from({ status: 404, ... })` is a `NotFoundError`.
   *
   * @example
   * ```ts
   * const err = ApiError.from({ status: 429, body: '', headers: { 'retry-after': '2' }, method: 'GET', url: 'https://x/v1/orders' });
   * err instanceof RateLimitError; // true
   * ```
   */
  static from(init: ApiErrorInit): ApiError {
    const Class = statusClasses[init.status] ?? (init.status >= 500 ? InternalServerError : ApiError);
    return new Class(init);
  }
}

/** 400: the service rejected the request as malformed. @example `if (BadRequestError.is(e)) console.log(e.body);` */
export class BadRequestError extends ApiError {
  static override readonly kind: string = 'BadRequestError';
}
/** 401: the API key is missing, wrong or revoked. @example `if (AuthenticationError.is(e)) promptForKey();` */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
}
/** 403: the key may not do this. @example `if (PermissionDeniedError.is(e)) console.warn(e.message);` */
export class PermissionDeniedError extends ApiError {
  static override readonly kind: string = 'PermissionDeniedError';
}
/** 404: no such resource (or no such endpoint). @example `if (NotFoundError.is(e)) return undefined;` */
export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
}
/** 409: the request conflicts with the resource's state. @example `if (ConflictError.is(e)) await retryLater();` */
export class ConflictError extends ApiError {
  static override readonly kind: string = 'ConflictError';
}
/** 422: the service understood the request but refused its content. @example `if (UnprocessableEntityError.is(e)) console.log(e.body);` */
export class UnprocessableEntityError extends ApiError {
  static override readonly kind: string = 'UnprocessableEntityError';
}

/**
 * 429: too many requests. Thrown once retries are used up, or when the service asks for a wait longer than
 * the SDK will sleep on its own (see the README's Retries section).
 *
 * @example
 * ```ts
 * catch (e) { if (RateLimitError.is(e)) await sleep(e.retryAfterMs ?? 1000); }
 * ```
 */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
}

/** 5xx: the service failed. Retried automatically for GET, PUT and DELETE. @example `if (InternalServerError.is(e)) alertOps(e.requestId);` */
export class InternalServerError extends ApiError {
  static override readonly kind: string = 'InternalServerError';
}

const statusClasses: Record<number, new (init: ApiErrorInit) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * No HTTP answer arrived: DNS failure, refused or reset connection, TLS error.
 *
 * @example
 * ```ts
 * catch (e) { if (ConnectionError.is(e)) console.error('service unreachable:', e.message); }
 * ```
 */
export class ConnectionError extends WfaError {
  static override readonly kind: string = 'ConnectionError';
}

/**
 * An attempt took longer than `timeoutMs` (and no retry was left or allowed), or the call ran past its
 * `deadlineMs`; `reason` says which. A kind of {@link ConnectionError}.
 *
 * @example
 * ```ts
 * catch (e) { if (TimeoutError.is(e)) console.error(e.reason, 'ran out after', e.timeoutMs, 'ms'); }
 * ```
 */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
  /** The limit that ran out: the attempt's `timeoutMs`, or the call's `deadlineMs`. */
  declare readonly timeoutMs: number;
  /** `'attempt'` when one attempt's `timeoutMs` ran out, `'deadline'` when the call's `deadlineMs` did. */
  declare readonly reason: 'attempt' | 'deadline';
  constructor(message: string, timeoutMs: number, reason: 'attempt' | 'deadline' = 'attempt') {
    super(message);
    this.timeoutMs = timeoutMs;
    this.reason = reason;
  }
}

/**
 * No usable API key: none configured, one a header cannot carry, or an `apiKey` function that failed (its error,
 * redacted, is the `cause`). Not retried; a key function that does not settle in time is a {@link TimeoutError}.
 *
 * @example
 * ```ts
 * try { await client.orders.list(); }
 * catch (e) { if (ApiKeyError.is(e)) console.error('could not get a key from the vault', e.cause); }
 * ```
 */
export class ApiKeyError extends WfaError {
  static override readonly kind: string = 'ApiKeyError';
}

/**
 * The caller's `signal` aborted the call. `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const ac = new AbortController(); setTimeout(() => ac.abort(), 100);
 * try { await client.workflows.list({}, { signal: ac.signal }); } catch (e) { AbortError.is(e); } // true
 * ```
 */
export class AbortError extends WfaError {
  static override readonly kind: string = 'AbortError';
}

/**
 * An input was rejected before any request was sent. `issues` says which fields and why; values are never
 * echoed, because an input may hold a secret.
 *
 * @example
 * ```ts
 * catch (e) { if (ValidationError.is(e)) console.error(e.field, e.issues); }
 * ```
 */
export class ValidationError extends WfaError {
  static override readonly kind: string = 'ValidationError';
  /** Every problem found. */
  declare readonly issues: readonly Issue[];
  /** The first offending field as a dotted path (`trigger.url`), for quick messages. */
  declare readonly field: string;
  constructor(what: string, issues: readonly Issue[]) {
    super(`Invalid ${what}: ${formatIssues(issues)}`);
    this.issues = issues;
    this.field = formatPath(issues[0]?.path ?? []);
  }
}

/**
 * The service answered 2xx but the body is not what the SDK expects (not JSON, or the wrong shape).
 * Carries the body as received so nothing is lost; pass `validateResponses: false` to skip the check.
 *
 * @example
 * ```ts
 * catch (e) { if (ResponseValidationError.is(e)) console.error(e.issues, e.body); }
 * ```
 */
export class ResponseValidationError extends WfaError {
  static override readonly kind: string = 'ResponseValidationError';
  /** The body as received: parsed JSON, or the text when it was not JSON. */
  declare readonly body: unknown;
  /** What did not match. */
  declare readonly issues: readonly Issue[];
  /** The request method, upper case. */
  declare readonly method: string;
  /** The full URL that was called. */
  declare readonly url: string;
  constructor(init: { body: unknown; issues: readonly Issue[]; method: string; url: string; what?: string }) {
    super(`Unexpected response to ${init.method} ${pathOf(init.url)}${init.what ? ` (${init.what})` : ''}: ${formatIssues(init.issues)}`);
    this.body = init.body;
    this.issues = init.issues;
    this.method = init.method;
    this.url = init.url;
  }
}

/**
 * A build ended in a failure status (`failed`, `error`, `cancelled`, `canceled`).
 *
 * @example
 * ```ts
 * catch (e) { if (BuildFailedError.is(e)) console.error(e.build.status, e.logs); }
 * ```
 */
export class BuildFailedError extends WfaError {
  static override readonly kind: string = 'BuildFailedError';
  /** The last build state received, as the service sent it. */
  declare readonly build: {
    /** The failure status, such as `failed`. */
    readonly status: string;
    readonly [key: string]: unknown;
  };
  /** The build's logs as received (their shape is not specified by the service). */
  declare readonly logs: unknown;
  constructor(buildId: string, build: { readonly status: string; readonly [key: string]: unknown }) {
    super(`Build ${buildId} ended with status "${build.status}"`);
    this.build = build;
    this.logs = build['logs'];
  }
}

/**
 * Waiting for a build took longer than its `timeoutMs`.
 *
 * @example
 * ```ts
 * catch (e) { if (WaitTimeoutError.is(e)) console.error('still', e.build?.status, 'after', e.timeoutMs); }
 * ```
 */
export class WaitTimeoutError extends WfaError {
  static override readonly kind: string = 'WaitTimeoutError';
  /** The last build state seen, if any poll succeeded. */
  declare readonly build:
    | {
        /** The status it still had, such as `building`. */
        readonly status: string;
        readonly [key: string]: unknown;
      }
    | undefined;
  /** The wait's deadline. */
  declare readonly timeoutMs: number;
  constructor(buildId: string, timeoutMs: number, build: { readonly status: string; readonly [key: string]: unknown } | undefined) {
    super(`Build ${buildId} did not finish within ${timeoutMs} ms${build ? ` (last status "${build.status}")` : ''}`);
    this.build = build;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A webhook delivery could not be read: not JSON, not an object, or the wrong envelope. The message says
 * exactly what is wrong; `path` points at the offending field.
 *
 * @example
 * ```ts
 * catch (e) { if (WebhookParseError.is(e)) return new Response(e.message, { status: 400 }); }
 * ```
 */
export class WebhookParseError extends WfaError {
  static override readonly kind: string = 'WebhookParseError';
  /** The offending field (`data.download_url`), or `(root)`. */
  declare readonly path: string;
  constructor(message: string, path: readonly PropertyKey[] = []) {
    super(message);
    this.path = formatPath(path);
  }
}
