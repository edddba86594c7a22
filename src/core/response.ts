/** What a call hands back from a response: its body parsed and checked, its details, its headers with secrets removed. */
import { ApiError, ResponseValidationError, type Issue } from './errors.js';
import { messageFromBody, pathOf } from './api-error.js';
import { requestIdOf } from './retry-after.js';
import type { ResponseDetails } from './options.js';
import type { ResponseSpec } from './request.js';
import { isCredentialName, REDACTED, redact, redactAndCut, redactText } from './redact.js';
import { safeParse, toIssues } from './schema.js';

/**
 * Header names in lower case (as `Headers` gives them), values with the secrets removed; a credential-named one's
 * whole. A header whose name holds a secret is left out: a name cannot hold the mark that would replace it.
 */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (redactText(name, secrets) !== name) continue;
    out[name] = isCredentialName(name) ? REDACTED : redactText(value, secrets);
  }
  return out;
}

/** The body as JSON, checked against the spec's schema, then its `read`; any failure a `ResponseValidationError`. */
export function parseBody<T>(
  received: { text: string; url: string; headers: Headers },
  spec: ResponseSpec<T> | undefined,
  call: { method: string; secrets: readonly string[]; validate: boolean },
): T {
  const { secrets } = call;
  const invalid = (body: unknown, issues: readonly Issue[]) =>
    new ResponseValidationError({
      body: spec?.hideBody ? '[body hidden: it may contain a credential]' : redact(body, secrets),
      issues,
      method: call.method,
      url: redactText(received.url, secrets),
      what: spec?.name,
    });
  let data: unknown;
  try {
    if (received.text !== '') data = JSON.parse(received.text);
  } catch {
    const message = `is not JSON (content-type ${redactText(received.headers.get('content-type') ?? 'missing', secrets)})`;
    throw invalid(redactAndCut(received.text, secrets, 10_000), [{ path: [], message, code: 'invalid_json' }]);
  }
  const schema = call.validate ? spec?.schema : spec?.always;
  if (schema) {
    const result = safeParse(schema, data);
    if (!result.success) throw invalid(data, toIssues(result.error));
    data = result.data;
  }
  try {
    return spec?.read ? spec.read(data) : (data as T);
  } catch (error) {
    throw error instanceof ResponseValidationError ? invalid(error.body, error.issues) : error;
  }
}

/**
 * Built for every call, read by few: the header lookups and the redaction wait until asked for. Only the URL is
 * kept, not the received text, which a page's details must not hold on to.
 */
export function responseDetails(
  { status, headers, url }: { status: number; headers: Headers; url: string },
  secrets: readonly string[],
  counts: { attempts: number; elapsedMs: number },
): ResponseDetails {
  let shown: Headers | undefined;
  return {
    status,
    get headers() {
      shown ??= secrets.length ? new Headers(redactHeaders(headers, secrets)) : headers;
      return shown;
    },
    get requestId() {
      return requestIdOf(this.headers);
    },
    get url() {
      return redactText(url, secrets);
    },
    ...counts,
  };
}

/**
 * A 404 under both prefixes (or a fallback whose redirect was not followed) is the first request's, the one the
 * caller expects; the fallback's is its context.
 */
export function notFoundUnderBoth(first: ApiError, fallback: ApiError): ApiError {
  const { status, headers, body, method, url } = first;
  const context = `also tried ${pathOf(fallback.url)}${fallback.requestId ? ` (request id ${fallback.requestId})` : ''}`;
  const why = fallback.status === 404 ? messageFromBody(fallback.status, fallback.body) : fallback.message;
  const message = `${messageFromBody(status, body)}; ${context}: ${why}`;
  return ApiError.from({ status, headers, body, method, url, message });
}

/** An error body as JSON where it is, else as text; `undefined` when empty. */
export function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
