/**
 * workflow-automation-sdk: the typed client for the Workflow Automation Service.
 *
 * @example
 * ```ts
 * import { Client } from 'workflow-automation-sdk';
 * const client = new Client({ apiKey: process.env.WFA_API_KEY, baseUrl: 'https://automation.example.com' });
 * for await (const workflow of client.workflows.list()) console.log(workflow.id, workflow.status);
 * ```
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
  SuccessContext,
  WaitEvent,
} from './core/hooks.js';
export type { PageInfo, PageParams } from './service/envelope.js';
export { Page, PagePromise, type ListOptions } from './resources/pages.js';
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
export type { JsonValue } from './resources/resource.js';
export {
  Workflows,
  type CreatedWorkflow,
  type Workflow,
  type WorkflowCreateParams,
  type WorkflowListParams,
  type WorkflowStatus,
  type WorkflowUpdateParams,
  type WorkflowTrigger,
  type WorkflowAction,
  type CreateAndWaitOptions,
  type WorkflowWithBuild,
} from './resources/workflows.js';
export { Orders, type Order, type OrderListParams } from './resources/orders.js';
export type { Build, BuildStatus, CompletedBuild } from './resources/build.js';
export { isCompletedBuild } from './resources/build.js';
export { Builds } from './resources/builds.js';
export type { BuildTarget, WaitForBuildOptions, WatchBuildOptions } from './resources/build-wait.js';
export type { DownloadTarget } from './resources/download.js';
export type { DownloadOptions, DownloadProgress } from './core/download.js';
export type { DownloadedFile } from './core/download-file.js';
export { Integrations, type Integration, type IntegrationSaveParams } from './resources/integrations.js';
export { Auth, type Credentials, type IssuedKey } from './resources/auth.js';
