/**
 * The public names of each entry, listed: a new export (or a lost one) fails here, so that adding one is a
 * decision, made by updating the list. Read from the entries' source, types and values alike; an entry names
 * each export (no `export *`), so the list is what a reader of the entry sees.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRIES = {
  'workflow-automation-sdk': 'src/index.ts',
  'workflow-automation-sdk/webhooks': 'src/webhooks/index.ts',
  'workflow-automation-sdk/testing': 'src/testing/index.ts',
  'workflow-automation-sdk/testing/msw': 'src/testing/msw.ts',
  'workflow-automation-sdk/otel': 'src/otel/index.ts',
};

const PUBLIC: Record<keyof typeof ENTRIES, string[]> = {
  'workflow-automation-sdk': [
    'AbortError',
    'AfterResponseContext',
    'ApiError',
    'ApiErrorInit',
    'ApiKeyError',
    'ApiKeySource',
    'ApiPrefix',
    'ApiPromise',
    'Auth',
    'AuthenticationError',
    'BadRequestError',
    'BeforeRequestContext',
    'BeforeRetryContext',
    'Build',
    'BuildFailedError',
    'BuildStatus',
    'BuildTarget',
    'Builds',
    'Client',
    'ClientOptions',
    'CompletedBuild',
    'ConflictError',
    'ConnectionError',
    'CreateAndWaitOptions',
    'CreatedWorkflow',
    'Credentials',
    'DownloadOptions',
    'DownloadProgress',
    'DownloadTarget',
    'DownloadedFile',
    'ErrorContext',
    'FetchLike',
    'Hook',
    'HookContext',
    'HookHeaders',
    'Hooks',
    'Integration',
    'IntegrationSaveParams',
    'Integrations',
    'InternalServerError',
    'Issue',
    'IssuedKey',
    'JsonValue',
    'ListOptions',
    'LogLevel',
    'Logger',
    'LoginOptions',
    'MAX_RETRIES',
    'MAX_RETRY_AFTER_MS',
    'NodeAgent',
    'NotFoundError',
    'Order',
    'OrderListParams',
    'Orders',
    'Page',
    'PageInfo',
    'PageParams',
    'PagePromise',
    'PermissionDeniedError',
    'QueryValue',
    'RateLimitError',
    'RateLimitEvent',
    'RateLimitOptions',
    'RatePace',
    'RateState',
    'RateStore',
    'RawRequest',
    'RequestOptions',
    'ResponseDetails',
    'ResponseValidationError',
    'RetryContext',
    'RetryOptions',
    'SuccessContext',
    'TimeoutError',
    'UnknownBuildStatus',
    'UnprocessableEntityError',
    'ValidationError',
    'WaitEvent',
    'WaitForBuildOptions',
    'WaitTimeoutError',
    'WatchBuildOptions',
    'WebhookParseError',
    'WfaError',
    'WithResponse',
    'Workflow',
    'WorkflowAction',
    'WorkflowCreateParams',
    'WorkflowListParams',
    'WorkflowStatus',
    'WorkflowTrigger',
    'WorkflowUpdateParams',
    'WorkflowWithBuild',
    'Workflows',
    'isCompletedBuild',
    'memoryRateStore',
    'parseWorkflowCreateParams',
  ],
  'workflow-automation-sdk/webhooks': [
    'BuildCompletedData',
    'BuildCompletedEvent',
    'BuildCompletedPayloadInput',
    'HmacSha256Options',
    'KnownWebhookEvent',
    'KnownWebhookEventKind',
    'NodeWebhookHandler',
    'NodeWebhookRequest',
    'NodeWebhookResponse',
    'OtherWebhookPayloadInput',
    'ParseWebhookEventOptions',
    'RedisLikeClient',
    'RedisStoreOptions',
    'SafeParseWebhookEventResult',
    'SignWebhookOptions',
    'StandardWebhooksOptions',
    'UnconfirmedPolicy',
    'UnknownEventKind',
    'UnknownWebhookEvent',
    'ValidationError',
    'WebhookConfirmClient',
    'WebhookDedupeOptions',
    'WebhookDedupeStore',
    'WebhookDelivery',
    'WebhookEvent',
    'WebhookEventHandlers',
    'WebhookHandler',
    'WebhookHandlerOptions',
    'WebhookParseError',
    'WebhookSignaturePreset',
    'WfaError',
    'createWebhookBody',
    'createWebhookHandler',
    'createWebhookPayload',
    'createWebhookRequest',
    'hmacSha256',
    'isKnownWebhookEvent',
    'memoryStore',
    'parseWebhookEvent',
    'redisStore',
    'safeParseWebhookEvent',
    'signWebhook',
    'standardWebhooks',
    'toNodeHandler',
  ],
  'workflow-automation-sdk/testing': [
    'DEFAULT_MOCK_USER',
    'FailNextOptions',
    'JsonObject',
    'JsonValue',
    'MockAction',
    'MockArtifactOptions',
    'MockBuild',
    'MockDownloadRequest',
    'MockIntegration',
    'MockListEnvelope',
    'MockListPage',
    'MockNetworkError',
    'MockOrder',
    'MockRateLimit',
    'MockServer',
    'MockServerOptions',
    'MockService',
    'MockServiceOptions',
    'MockTrigger',
    'MockUser',
    'MockWebhookDelivery',
    'MockWebhookEvent',
    'MockWorkflow',
    'artifactBytes',
    'createMockService',
    'startMockServer',
  ],
  'workflow-automation-sdk/testing/msw': [
    'MOCK_BASE_URL',
    'MockHandlers',
    'MockHandlersOptions',
    'MockHandlersTarget',
    'createMockHandlers',
    'createMockService',
  ],
  'workflow-automation-sdk/otel': ['OtelHooksOptions', 'otelHooks'],
};

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

function exportedNames(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause))
        throw new Error(`${path}: name each export, not \`export *\``);
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations) names.add((declaration.name as ts.Identifier).text);
    } else if (isExported(statement)) {
      const { name } = statement as ts.DeclarationStatement;
      if (name) names.add(name.text);
    }
  }
  return [...names].sort();
}

describe('the public names of each entry', () => {
  it.each(Object.entries(ENTRIES))('%s (%s)', (entry, path) => {
    expect(exportedNames(path)).toEqual(PUBLIC[entry as keyof typeof ENTRIES]);
  });
});
