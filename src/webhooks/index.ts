/**
 * `workflow-automation-sdk/webhooks`: receive the service's webhook deliveries as typed events.
 *
 * Usable without a client, and light: it does not import the HTTP client, and touches no Node API at
 * runtime, so it runs in Node, browsers, Bun, Deno and edge workers.
 *
 * @example
 * ```ts
 * import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   on: { 'build.completed': (event) => console.log(event.data.download_url) },
 * });
 * ```
 *
 * @module
 */

export { ValidationError, WebhookParseError, WfaError } from '../core/errors.js';
export {
  isKnownWebhookEvent,
  parseWebhookEvent,
  safeParseWebhookEvent,
  type BuildCompletedData,
  type BuildCompletedEvent,
  type KnownWebhookEvent,
  type KnownWebhookEventKind,
  type ParseWebhookEventOptions,
  type SafeParseWebhookEventResult,
  type UnknownEventKind,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from './parse.js';
export { createWebhookHandler, type WebhookHandler } from './handler.js';
export type { WebhookEventHandlers, WebhookHandlerOptions } from './handler-options.js';
export type { WebhookConfirmClient } from './confirm.js';
export { memoryStore, type WebhookDedupeOptions, type WebhookDedupeStore } from './dedupe.js';
export type { UnconfirmedPolicy, WebhookDelivery } from './guard.js';
export type { WebhookDeliveryReport, WebhookOutcome } from './observe.js';
export { redisStore, type RedisLikeClient, type RedisStoreOptions } from './redis.js';
export { toNodeHandler, type NodeWebhookHandler, type NodeWebhookRequest, type NodeWebhookResponse } from './node.js';
export {
  createWebhookBody,
  createWebhookPayload,
  createWebhookRequest,
  type BuildCompletedPayloadInput,
  type OtherWebhookPayloadInput,
} from './payloads.js';
export {
  hmacSha256,
  signWebhook,
  standardWebhooks,
  type HmacSha256Options,
  type SignWebhookOptions,
  type StandardWebhooksOptions,
  type WebhookSignaturePreset,
} from './signatures.js';
