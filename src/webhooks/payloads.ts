/**
 * Valid webhook payloads for your own tests, so they do not hand-copy an envelope that may drift.
 *
 * @module
 */

import type { BuildCompletedData, BuildCompletedEvent, UnknownWebhookEvent } from './parse.js';

/**
 * What {@link createWebhookPayload} accepts for a `build.completed` event: any field to override, and any
 * extra field to add. `data` is merged into the default data.
 *
 * @example
 * ```ts
 * const input: BuildCompletedPayloadInput = { workflow_id: 'wf_42', data: { download_url: 'https://x.test/a.zip' } };
 * ```
 */
export interface BuildCompletedPayloadInput {
  /** Default `'build.completed'`. */
  event?: 'build.completed' | undefined;
  /** Default `'wf_test'`. */
  workflow_id?: string | undefined;
  /** Merged into `{ download_url: 'https://downloads.example.com/wf_test.zip' }`. */
  data?: Partial<BuildCompletedData> | undefined;
  [key: string]: unknown;
}

/**
 * What {@link createWebhookPayload} accepts for an event of another kind, such as one the SDK does not know.
 *
 * @example
 * ```ts
 * const input: OtherWebhookPayloadInput = { event: 'order.updated', data: { status: 'paid' } };
 * ```
 */
export interface OtherWebhookPayloadInput {
  /** The event kind, for example one the SDK does not know yet. */
  event: string;
  /** Default `'wf_test'`. */
  workflow_id?: string | undefined;
  /** Default `{}`. */
  data?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** Example values: a workflow id of the documented shape, and a URL under a domain reserved for examples. */
const defaultWorkflowId = 'wf_test';
const defaultDownloadUrl = 'https://downloads.example.com/wf_test.zip';

/**
 * Builds a valid webhook payload: a `build.completed` event by default, with overrides applied.
 *
 * @example
 * ```ts
 * const event = createWebhookPayload({ workflow_id: 'wf_42' });
 * // { event: 'build.completed', workflow_id: 'wf_42', data: { download_url: 'https://downloads.example.com/wf_test.zip' } }
 * const other = createWebhookPayload({ event: 'order.updated', data: { status: 'paid' } });
 * ```
 */
export function createWebhookPayload(input?: BuildCompletedPayloadInput): BuildCompletedEvent;
export function createWebhookPayload(input: OtherWebhookPayloadInput): UnknownWebhookEvent;
export function createWebhookPayload(
  input: BuildCompletedPayloadInput | OtherWebhookPayloadInput = {},
): BuildCompletedEvent | UnknownWebhookEvent {
  const { event = 'build.completed', workflow_id = defaultWorkflowId, data = {}, ...rest } = input;
  const defaults = event === 'build.completed' ? { download_url: defaultDownloadUrl } : {};
  return { event, workflow_id, data: { ...defaults, ...data }, ...rest } as BuildCompletedEvent | UnknownWebhookEvent;
}

/**
 * The same payload as {@link createWebhookPayload}, as the JSON text the service sends.
 *
 * @example
 * ```ts
 * const body = createWebhookBody({ workflow_id: 'wf_42' });
 * parseWebhookEvent(body).workflow_id; // 'wf_42'
 * ```
 */
export function createWebhookBody(input?: BuildCompletedPayloadInput | OtherWebhookPayloadInput): string {
  return JSON.stringify(createWebhookPayload(input as BuildCompletedPayloadInput));
}

/**
 * A delivery as your endpoint receives it: a `POST` `Request` with the JSON payload, for testing a handler
 * from `createWebhookHandler` (or any Fetch-style route) without a server.
 *
 * @example
 * ```ts
 * const response = await handler(createWebhookRequest({ workflow_id: 'wf_42' }));
 * expect(response.status).toBe(200);
 * ```
 */
export function createWebhookRequest(
  input?: BuildCompletedPayloadInput | OtherWebhookPayloadInput,
  init: { url?: string | undefined; headers?: ConstructorParameters<typeof Headers>[0] | undefined } = {},
): Request {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Request(init.url ?? 'https://example.com/webhooks', {
    method: 'POST',
    headers,
    body: createWebhookBody(input),
  });
}
