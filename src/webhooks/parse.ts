/**
 * Reading a webhook delivery into a typed event. The checks are written by hand, not with zod, so that this
 * entry point carries no schema library.
 *
 * @module
 */

import { WebhookParseError } from '../core/errors.js';
import { isHttpUrl } from '../core/url.js';

/**
 * The content of a `build.completed` event. Fields the service adds later are kept, typed `unknown`.
 *
 * @example
 * ```ts
 * const data: BuildCompletedData = { download_url: 'https://files.example.com/wf_1.zip' };
 * ```
 */
export interface BuildCompletedData {
  /** Where the built workflow can be downloaded (an http or https URL). */
  download_url: string;
  [key: string]: unknown;
}

/**
 * Sent when a build of a workflow completes.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(body);
 * if (event.event === 'build.completed') await download(event.data.download_url);
 * ```
 */
export interface BuildCompletedEvent {
  /** The kind of event. */
  event: 'build.completed';
  /** The workflow that was built (`wf_...`). */
  workflow_id: string;
  /** What the event is about: the download URL of the build. */
  data: BuildCompletedData;
  /** Top-level fields the service adds later are kept as received. */
  [key: string]: unknown;
}

/**
 * Every event kind this version of the SDK knows, as a union discriminated on `event`.
 *
 * @example
 * ```ts
 * const event: KnownWebhookEvent = parseWebhookEvent(body, { strict: true });
 * ```
 */
export type KnownWebhookEvent = BuildCompletedEvent;

/**
 * The names of the event kinds this version of the SDK knows: `'build.completed'`.
 *
 * @example
 * ```ts
 * const kind: KnownWebhookEventKind = 'build.completed';
 * ```
 */
export type KnownWebhookEventKind = KnownWebhookEvent['event'];

/**
 * The type of `event` for a kind this SDK version does not know, inside {@link WebhookEvent}; at runtime it
 * is the real string. Unlike `string`, it lets `event === 'build.completed'` narrow the union; to compare it
 * with a kind the SDK does not know, widen it to `string` first.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(body);
 * const kind: string = event.event; // widen, then compare with any kind
 * if (kind === 'order.updated') console.log(event.data);
 * ```
 */
export type UnknownEventKind = EventKindUnknownToThisSdk;

// An ambient enum, because a string enum member is the one kind of type that is assignable to `string` yet
// comparable to no string literal. Not exported: it has no runtime value, so nobody must be able to import one.
declare enum EventKindUnknownToThisSdk {
  Opaque = '',
}

/**
 * An event whose kind this version of the SDK does not know, kept rather than rejected so that a service
 * that adds event kinds does not break deployed code. Its `data` is an object of unknown fields.
 *
 * @typeParam Kind - The type of `event`: `string` where the event stands alone (as `onUnknown` receives
 *   it), {@link UnknownEventKind} inside the {@link WebhookEvent} union.
 * @example
 * ```ts
 * function logUnknown(event: UnknownWebhookEvent) {
 *   console.warn('unhandled webhook', event.event, Object.keys(event.data));
 * }
 * ```
 */
export interface UnknownWebhookEvent<Kind extends string = string> {
  /** The kind of event, as the service named it. */
  event: Kind;
  /** The workflow concerned (`wf_...`). */
  workflow_id: string;
  /** The event's content, unchecked: its shape is not known to this SDK version. */
  data: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What {@link parseWebhookEvent} returns: a known event, narrowed by comparing `event`, or an event of a
 * kind this SDK version does not know.
 *
 * @example
 * ```ts
 * const event: WebhookEvent = parseWebhookEvent(body);
 * if (event.event === 'build.completed') event.data.download_url; // string
 * else event.data; // Record<string, unknown>
 * ```
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent<UnknownEventKind>;

/**
 * Options of {@link parseWebhookEvent} and {@link safeParseWebhookEvent}.
 *
 * @example
 * ```ts
 * const options: ParseWebhookEventOptions = { strict: true };
 * ```
 */
export interface ParseWebhookEventOptions {
  /** Reject event kinds this SDK version does not know instead of returning them. Default `false`. */
  strict?: boolean | undefined;
}

/**
 * What {@link safeParseWebhookEvent} returns: the event, or the error that {@link parseWebhookEvent} would
 * have thrown.
 *
 * @example
 * ```ts
 * const result: SafeParseWebhookEventResult = safeParseWebhookEvent(body);
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export type SafeParseWebhookEventResult<Event = WebhookEvent> =
  | {
      /** The body was a valid event. */
      success: true;
      /** The parsed event. */
      event: Event;
    }
  | {
      /** The body was not a valid event. */
      success: false;
      /** What is wrong with it. */
      error: WebhookParseError;
    };

const knownKinds: readonly string[] = ['build.completed'] satisfies readonly KnownWebhookEventKind[];

/**
 * True when the event is of a kind this SDK version knows.
 *
 * @example
 * ```ts
 * if (!isKnownWebhookEvent(event)) console.warn('update the SDK to type', String(event.event));
 * ```
 */
export function isKnownWebhookEvent(event: WebhookEvent | UnknownWebhookEvent): event is KnownWebhookEvent {
  return knownKinds.includes(event.event);
}

/**
 * Reads a webhook delivery and checks its envelope.
 *
 * `body` is the request body as received: a string, bytes (`Uint8Array`, Node's `Buffer`, `ArrayBuffer`,
 * any typed array or `DataView`, read as UTF-8), or a value a framework already parsed from JSON.
 *
 * Throws {@link WebhookParseError} naming what is wrong: the body is empty, not UTF-8, not JSON or not an
 * object; `event` or `workflow_id` is missing or not a string; `data` is not an object; `download_url` of a
 * `build.completed` event is missing or not an http(s) URL; or, with `strict`, the kind is unknown.
 * Unknown fields, at the top level and in `data`, are kept.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(await request.text());
 * if (event.event === 'build.completed') {
 *   console.log(event.workflow_id, event.data.download_url);
 * }
 * ```
 */
export function parseWebhookEvent(body: unknown, options: ParseWebhookEventOptions & { strict: true }): KnownWebhookEvent;
export function parseWebhookEvent(body: unknown, options?: ParseWebhookEventOptions): WebhookEvent;
export function parseWebhookEvent(body: unknown, options: ParseWebhookEventOptions = {}): WebhookEvent {
  const value = typeof body === 'string' || isBytes(body) ? parseJson(decode(body)) : body;
  if (value === undefined) fail('Webhook body is empty');
  if (!isRecord(value)) fail(`Webhook body must be a JSON object, got ${describe(value)}`);

  const kind = value['event'];
  if (kind === undefined) fail('Webhook payload is missing `event`', ['event']);
  if (typeof kind !== 'string') fail(`Webhook payload field \`event\` must be a string, got ${describe(kind)}`, ['event']);
  if (kind === '') fail('Webhook payload field `event` must not be empty', ['event']);
  requireString(value, 'workflow_id', []);
  const data = value['data'];
  if (data === undefined) fail('Webhook payload is missing `data`', ['data']);
  if (!isRecord(data)) fail(`Webhook payload field \`data\` must be an object, got ${describe(data)}`, ['data']);

  if (kind === 'build.completed') {
    const url = requireString(data, 'download_url', ['data']);
    if (!isHttpUrl(url)) fail('Webhook payload field `data.download_url` must be an http or https URL', ['data', 'download_url']);
  } else if (options.strict) {
    fail(`Unknown webhook event kind ${JSON.stringify(clip(kind))} (strict mode accepts: ${knownKinds.join(', ')})`, ['event']);
  }
  return value as WebhookEvent;
}

/**
 * Like {@link parseWebhookEvent}, but returns the error instead of throwing it.
 *
 * @example
 * ```ts
 * const result = safeParseWebhookEvent(body);
 * if (!result.success) return new Response(result.error.message, { status: 400 });
 * handle(result.event);
 * ```
 */
export function safeParseWebhookEvent(
  body: unknown,
  options: ParseWebhookEventOptions & { strict: true },
): SafeParseWebhookEventResult<KnownWebhookEvent>;
export function safeParseWebhookEvent(body: unknown, options?: ParseWebhookEventOptions): SafeParseWebhookEventResult;
export function safeParseWebhookEvent(body: unknown, options?: ParseWebhookEventOptions): SafeParseWebhookEventResult {
  try {
    return { success: true, event: parseWebhookEvent(body, options) };
  } catch (error) {
    // Anything else is a bug in this module, and hiding it in a result would make it look like bad input.
    if (error instanceof WebhookParseError) return { success: false, error };
    throw error;
  }
}

// `fatal` so that bytes that are not UTF-8 are reported, not silently turned into U+FFFD and parsed.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function isBytes(body: unknown): body is ArrayBuffer | ArrayBufferView {
  // toString tag rather than instanceof: an ArrayBuffer from another realm (a vm context, an iframe) counts too.
  return ArrayBuffer.isView(body) || Object.prototype.toString.call(body) === '[object ArrayBuffer]';
}

function decode(body: string | ArrayBuffer | ArrayBufferView): string {
  if (typeof body === 'string') return body;
  try {
    return utf8.decode(body);
  } catch {
    fail('Webhook body is not valid UTF-8');
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') fail('Webhook body is empty');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's own message quotes the body, which may hold data the caller does not want in logs.
    fail('Webhook body is not valid JSON');
  }
}

function requireString(record: Record<string, unknown>, key: string, at: string[]): string {
  const value = record[key];
  if (typeof value === 'string') return value;
  const name = [...at, key].join('.');
  if (value === undefined) fail(`Webhook payload is missing \`${name}\``, [...at, key]);
  fail(`Webhook payload field \`${name}\` must be a string, got ${describe(value)}`, [...at, key]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : type === 'undefined' ? 'undefined' : `a ${type}`;
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function fail(message: string, path: readonly string[] = []): never {
  throw new WebhookParseError(message, path);
}
