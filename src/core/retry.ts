/**
 * When a failed attempt is tried again, and the loop that does it. GET, PUT and DELETE are retried on
 * connection errors, timeouts, 408, 429 and 5xx; a POST only when the service cannot have acted (a 429, or a
 * connection that failed before sending). The rules in full: docs/errors-and-retries.md.
 */
import { parseRetryAfter } from './retry-after.js';
import { type AbortSource, now, runPhase, sleepWithin, type PhaseLimits, type PhaseResult } from './timing.js';
import { failedBeforeSending } from './network-errors.js';
import { safeCause, thrownName } from './redact.js';

/** The longest `Retry-After` the SDK sleeps on by itself; a longer one ends the call with its error (see `retryAfterMs`). */
export const MAX_RETRY_AFTER_MS = 60_000;
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** The `n`th backoff step (0 for the first): `baseMs` times `factor` to the `n`, at most `maxMs`. */
export function backoff(n: number, baseMs = BASE_BACKOFF_MS, maxMs = MAX_BACKOFF_MS, factor = 2): number {
  return Math.min(baseMs * factor ** n, maxMs);
}

/** The most retries a call may ask for (`maxRetries`): more would only hammer a service that keeps failing. */
export const MAX_RETRIES = 10;

/** Methods that may be sent twice with the effect of once. */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** How an attempt, or the call around it, ended without an HTTP response; the core turns each into the SDK's error. */
export type Failure =
  | { readonly kind: 'network' | 'body-read' | 'abort' | 'should-retry'; readonly cause: unknown }
  | { readonly kind: 'timeout' }
  /** `gateMs`: how long the call waited at the rate gate; `refusal`: the 429 it was waiting after, if any. */
  | { readonly kind: 'deadline'; readonly gateMs?: number; readonly refusal?: ResponseHead | undefined };

/** Carries a {@link Failure} through the retry loop; it never leaves the core. */
export class AttemptFailure extends Error {
  readonly failure: Failure;

  constructor(failure: Failure) {
    super(failure.kind);
    this.failure = failure;
  }
}

/** A response's status and headers: what the retry rules read. */
export type ResponseHead = Pick<Response, 'status' | 'headers'>;

/** A refusal: the service did not act, or asks the client to wait (a 429, or a 503 with a usable `Retry-After`). */
export function isRefusal({ status, headers }: ResponseHead): boolean {
  return status === 429 || (status === 503 && parseRetryAfter(headers) !== undefined);
}

/** What the retry loop needs of the client's rate gate (`rate-gate.ts`). */
export interface SendGate {
  /** True when the send may go now; it is then in flight until `report`. */
  pass(): boolean;
  /** Waits in line; on `done` the send is in flight until `report`. */
  wait(limits: PhaseLimits): Promise<PhaseResult<void>>;
  /** Each passed send's end: its response's head (`undefined` when it got none), and when it was sent, on {@link now}'s clock. */
  report(head: ResponseHead | undefined, sentAt: number, what: string | (() => string)): void;
  /** Milliseconds until the gate opens again; 0 when open. */
  closedForMs(): number;
}

/** What `retry.shouldRetry` is asked about: one failed attempt. */
export interface RetryContext {
  /** Upper case. */
  readonly method: string;
  /** The URL of the attempt, with secrets removed. */
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The response's status; `undefined` when there was none (a connection error or timeout). */
  readonly status: number | undefined;
  /** The error, when there was no response. */
  readonly error: unknown;
  /** True when a POST may have reached the service, so that sending it again could act twice. */
  readonly mayHaveActed: boolean;
}

/**
 * When a failed attempt is sent again. Every field is optional; the defaults are the rules in the README.
 *
 * @example
 * ```ts
 * new Client({ retry: { statuses: [429, 503], baseDelayMs: 200, maxDelayMs: 2_000 } });
 * ```
 */
export interface RetryOptions {
  /** Statuses retried (a POST only on 429, unless `shouldRetry` says so). Default: 408, 429 and 500 to 599. */
  statuses?: readonly number[] | undefined;
  /** The first backoff step; it doubles each retry, with equal jitter. Default 500. */
  baseDelayMs?: number | undefined;
  /** The largest backoff step. Default 8 000. */
  maxDelayMs?: number | undefined;
  /**
   * The longest `Retry-After` slept on; a longer one ends the call with its error. Also the longest the rate
   * gate holds sends on anyone's word (a `Retry-After`, a reset, a shared store's slot or close). Default 60 000.
   */
  maxRetryAfterMs?: number | undefined;
  /**
   * Asked after each failed attempt that `maxRetries` and the deadline leave room for: `true` retries, `false`
   * does not, `undefined` keeps the default rule. A POST that may have acted is retried only on `true`. It must
   * return synchronously; if it throws or answers anything else (a promise), the call fails with a `WfaError`
   * naming it.
   */
  shouldRetry?: ((context: RetryContext) => boolean | undefined) | undefined;
}

/** What the retry loop of one send needs to know of its call. */
export interface RetryPolicy {
  /** Upper case. */
  method: string;
  /** Acts once however often sent, whatever the method (the endpoint table's `idempotent` POST). */
  idempotent?: boolean | undefined;
  maxRetries: number;
  /** Per attempt, body included. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Shared by every hop of one call (redirects, the prefix fallback); on {@link now}'s clock. */
  deadline: number;
  retry?: RetryOptions | undefined;
  /** Removed from the error `shouldRetry` is shown. */
  secrets?: readonly string[] | undefined;
  /** A hook the attempt was waiting for when its time ran out: that error ends the call, not retried. */
  hookTimeout?: (() => Error | undefined) | undefined;
  /** For `shouldRetry`, the gate's log and its error: the attempt's URL without secrets. */
  shownUrl?: (() => string) | undefined;
  onRetry?: ((retry: number, reason: number | string, waitMs: number) => void) | undefined;
  /** The `beforeRetry` hook: a returned promise is awaited within the signal and deadline. */
  beforeRetry?: ((status: number | undefined, error: string | undefined, delayMs: number) => Promise<void> | undefined) | undefined;
  /** The client's rate gate: each attempt passes it first, and reports its response to it. */
  gate?: SendGate | undefined;
}

/** A failed attempt as the rules see it; `error` is what `shouldRetry` is shown, not the core's wrapper. */
type FailedAttempt = Pick<RetryContext, 'status' | 'error' | 'mayHaveActed'> & { retryable: boolean; retryAfter?: number | undefined };

/** The statuses a failure is retried on unless `retry.statuses` says otherwise: 408, 429, 500 to 599. */
export function retriedByDefault(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The default rule for an attempt's end, or `undefined` when nothing could make it a retry (a success, a bug). */
function judge(
  outcome: ResponseHead | { error: unknown },
  { method, idempotent: acting = false }: RetryPolicy,
  statuses: readonly number[] | undefined,
): FailedAttempt | undefined {
  const idempotent = acting || IDEMPOTENT.has(method);
  if ('status' in outcome) {
    const { status } = outcome;
    if (status >= 200 && status < 400) return undefined;
    // A 429 means the service did not act, so even a POST is sent again; another status only when idempotent.
    const mayHaveActed = !idempotent && status !== 429;
    const listed = statuses ? statuses.includes(status) : retriedByDefault(status);
    return { status, error: undefined, mayHaveActed, retryable: listed && !mayHaveActed, retryAfter: parseRetryAfter(outcome.headers) };
  }
  // A transport rejects only when no response came (transport.ts), so whatever it threw is a network failure,
  // a custom fetch's `FetchError` too; anything else (our own errors, bugs, a body too large) is final.
  const failure = outcome.error instanceof AttemptFailure ? outcome.error.failure : undefined;
  if (failure === undefined) return undefined;
  const mayHaveActed = !idempotent && !(failure.kind === 'network' && failedBeforeSending(failure.cause));
  const error = 'cause' in failure ? failure.cause : { name: 'TimeoutError', message: 'The attempt timed out' };
  return { status: undefined, error, mayHaveActed, retryable: !mayHaveActed };
}

/** `shouldRetry`'s word on an attempt, shown without the call's secrets; it must answer synchronously. */
function ask(policy: RetryPolicy, attempt: number, judged: FailedAttempt): boolean | undefined {
  const { shouldRetry } = policy.retry ?? {};
  if (!shouldRetry) return undefined;
  let said: unknown;
  try {
    const { status, mayHaveActed } = judged;
    const error = judged.error === undefined ? undefined : safeCause(judged.error, policy.secrets ?? []);
    said = shouldRetry({ method: policy.method, url: policy.shownUrl?.() ?? '', attempt, status, error, mayHaveActed });
  } catch (error) {
    throw new AttemptFailure({ kind: 'should-retry', cause: error });
  }
  if (said === undefined || said === null || typeof said === 'boolean') return said ?? undefined;
  // A promise (an async function) or any other answer is no decision: the call fails rather than quietly
  // following the rule the user meant to change. A promise's rejection is not left unhandled.
  let what: string = typeof said;
  try {
    if (typeof (said as { then?: unknown }).then === 'function') {
      what = 'a promise';
      Promise.resolve(said).catch(() => undefined);
    }
  } catch {
    // An answer that cannot be read (a revoked Proxy) is named by its type.
  }
  throw new AttemptFailure({
    kind: 'should-retry',
    cause: new TypeError(`it must answer true, false or undefined synchronously, not ${what}`),
  });
}

/** The wait before retry number `retry` (1 for the first), or `undefined` when `outcome` ends the call. */
function retryDelay(outcome: ResponseHead | { error: unknown }, retry: number, policy: RetryPolicy): number | undefined {
  const { statuses, baseDelayMs, maxDelayMs, maxRetryAfterMs = MAX_RETRY_AFTER_MS } = policy.retry ?? {};
  const judged = judge(outcome, policy, statuses);
  if (!judged || !(ask(policy, retry, judged) ?? judged.retryable)) return undefined;
  const { retryAfter } = judged;
  if (retryAfter !== undefined) return retryAfter > maxRetryAfterMs ? undefined : retryAfter;
  // Equal jitter: half the step fixed, half random, so clients that failed together spread out.
  return (backoff(retry - 1, baseDelayMs, maxDelayMs) * (1 + Math.random())) / 2;
}

/** What hooks and logs call a retried failure: the transport's error, or the SDK error it would become. */
function failureName({ failure }: AttemptFailure): string {
  return failure.kind === 'network' ? thrownName(failure.cause) : failure.kind === 'timeout' ? 'TimeoutError' : 'ConnectionError';
}

/** A phase's abort, or the call's deadline, ends the call. */
function endOf(result: PhaseResult<unknown>): AttemptFailure | undefined {
  if (result.type === 'aborted') return new AttemptFailure({ kind: 'abort', cause: result.reason });
  return result.type === 'deadline' ? new AttemptFailure({ kind: 'deadline' }) : undefined;
}

/** One attempt's time plus the longest backoff, for each attempt allowed. */
export function callDeadline(timeoutMs: number, maxRetries: number): number {
  return now() + (timeoutMs + MAX_BACKOFF_MS) * (maxRetries + 1);
}

/**
 * Waits in the gate's line, within the call's signal and deadline (not its `timeoutMs`, which bounds one
 * attempt on the wire); returns how long. Held past the deadline, the call ends with the 429 it was waiting
 * after (`refusal`), or with the deadline's error when it got none; either says how long it waited here.
 */
async function waitAtGate(gate: SendGate, policy: RetryPolicy, heldMs: number, refusal: ResponseHead | undefined): Promise<number> {
  const started = now();
  const result = await gate.wait(policy);
  const held = now() - started;
  if (result.type === 'deadline') throw new AttemptFailure({ kind: 'deadline', gateMs: Math.round(heldMs + held), refusal });
  if (result.type !== 'done') throw endOf(result);
  return held;
}

/** Resolves with the last HTTP response (an error status included, for the caller to map), or rejects with the last attempt's error. */
export async function withRetries<T extends ResponseHead>(attempt: (abort: AbortSource) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const { maxRetries, timeoutMs, signal, deadline, gate } = policy;
  // `counted`: retries that count against maxRetries; a 429 retried through the gate does not.
  // `refusal`: the last attempt's, when the service refused it; the wait at the gate that follows is after it.
  let refusal: T | undefined;
  for (let retry = 1, counted = 1, heldMs = 0; ; retry++) {
    // An open gate passes a send synchronously: no promise, no turn of the loop.
    if (gate && !gate.pass()) heldMs += await waitAtGate(gate, policy, heldMs, refusal);
    const sentAt = now();
    const attemptEnd = sentAt + timeoutMs;
    const result = await runPhase(attempt, { signal, deadline: Math.min(attemptEnd, deadline) });
    gate?.report(result.type === 'done' ? result.value : undefined, sentAt, () => `${policy.method} ${policy.shownUrl?.() ?? ''}`);
    // The call's deadline ends the call: nothing is retried after it.
    if (result.type === 'aborted' || (result.type === 'deadline' && deadline <= attemptEnd)) throw endOf(result);
    const hookTimedOut = result.type === 'deadline' ? policy.hookTimeout?.() : undefined;
    if (hookTimedOut) throw hookTimedOut;
    const outcome =
      result.type === 'done' ? result.value : { error: result.type === 'failed' ? result.error : new AttemptFailure({ kind: 'timeout' }) };
    // A refusal closed the gate: its retry waits there, in line, not on a timer of its own.
    refusal = 'status' in outcome && isRefusal(outcome) ? outcome : undefined;
    const refused = gate !== undefined && refusal !== undefined;
    const free = refused && refusal?.status === 429 && maxRetries > 0;
    let wait = (counted > maxRetries && !free) || now() >= deadline ? undefined : retryDelay(outcome, retry, policy);
    // The wait is at the gate; the deadline is judged on the longer of its close and the refusal's own word.
    if (wait !== undefined && refused) wait = Math.max(wait, gate.closedForMs());
    // A 429 until after the deadline still waits in line: the call ends there, saying how long it waited.
    if (wait === undefined || (!free && now() + wait > deadline)) {
      if ('error' in outcome) throw outcome.error;
      return outcome;
    }
    // Only an AttemptFailure is ever retried.
    const failed = 'error' in outcome ? failureName(outcome.error as AttemptFailure) : undefined;
    const status = 'status' in outcome ? outcome.status : undefined;
    if (!free) {
      counted++;
      policy.onRetry?.(retry, failed ?? status!, wait);
    }
    const pending = policy.beforeRetry?.(status, failed, wait);
    const hooked = pending && (await runPhase(() => pending, { signal, deadline }));
    if (hooked && hooked.type !== 'done') throw hooked.type === 'failed' ? hooked.error : endOf(hooked);
    // An abort cuts the sleep short; the next phase then starts aborted and ends the loop.
    if (!refused) await sleepWithin(wait, { signal, deadline });
  }
}
