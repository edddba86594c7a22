/**
 * Every error class the SDK throws: the base (`wfa-error.ts`), HTTP error statuses (`api-error.ts`), and here the
 * failures without one. Imports no HTTP code, so the webhooks entry and the mock service can use it.
 */
import { pathOf } from './api-error.js';
import { type Issue, WfaError, formatPath } from './wfa-error.js';

export * from './api-error.js';
export { type Issue, WfaError, formatPath } from './wfa-error.js';

/** A build's state as the service sent it. */
interface BuildState {
  /** Its status: the failure status, such as `failed`, or the one a wait still saw, such as `building`. */
  readonly status: string;
  readonly [key: string]: unknown;
}

function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
}

/** No HTTP response arrived: DNS failure, refused or reset connection, TLS error. */
export class ConnectionError extends WfaError {
  static override readonly kind: string = 'ConnectionError';
}

/**
 * An attempt took longer than `timeoutMs` (and no retry was left or allowed), or the call ran past its
 * `deadlineMs`; `reason` says which. A kind of {@link ConnectionError}.
 */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
  /** The limit that ran out: the attempt's `timeoutMs`, or the call's `deadlineMs`. */
  readonly timeoutMs: number;
  /** `'attempt'` when one attempt's `timeoutMs` ran out, `'deadline'` when the call's `deadlineMs` did. */
  readonly reason: 'attempt' | 'deadline';
  constructor(message: string, timeoutMs: number, reason: 'attempt' | 'deadline' = 'attempt') {
    super(message);
    this.timeoutMs = timeoutMs;
    this.reason = reason;
  }
}

/**
 * No usable API key: none configured, one a header cannot carry, or an `apiKey` function that failed (its error,
 * redacted, is the `cause`). Not retried; a key function that does not settle in time is a {@link TimeoutError}.
 */
export class ApiKeyError extends WfaError {
  static override readonly kind: string = 'ApiKeyError';
}

/** The caller's `signal` aborted the call. `cause` is the signal's reason. */
export class AbortError extends WfaError {
  static override readonly kind: string = 'AbortError';
}

/**
 * An input was rejected before any request was sent. `issues` says which fields and why; values are never
 * echoed, because an input may hold a secret.
 */
export class ValidationError extends WfaError {
  static override readonly kind: string = 'ValidationError';
  /** Every problem found. */
  readonly issues: readonly Issue[];
  /** The first offending field as a dotted path (`trigger.url`), for quick messages. */
  readonly field: string;
  constructor(what: string, issues: readonly Issue[]) {
    super(`Invalid ${what}: ${formatIssues(issues)}`);
    this.issues = issues;
    this.field = formatPath(issues[0]?.path ?? []);
  }
}

/**
 * The service responded 2xx but the body is not what the SDK expects (not JSON, or the wrong shape).
 * Carries the body as received so nothing is lost; pass `validateResponses: false` to skip the check.
 */
export class ResponseValidationError extends WfaError {
  static override readonly kind: string = 'ResponseValidationError';
  /** The body as received: parsed JSON, or the text when it was not JSON. */
  readonly body: unknown;
  /** What did not match. */
  readonly issues: readonly Issue[];
  /** The request method, upper case. */
  readonly method: string;
  /** The full URL that was called. */
  readonly url: string;
  constructor(init: { body: unknown; issues: readonly Issue[]; method: string; url: string; what?: string }) {
    super(`Unexpected response to ${init.method} ${pathOf(init.url)}${init.what ? ` (${init.what})` : ''}: ${formatIssues(init.issues)}`);
    this.body = init.body;
    this.issues = init.issues;
    this.method = init.method;
    this.url = init.url;
  }
}

/** A build ended in a failure status (`failed`, `error`, `cancelled`, `canceled`). */
export class BuildFailedError extends WfaError {
  static override readonly kind: string = 'BuildFailedError';
  /** The last build state received, as the service sent it: `build.status` is the failure status. */
  readonly build: BuildState;
  /** The build's logs as received (their shape is not specified by the service). */
  readonly logs: unknown;
  constructor(buildId: string, build: BuildState) {
    super(`Build ${buildId} ended with status "${build.status}"`);
    this.build = build;
    this.logs = build['logs'];
  }
}

/** Waiting for a build took longer than its `timeoutMs`. */
export class WaitTimeoutError extends WfaError {
  static override readonly kind: string = 'WaitTimeoutError';
  /** The last build state seen, if any poll succeeded: `build.status` is the status it still had. */
  readonly build: BuildState | undefined;
  /** The wait's deadline. */
  readonly timeoutMs: number;
  constructor(buildId: string, timeoutMs: number, build: BuildState | undefined) {
    super(`Build ${buildId} did not finish within ${timeoutMs} ms${build ? ` (last status "${build.status}")` : ''}`);
    this.build = build;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A webhook delivery could not be read: not JSON, not an object, or the wrong envelope. The message says
 * exactly what is wrong; `path` points at the offending field.
 */
export class WebhookParseError extends WfaError {
  static override readonly kind: string = 'WebhookParseError';
  /** The offending field (`data.download_url`), or `(root)`. */
  readonly path: string;
  constructor(message: string, path: readonly PropertyKey[] = []) {
    super(message);
    this.path = formatPath(path);
  }
}
