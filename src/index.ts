/**
 * workflow-automation-sdk: the typed client for the Workflow Automation Service; start at {@link Client}.
 *
 * @packageDocumentation
 */
export { Client, type LoginOptions, type RawRequest } from './client.js';
export type {
  ApiKeySource,
  ApiPrefix,
  ClientOptions,
  FetchLike,
  NodeAgent,
  LogLevel,
  Logger,
  RateLimitOptions,
  RequestOptions,
  ResponseDetails,
} from './core/options.js';
export type { QueryValue } from './core/query.js';
export type {
  AfterResponseContext,
  BeforeRequestContext,
  BeforeRetryContext,
  ErrorContext,
  Hook,
  HookContext,
  HookHeaders,
  Hooks,
  RateLimitEvent,
  SuccessContext,
  WaitEvent,
} from './core/hooks.js';
export type { PageInfo, PageParams } from './service/envelope.js';
export { Page } from './resources/page.js';
export { PagePromise, type ListOptions } from './resources/page-promise.js';
export { ApiPromise, type WithResponse } from './resources/api-promise.js';
export {
  AbortError,
  ApiError,
  ApiKeyError,
  AuthenticationError,
  BadRequestError,
  BuildFailedError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  WaitTimeoutError,
  WebhookParseError,
  WfaError,
  type ApiErrorInit,
  type Issue,
} from './core/errors.js';
export { MAX_RETRIES, MAX_RETRY_AFTER_MS, type RetryContext, type RetryOptions } from './core/retry.js';
export { memoryRateStore, type RatePace, type RateState, type RateStore } from './core/rate-store.js';
export type { JsonValue } from './resources/resource.js';
export {
  Workflows,
  parseWorkflowCreateParams,
  type WorkflowListParams,
  type CreateAndWaitOptions,
  type WorkflowWithBuild,
} from './resources/workflows.js';
export type {
  CreatedWorkflow,
  Workflow,
  WorkflowCreateParams,
  WorkflowStatus,
  WorkflowUpdateParams,
  WorkflowTrigger,
  WorkflowAction,
} from './resources/workflow.js';
export { Orders, type OrderListParams } from './resources/orders.js';
export type { Order } from './resources/order.js';
export { isCompletedBuild, type Build, type BuildStatus, type CompletedBuild, type UnknownBuildStatus } from './resources/build.js';
export { Builds } from './resources/builds.js';
export type { BuildTarget, WaitForBuildOptions, WatchBuildOptions } from './resources/build-wait.js';
export type { BuildNotice } from './resources/build-notify.js';
export type { BuildWaitResult } from './resources/build-wait-all.js';
export type { DownloadTarget } from './resources/download-target.js';
export type { DownloadOptions, DownloadProgress } from './core/download-options.js';
export type { DownloadedFile } from './core/write-to-file.js';
export { Integrations } from './resources/integrations.js';
export type { Integration, IntegrationSaveParams } from './resources/integration.js';
export { Auth } from './resources/auth.js';
export type { Credentials, IssuedKey } from './resources/credentials.js';
