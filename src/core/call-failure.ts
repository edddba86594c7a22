/** What a call's failure becomes: the SDK's error, naming its request, secrets removed; an error status's too. */
import { messageFromBody } from './api-error.js';
import { ApiError, ConnectionError, TimeoutError, WfaError } from './errors.js';
import { abortedBy } from './failures.js';
import { redact, redactText, safeCause, thrownName } from './redact.js';
import { parseErrorBody, redactHeaders } from './response.js';
import { networkErrorCodes } from './network-errors.js';
import { AttemptFailure } from './retry.js';
import { ERROR_BODY_BYTES } from './body.js';

/** A request as errors name it. */
type Named = { readonly method: string; readonly url: string };
/** A response whose error body was read. */
type Read = { readonly status: number; readonly headers: Headers; readonly text: string };

/** What the mapping needs of its call (a `Call`). */
export interface FailingCall {
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  pastDeadline(what: string, where: string): TimeoutError;
}

/** The error of an error status, its body read; `note` is added to the message the body gives. */
export function statusError(secrets: readonly string[], request: Named, received: Read, note = ''): ApiError {
  // Redacted whole, then cut to what is kept: a credential field past the cut still hides its copies before it.
  const whole = redact(parseErrorBody(received.text), secrets);
  const body = received.text.length > ERROR_BODY_BYTES ? cutText(whole, secrets) : whole;
  return apiError(secrets, request, received, body, note ? messageFromBody(received.status, body) + note : undefined);
}

/** The `ApiError` of a response, secrets removed from what it quotes. */
export function apiError(
  secrets: readonly string[],
  { method, url }: Named,
  { status, headers }: Read,
  body: unknown,
  message?: string,
): ApiError {
  const shown = { headers: redactHeaders(headers, secrets), url: redactText(url, secrets) };
  return ApiError.from({ status, method, body, message, ...shown });
}

/** The error of `error`, thrown by one send of `request`; anything but an `AttemptFailure` is already the SDK's. */
export function mapFailure(call: FailingCall, error: unknown, request: Named): unknown {
  if (!(error instanceof AttemptFailure)) return error;
  const { secrets, timeoutMs } = call;
  // The request as every message names it: its method and URL, secrets removed.
  const what = `${request.method} ${redactText(request.url, secrets)}`;
  const { failure } = error;
  switch (failure.kind) {
    case 'abort':
      return abortedBy(what, failure.cause);
    case 'deadline': {
      const waited = failure.gateMs === undefined ? '' : `; it waited ${failure.gateMs} ms at the client's rate gate`;
      // The service's own refusal, as received: only how long the call waited at the gate is added.
      if (failure.refusal) return statusError(secrets, request, failure.refusal as Read, `${waited}, until the call's deadline`);
      return call.pastDeadline(what, waited);
    }
    case 'should-retry':
      return new WfaError(`retry.shouldRetry failed on ${what} (${thrownName(failure.cause, secrets)}); not retried`, {
        cause: safeCause(failure.cause, secrets),
      });
    case 'timeout':
      return new TimeoutError(`${what} timed out after ${timeoutMs} ms`, timeoutMs);
  }
  const { cause } = failure;
  const codes = networkErrorCodes(cause);
  const detail = codes.length ? codes.join(', ') : detailOf(cause);
  const why = failure.kind === 'body-read' ? 'The connection failed while the response was read' : 'Could not reach the service';
  return new ConnectionError(redactText(`${why}: ${detail} (${what})`, secrets), { cause: safeCause(cause, secrets) });
}

/** What a failure without codes says; one that cannot be read (a revoked Proxy) is named by its type. */
function detailOf(cause: unknown): string {
  try {
    return cause instanceof Error ? cause.message : String(cause);
  } catch {
    return thrownName(cause);
  }
}

/** A long error body, redacted whole, as the text kept of it: redacted again after the cut, for a secret's head. */
function cutText(body: unknown, secrets: readonly string[]): string {
  return redactText((typeof body === 'string' ? body : JSON.stringify(body)).slice(0, ERROR_BODY_BYTES), secrets);
}
