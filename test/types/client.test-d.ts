/**
 * The public types, checked by the compiler (`vitest --typecheck`): what a caller gets back, what it may
 * pass, and what it may not.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  type ApiPromise,
  Client,
  isCompletedBuild,
  type Page,
  ValidationError,
  type Build,
  type Credentials,
  type CompletedBuild,
  type CreatedWorkflow,
  type Integration,
  type IntegrationSaveParams,
  type Issue,
  type IssuedKey,
  type JsonValue,
  type Order,
  type Workflow,
  type WorkflowCreateParams,
  type WorkflowStatus,
  type UnknownBuildStatus,
  type WorkflowUpdateParams,
} from '../../src/index.js';

declare const client: Client;

const input = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

describe('workflows', () => {
  it('a created workflow is a CreatedWorkflow: a Workflow whose build_id is a string', async () => {
    const workflow = await client.workflows.create(input);

    expectTypeOf(workflow).toEqualTypeOf<CreatedWorkflow>();
    expectTypeOf(workflow).toExtend<Workflow>();
    expectTypeOf(workflow.id).toEqualTypeOf<string>();
    expectTypeOf(workflow.name).toEqualTypeOf<string>();
    expectTypeOf(workflow.created_at).toEqualTypeOf<string>();
    expectTypeOf(workflow.build_id).toEqualTypeOf<string>();
    // No `!`: the build id of a created workflow goes straight to builds.get().
    expectTypeOf(client.builds.get(workflow.build_id)).resolves.toEqualTypeOf<Build>();
    const { workflow: waited } = await client.workflows.createAndWait(input);
    expectTypeOf(waited.build_id).toEqualTypeOf<string>();
  });

  it('a workflow read back by get() may lack build_id', async () => {
    expectTypeOf((await client.workflows.get('wf_1')).build_id).toEqualTypeOf<string | undefined>();
  });

  it('status keeps its known values and accepts any other string', () => {
    expectTypeOf<Workflow['status']>().toEqualTypeOf<WorkflowStatus | (string & {})>();
    expectTypeOf<'building'>().toExtend<WorkflowStatus>();
    expectTypeOf<'building'>().toExtend<Workflow['status']>();
    expectTypeOf<'weird'>().toExtend<Workflow['status']>();
    expectTypeOf<Workflow['status']>().not.toEqualTypeOf<string>();
  });

  it('unknown fields of a workflow are kept and typed unknown', () => {
    expectTypeOf<Workflow['owner']>().toEqualTypeOf<unknown>();
  });

  it('awaiting list() gives a Page<Workflow>', async () => {
    const page = await client.workflows.list({ status: 'building', limit: 10 });

    expectTypeOf(page).toEqualTypeOf<Page<Workflow>>();
    expectTypeOf(page.items).toEqualTypeOf<Workflow[]>();
    expectTypeOf(page.hasNextPage()).toEqualTypeOf<boolean>();
    expectTypeOf(page.getNextPage()).toEqualTypeOf<Promise<Page<Workflow>>>();
  });

  it('an item of for await over list() is a Workflow', async () => {
    for await (const workflow of client.workflows.list()) {
      expectTypeOf(workflow).toEqualTypeOf<Workflow>();
    }
  });

  it('get and update resolve to a Workflow; delete to JsonValue or void', () => {
    expectTypeOf(client.workflows.get('wf_1')).toEqualTypeOf<ApiPromise<Workflow>>();
    expectTypeOf(client.workflows.update('wf_1', { name: 'Renamed' })).toEqualTypeOf<ApiPromise<Workflow>>();
    expectTypeOf(client.workflows.delete('wf_1')).toEqualTypeOf<ApiPromise<JsonValue | undefined>>();
  });

  it('types the fields of create and update inputs (strings, not unknown)', () => {
    expectTypeOf<WorkflowCreateParams['name']>().toEqualTypeOf<string>();
    expectTypeOf<WorkflowCreateParams['platform']>().toEqualTypeOf<string>();
    expectTypeOf<WorkflowCreateParams['trigger']['type']>().toEqualTypeOf<string>();
    expectTypeOf<WorkflowCreateParams['trigger']['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WorkflowCreateParams['actions'][number]['app']>().toEqualTypeOf<string>();
    expectTypeOf<WorkflowUpdateParams['name']>().toEqualTypeOf<string | undefined>();
  });

  it('refuses a create input that lacks a required field', () => {
    // @ts-expect-error name is required
    void client.workflows.create({ platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    // @ts-expect-error trigger.type is required
    void client.workflows.create({ ...input, trigger: { url: 'https://example.com/hook' } });
    // @ts-expect-error an action needs an app
    void client.workflows.create({ ...input, actions: [{ action: 'send_message' }] });
  });

  it('refuses a create input with a field of the wrong type', () => {
    // @ts-expect-error name must be a string
    void client.workflows.create({ ...input, name: 42 });
    // @ts-expect-error an action's app must be a string
    void client.workflows.create({ ...input, actions: [{ app: 1, action: 'send_message' }] });
    // @ts-expect-error actions must be an array
    void client.workflows.create({ ...input, actions: { app: 'slack', action: 'send_message' } });
  });

  it('refuses wrong list parameters, ids and missing changes', () => {
    // @ts-expect-error page must be a number
    void client.workflows.list({ page: '2' });
    // @ts-expect-error list takes no sort parameter
    void client.workflows.list({ sort: 'name' });
    // @ts-expect-error a workflow id is a string
    void client.workflows.get(123);
    // @ts-expect-error update needs the changes
    void client.workflows.update('wf_1');
  });
});

describe('builds', () => {
  it('get resolves to a Build whose status is open', async () => {
    const build = await client.builds.get('bld_1');

    expectTypeOf(build).toEqualTypeOf<Build>();
    expectTypeOf<'completed'>().toExtend<Build['status']>();
    // Open: a status the SDK does not know is kept, typed opaque (test/types/build.test-d.ts), a string at run time.
    expectTypeOf<UnknownBuildStatus>().toExtend<Build['status']>();
    expectTypeOf<Build['status']>().toExtend<string>();
    expectTypeOf(build.progress).toEqualTypeOf<number | null | undefined>();
  });

  it('isCompletedBuild narrows what get() returns to a string download_url, without a cast', async () => {
    const build = await client.builds.get('bld_1');
    if (isCompletedBuild(build)) {
      expectTypeOf(build).toExtend<CompletedBuild>();
      expectTypeOf(build.download_url).toEqualTypeOf<string>();
      expectTypeOf(build.status).toEqualTypeOf<'completed'>();
    } else {
      expectTypeOf(build.download_url).toEqualTypeOf<string | null | undefined>();
    }
  });

  it('isCompletedBuild narrows what watch() yields', async () => {
    for await (const build of client.builds.watch('bld_1')) {
      if (isCompletedBuild(build)) expectTypeOf(build.download_url).toEqualTypeOf<string>();
    }
    expectTypeOf(isCompletedBuild).guards.toEqualTypeOf<CompletedBuild>();
  });

  it("a CompletedBuild's download_url is a string", () => {
    expectTypeOf<CompletedBuild['download_url']>().toEqualTypeOf<string>();
    expectTypeOf<CompletedBuild['status']>().toEqualTypeOf<'completed'>();
    expectTypeOf<CompletedBuild>().toExtend<Build>();
  });
});

describe('orders, integrations and auth', () => {
  it('orders resolve to Order and take string or numeric ids', () => {
    expectTypeOf(client.orders.get('ord_1')).toEqualTypeOf<ApiPromise<Order>>();
    expectTypeOf(client.orders.get(42)).toEqualTypeOf<ApiPromise<Order>>();
    expectTypeOf(client.orders.list({ status: 'paid' })).resolves.toEqualTypeOf<Page<Order>>();
  });

  it('integrations resolve to Integration; delete to JsonValue or void', () => {
    expectTypeOf(client.integrations.save({ platform: 'shopify', api_key: 'k', label: 'Store' })).toEqualTypeOf<ApiPromise<Integration>>();
    expectTypeOf(client.integrations.delete('int_1')).toEqualTypeOf<ApiPromise<JsonValue | undefined>>();
    // @ts-expect-error api_key is required
    void client.integrations.save({ platform: 'shopify', label: 'Store' });
    // @ts-expect-error integrations.list takes no status
    void client.integrations.list({ status: 'active' });
  });

  it('types the fields of integration and credential inputs as strings', () => {
    expectTypeOf<IntegrationSaveParams['platform']>().toEqualTypeOf<string>();
    expectTypeOf<IntegrationSaveParams['api_key']>().toEqualTypeOf<string>();
    expectTypeOf<Credentials['email']>().toEqualTypeOf<string>();
    expectTypeOf<Credentials['password']>().toEqualTypeOf<string>();
  });

  it('refuses an integration key or a password that is not a string', () => {
    // @ts-expect-error api_key must be a string
    void client.integrations.save({ platform: 'shopify', api_key: 123, label: 'Store' });
    // @ts-expect-error the password must be a string
    void client.auth.issueKey({ email: 'a@b.c', password: 1234 });
  });

  it('issueKey resolves to { apiKey } and login to a Client', () => {
    expectTypeOf(client.auth.issueKey({ email: 'a@b.c', password: 'pw' })).toEqualTypeOf<ApiPromise<IssuedKey>>();
    expectTypeOf<IssuedKey['apiKey']>().toEqualTypeOf<string>();
    expectTypeOf(Client.login({ baseUrl: 'https://wfa.test', email: 'a@b.c', password: 'pw' })).toEqualTypeOf<Promise<Client>>();
    // @ts-expect-error the password is required
    void client.auth.issueKey({ email: 'a@b.c' });
    // @ts-expect-error login takes credentials, not an apiKey
    void Client.login({ baseUrl: 'https://wfa.test', apiKey: 'k', email: 'a@b.c', password: 'pw' });
  });
});

describe('client.request and errors', () => {
  it('request<T> resolves to T', () => {
    expectTypeOf(client.request<{ count: number }>({ method: 'GET', path: '/workflows/stats' })).toEqualTypeOf<
      ApiPromise<{ count: number }>
    >();
    expectTypeOf(client.request({ method: 'GET', path: '/x' })).toEqualTypeOf<ApiPromise<unknown>>();
  });

  it('errors narrow to their fields', () => {
    const error: unknown = undefined;
    if (error instanceof ApiError) expectTypeOf(error.status).toEqualTypeOf<number>();
    if (ValidationError.is(error)) {
      expectTypeOf(error.field).toEqualTypeOf<string>();
      expectTypeOf(error.issues).toEqualTypeOf<readonly Issue[]>();
    }
  });
});
