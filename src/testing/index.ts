/**
 * `workflow-automation-sdk/testing`: an in-memory fake of the whole Workflow Automation Service, to try the SDK
 * and test code against before having an account: {@link createMockService} responds to Fetch `Request`s,
 * {@link startMockServer} serves it on 127.0.0.1 (Node only). msw handlers are in `/testing/msw`, so that this
 * entry never needs msw.
 *
 * @example
 * ```ts
 * const server = await startMockServer();
 * const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
 * ```
 *
 * @module
 */

export { createMockService, DEFAULT_MOCK_USER } from './service.js';
export { MockNetworkError } from './faults.js';
export { artifactBytes } from './artifacts.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export type { MockRefusal } from './server-refusals.js';
export type {
  FailNextOptions,
  MockArtifactOptions,
  MockDownloadRequest,
  MockDurationRange,
  MockEveryNth,
  JsonObject,
  JsonValue,
  MockAction,
  MockBuild,
  MockIntegration,
  MockListEnvelope,
  MockListPage,
  MockOrder,
  MockRateLimit,
  MockRequestCounts,
  MockService,
  MockServiceOptions,
  MockTokenBucket,
  MockTrigger,
  MockUser,
  MockWebhookDelivery,
  MockWebhookEvent,
  MockWorkflow,
} from './types.js';
