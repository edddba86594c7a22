/**
 * The options of `createWebhookHandler`: their types, and the one check of them when the handler is created,
 * with each default filled in.
 *
 * @module
 */

import { type Issue, ValidationError } from '../core/errors.js';
import type { WebhookConfirmClient } from './confirm.js';
import { defaultIdHeaders, type DedupeSettings, type WebhookDedupeOptions } from './dedupe.js';
import type { UnconfirmedPolicy, WebhookDelivery } from './guard.js';
import type { WebhookDeliveryReport } from './observe.js';
import type { KnownWebhookEvent, KnownWebhookEventKind, UnknownWebhookEvent, WebhookEvent } from './parse.js';

/**
 * One function per known event kind; each receives the event narrowed to its kind, and the request (for
 * headers such as a delivery id). A kind without a function is acknowledged and otherwise ignored. A function
 * may return anything: a returned promise is awaited (within `handlerTimeoutMs`) and its value ignored.
 *
 * @example
 * ```ts
 * const on: WebhookEventHandlers = {
 *   'build.completed': async (event) => { await saveDownload(event.workflow_id, event.data.download_url); },
 * };
 * ```
 */
export type WebhookEventHandlers = {
  [Kind in KnownWebhookEventKind]?:
    | ((event: Extract<KnownWebhookEvent, { event: Kind }>, request: Request, delivery: WebhookDelivery) => unknown)
    | undefined;
};

/**
 * Options of {@link createWebhookHandler}.
 *
 * ## Verifying deliveries
 *
 * The service's documentation shows no signing scheme, so the SDK checks no signature on its own. A
 * deployment whose deliveries are signed (by the service, or by a gateway in front of your server) puts its
 * check in `verify`, which gets the exact bytes received, before any parsing, and the request headers.
 * Return `false` for a quiet 401; a `verify` that throws also gets a 401, and its error is reported
 * to `onError`, because a throw usually means a missing secret rather than a forged delivery. The presets
 * `hmacSha256()` and `standardWebhooks()` are ready-made, constant-time checks on Web Crypto.
 *
 * @example
 * ```ts
 * // An HMAC-SHA256 hex signature in a header: the header name and format are your deployment's, not the spec's.
 * verify(rawBody, headers) {
 *   const received = Buffer.from(headers.get('x-signature') ?? '', 'hex');
 *   const expected = createHmac('sha256', process.env.WEBHOOK_SECRET!).update(rawBody).digest();
 *   return received.length === expected.length && timingSafeEqual(received, expected);
 * },
 * ```
 * On edge runtimes, `crypto.subtle.verify('HMAC', key, signature, new Uint8Array(rawBody))` does the same
 * (the copy, because TypeScript 5.7 and later accept only `ArrayBuffer`-backed bytes there).
 */
export interface WebhookHandlerOptions {
  /** The functions to call, by event kind. */
  on: WebhookEventHandlers;
  /**
   * Called with events of kinds this SDK version does not know. Without it they are acknowledged (2xx) and
   * dropped, so that the service adding a kind never turns your endpoint into a source of errors. Its result
   * is awaited like a handler's.
   */
  onUnknown?: ((event: UnknownWebhookEvent, request: Request, delivery: WebhookDelivery) => unknown) | undefined;
  /**
   * Checks a delivery before it is parsed; see "Verifying deliveries" above. May be async.
   * `rawBody` is exactly the bytes received; `headers` are the request's.
   */
  verify?: ((rawBody: Uint8Array, headers: Headers) => boolean | Promise<boolean>) | undefined;
  /**
   * The largest body accepted, in bytes; a bigger one gets a 413 without being read to the end.
   * Default 1 MiB (1 048 576).
   */
  maxBodyBytes?: number | undefined;
  /**
   * How long the body may take to arrive, in milliseconds; a delivery still sending then gets a 408 and
   * its stream cancelled, so a sender that dribbles bytes cannot hold a connection. Default 10 000.
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * How long `verify`, a function of `on`/`onUnknown`, and `onError` may each take, in milliseconds. A
   * `verify` or handler still running then gets a 503 (the sender may try again) and `onError` gets a
   * `WfaError` naming the bound; an `onError` still running is left behind. Default 30 000.
   */
  handlerTimeoutMs?: number | undefined;
  /**
   * Receives what `on`/`onUnknown` throw (with the event, and the response is 500) and what `verify` throws
   * (with `undefined`, and the response is 401), and the `WfaError` of a callback past `handlerTimeoutMs`.
   * Without it, the error is logged with `console.error`. It may throw, reject or hang: the response is still sent.
   */
  onError?: ((error: unknown, event: WebhookEvent | undefined) => unknown) | undefined;
  /**
   * Told what became of each delivery once its answer is decided: handled, acknowledged, a duplicate, rejected
   * (and why) or failed, to count or log them. Not waited for: it may hang, throw or reject, and the answer is
   * neither changed nor delayed (a failure is logged with `console.error`).
   *
   * @example
   * ```ts
   * onDelivery: ({ outcome, status, error }) => metrics.increment(`webhooks.${outcome}`, { status, error }),
   * ```
   */
  onDelivery?: ((report: WebhookDeliveryReport) => unknown) | undefined;
  /**
   * A client (any object with `workflows.get` and `builds.get`, such as a `Client`) to confirm each delivery
   * with the service before its callback runs; see "Confirming deliveries" in `docs/webhooks.md`. A
   * `build.completed` whose build is not `completed` with that `download_url` gets a 401 (and is reported
   * to `onError`); a service that cannot respond, a 503.
   */
  confirm?: WebhookConfirmClient | undefined;
  /** With `confirm`: what to do with kinds the SDK cannot confirm. Default `'reject'` (401, the callback does not run). */
  unconfirmed?: UnconfirmedPolicy | undefined;
  /** With `confirm`: how long confirming may take, in milliseconds, before the response is 503. Default 10 000. */
  confirmTimeoutMs?: number | undefined;
  /** Runs each delivery's callback once, across retries and processes; see "Handling each delivery once" in `docs/webhooks.md`. */
  dedupe?: WebhookDedupeOptions | undefined;
}

/**
 * A field's rule: what it must be, the test, and whether it must be present. The options are checked against
 * these tables by one function, not zod, which would weigh on every import of this entry (docs/design.md,
 * "Webhook options").
 */
type Rule = readonly [must: string, test: (value: unknown) => boolean, required?: true];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const hasMethods = (value: unknown, ...names: string[]) => isObject(value) && names.every((name) => typeof value[name] === 'function');
const ms: Rule = ['a number of milliseconds > 0', (value) => typeof value === 'number' && value > 0];
const callback: Rule = ['a function', (value) => typeof value === 'function'];

const DEDUPE_RULES: Record<string, Rule> = {
  store: [
    'a store such as memoryStore() or redisStore(client)',
    (value) => hasMethods(value, 'reserve', 'get', 'replace', 'release'),
    true,
  ],
  ttlMs: ms,
  // Renewed every third of it, so a shorter reservation cannot be renewed in time on a busy process.
  lockMs: ['a number of milliseconds >= 100', (value) => typeof value === 'number' && value >= 100],
  idHeaders: ['an array of header names', (value) => Array.isArray(value) && value.every((name) => typeof name === 'string')],
  key: callback,
};

const HANDLER_RULES: Record<string, Rule> = {
  on: [
    'an object of functions by event kind',
    (value) => isObject(value) && Object.values(value).every((handler) => handler === undefined || typeof handler === 'function'),
    true,
  ],
  onUnknown: callback,
  verify: callback,
  onError: callback,
  onDelivery: callback,
  maxBodyBytes: ['a number of bytes >= 0', (value) => typeof value === 'number' && value >= 0],
  bodyTimeoutMs: ms,
  handlerTimeoutMs: ms,
  confirmTimeoutMs: ms,
  confirm: [
    'a client with workflows.get and builds.get',
    (value) => isObject(value) && hasMethods(value['workflows'], 'get') && hasMethods(value['builds'], 'get'),
  ],
  unconfirmed: ["'reject', 'accept' or 'handler-decides'", (value) => ['reject', 'accept', 'handler-decides'].includes(value as string)],
  dedupe: ['an object with a store', isObject],
};

/** The issues of `value` against `rules`; an absent optional field, or one set to `undefined`, passes. */
function issuesOf(value: unknown, rules: Record<string, Rule>, at: string[] = []): Issue[] {
  if (!isObject(value)) return [{ path: at, message: 'must be an object', code: 'invalid_type' }];
  return Object.entries(rules).flatMap(([field, [must, test, required]]): Issue[] => {
    const fieldValue = value[field];
    if (fieldValue === undefined && !required) return [];
    if (test(fieldValue)) return [];
    const message = fieldValue === undefined ? 'is required' : `must be ${must}`;
    return [{ path: [...at, field], message, code: fieldValue === undefined ? 'invalid_type' : 'invalid_value' }];
  });
}

/**
 * The headers a dedupe key may come from: only one the signature covers. `hmacSha256` signs the body alone,
 * so a replayed body with a fresh id header would run again: the key is the event's hash. `standardWebhooks`
 * signs `webhook-id`. A `verify` of your own: the `idHeaders` you name (or the defaults).
 */
function keyHeaders(verify: unknown, idHeaders: readonly string[] | undefined): readonly string[] {
  const scheme = (verify as { scheme?: unknown } | undefined)?.scheme;
  if (scheme === 'hmac-sha256') return [];
  if (scheme === 'standard-webhooks') return ['webhook-id'];
  return idHeaders ?? defaultIdHeaders;
}

/** Checks the options once, when the handler is created, and fills in every default. */
export function handlerSettings(options: WebhookHandlerOptions) {
  const issues = issuesOf(options, HANDLER_RULES);
  if (isObject(options) && isObject(options.dedupe)) issues.push(...issuesOf(options.dedupe, DEDUPE_RULES, ['dedupe']));
  if (issues.length > 0) throw new ValidationError('options of createWebhookHandler', issues);
  const handlerTimeoutMs = options.handlerTimeoutMs ?? 30_000;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;
  const dedupe = options.dedupe;
  const dedupeSettings: DedupeSettings | undefined = dedupe && {
    store: dedupe.store,
    ttlMs: dedupe.ttlMs ?? 24 * 60 * 60 * 1000,
    lockMs: dedupe.lockMs ?? handlerTimeoutMs + confirmTimeoutMs,
    idHeaders: keyHeaders(options.verify, dedupe.idHeaders),
    key: dedupe.key,
  };
  return {
    on: options.on,
    onUnknown: options.onUnknown,
    verify: options.verify,
    onError: options.onError,
    onDelivery: options.onDelivery,
    confirm: options.confirm,
    unconfirmed: options.unconfirmed ?? 'reject',
    // 1 MiB: far above any envelope the service documents, small enough that a flood cannot exhaust memory.
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    handlerTimeoutMs,
    confirmTimeoutMs,
    dedupe: dedupeSettings,
  };
}
