/**
 * One rule per input shape: the SDK refuses an input before sending exactly when the mock service answers it
 * with a 422, naming the same fields, since both check it with the same schema. And `parseWorkflowCreateParams`
 * refuses what `workflows.create` refuses, with the same error.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPath } from '../../src/core/errors.js';
import { safeParse } from '../../src/core/schema.js';
import { Client, ValidationError, parseWorkflowCreateParams, type WorkflowCreateParams } from '../../src/index.js';
import { createdWorkflowSchema, workflowSchema } from '../../src/resources/workflow.js';
import { createMockService, type MockService } from '../../src/testing/index.js';
import { CREATE_INPUT_PATHS, oneValueReplaced } from '../helpers/fast-check.js';

const ORIGIN = 'http://mock.test';
const valid = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

const services: MockService[] = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/** A mock service, and an SDK client that reaches it through `fetch`, counting what it sends. */
function setup() {
  const service = createMockService();
  services.push(service);
  const sent = { count: 0 };
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    sent.count++;
    return service.handle(new Request(input, init));
  };
  const client = new Client({ baseUrl: ORIGIN, apiKey: service.apiKey, apiPrefix: '/v1', maxRetries: 0, fetch });
  /** The mock's status for `body` sent as is, and the fields its 422 names. */
  const raw = async (method: string, path: string, body: unknown) => {
    const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
    const response = await service.handle(new Request(`${ORIGIN}${path}`, { method, headers, body: JSON.stringify(body) }));
    const json = (await response.json()) as { error?: { issues?: { path: string }[] } };
    return { status: response.status, fields: (json.error?.issues ?? []).map((issue) => issue.path) };
  };
  return { client, raw, sent };
}

/** What the SDK did with a call: refused it before sending (naming these fields), or sent it. */
async function sdkVerdict(call: () => Promise<unknown>, sent: { count: number }) {
  const before = sent.count;
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (ValidationError.is(error)) {
    expect(sent.count, 'a refused input is never sent').toBe(before);
    return { refused: true, fields: error.issues.map((issue) => formatPath(issue.path)) };
  }
  return { refused: false, fields: [] };
}

/** Both verdicts on one input: the SDK refuses it exactly when the mock answers 422, naming the same fields. */
async function expectAgreement(sdk: { refused: boolean; fields: string[] }, mock: { status: number; fields: string[] }) {
  expect({ refused: mock.status === 422, fields: mock.fields }).toEqual(sdk);
}

const createCases: [string, unknown, boolean][] = [
  ['a valid input', valid, true],
  ['no trigger.url or config', { ...valid, trigger: { type: 'webhook' }, actions: [{ app: 'google_sheets', action: 'add_row' }] }, true],
  ['extra fields', { ...valid, colour: 'red', trigger: { ...valid.trigger, secret: 'x' } }, true],
  ['a name of spaces', { ...valid, name: '   ' }, true],
  ['an empty name', { ...valid, name: '' }, false],
  ['no name', { ...valid, name: undefined }, false],
  ['a number as platform', { ...valid, platform: 7 }, false],
  ['a trigger without type', { ...valid, trigger: {} }, false],
  ['a trigger url that is not a URL', { ...valid, trigger: { type: 'webhook', url: 'nope' } }, false],
  ['a javascript: trigger url', { ...valid, trigger: { type: 'webhook', url: 'javascript:alert(1)' } }, false],
  ['an app in upper case', { ...valid, actions: [{ app: 'Slack', action: 'send_message' }] }, false],
  ['an action with a hyphen', { ...valid, actions: [{ app: 'slack', action: 'send-message' }] }, false],
  ['a missing action', { ...valid, actions: [{ app: 'slack' }] }, false],
  ['a config that is a string', { ...valid, actions: [{ app: 'slack', action: 'send_message', config: 'x' }] }, false],
  ['actions that are not an array', { ...valid, actions: {} }, false],
  ['an array as the body', [], false],
  ['several problems at once', { ...valid, name: '', actions: [{ app: 'Slack', action: 'x' }] }, false],
];

describe('workflows.create and the mock agree on every input', () => {
  it.each(createCases)('%s', async (_, input, accepted) => {
    const { client, raw, sent } = setup();
    const sdk = await sdkVerdict(() => client.workflows.create(input as WorkflowCreateParams), sent);
    expect(sdk.refused).toBe(!accepted);
    await expectAgreement(sdk, await raw('POST', '/v1/workflows', input));
  });

  it('on a valid input with any one value, at any depth, replaced', async () => {
    const values = fc.oneof(
      fc.constantFrom(null, '', ' ', 'x', 'send_message', 'Slack', 'https://e.com', 'not a url', 0, true),
      fc.array(fc.constant({ app: 'slack', action: 'send_message' }), { maxLength: 2 }),
      fc.constant({}),
      fc.constant([]),
    );
    const { client, raw, sent } = setup();
    await fc.assert(
      fc.asyncProperty(oneValueReplaced(valid, CREATE_INPUT_PATHS, values), async (input) => {
        const sdk = await sdkVerdict(() => client.workflows.create(input as WorkflowCreateParams), sent);
        await expectAgreement(sdk, await raw('POST', '/v1/workflows', input));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the other inputs the mock checks agree too', () => {
  const updates: [string, unknown][] = [
    ['a new name', { name: 'Renamed' }],
    ['only a field the SDK does not model', { colour: 'red' }],
    ['nothing to change', {}],
    ['an empty name', { name: '' }],
    ['a trigger without type', { trigger: {} }],
    ['an app in upper case', { actions: [{ app: 'Slack', action: 'send_message' }] }],
  ];
  it.each(updates)('workflows.update with %s', async (_, changes) => {
    const { client, raw, sent } = setup();
    const { id } = await client.workflows.create(valid);
    const sdk = await sdkVerdict(() => client.workflows.update(id, changes as never), sent);
    await expectAgreement(sdk, await raw('PUT', `/v1/workflows/${id}`, changes));
  });

  const integrations: [string, unknown][] = [
    ['a valid key', { platform: 'shopify', api_key: 'shpat_1', label: 'Main store' }],
    ['no label', { platform: 'shopify', api_key: 'shpat_1' }],
    ['a null label', { platform: 'shopify', api_key: 'shpat_1', label: null }],
    ['an empty api_key', { platform: 'shopify', api_key: '' }],
    ['no platform', { api_key: 'shpat_1' }],
  ];
  it.each(integrations)('integrations.save with %s', async (_, params) => {
    const { client, raw, sent } = setup();
    const sdk = await sdkVerdict(() => client.integrations.save(params as never), sent);
    await expectAgreement(sdk, await raw('POST', '/v1/integrations', params));
  });

  const credentials: [string, unknown][] = [
    ['an email and a password', { email: 'demo@example.com', password: 'pw' }],
    ['an email that is not an address', { email: 'demo', password: 'pw' }],
    ['an empty password', { email: 'demo@example.com', password: '' }],
    ['an extra field', { email: 'demo@example.com', password: 'pw', remember: true }],
  ];
  it.each(credentials)('auth.issueKey with %s', async (_, body) => {
    const { client, raw, sent } = setup();
    const sdk = await sdkVerdict(() => client.auth.issueKey(body as never), sent);
    await expectAgreement(sdk, await raw('POST', '/v1/auth', body));
  });
});

describe('parseWorkflowCreateParams', () => {
  it('returns a valid input read from JSON, typed, with its extra fields', () => {
    const read: unknown = JSON.parse(JSON.stringify({ ...valid, colour: 'red' }));
    const input: WorkflowCreateParams = parseWorkflowCreateParams(read);
    expect(input).toEqual({ ...valid, colour: 'red' });
  });

  it.each(createCases.filter(([, , accepted]) => !accepted))('throws what create rejects with, for %s', async (_, value) => {
    const { client, sent } = setup();
    const thrown = (() => {
      try {
        parseWorkflowCreateParams(value);
      } catch (error) {
        return error;
      }
    })();
    const rejected = await client.workflows.create(value as WorkflowCreateParams).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).message).toBe((rejected as ValidationError).message);
    expect((thrown as ValidationError).issues).toEqual((rejected as ValidationError).issues);
    expect(sent.count).toBe(0);
  });
});

describe('the workflow response schemas', () => {
  const workflow = { id: 'wf_1', status: 'active', created_at: '2026-01-01T00:00:00Z', build_id: 'bld_1', ...valid, extra: { kept: true } };

  it.each([
    ['workflow', workflowSchema()],
    ['created workflow', createdWorkflowSchema()],
  ] as const)('the %s schema accepts a full response, and one without the optional fields', (_, schema) => {
    expect(safeParse(schema, workflow).success).toBe(true);
    const { trigger, actions, ...rest } = workflow;
    expect(safeParse(schema, rest).success).toBe(true);
  });

  it('a created workflow needs its build_id', () => {
    const { build_id, ...rest } = workflow;
    expect(safeParse(workflowSchema(), rest).success).toBe(true);
    expect(safeParse(createdWorkflowSchema(), rest).success).toBe(false);
  });
});

describe('the wording of input errors', () => {
  it('gives an app example for an app and an action example for an action', async () => {
    const { client } = setup();
    const input = { ...valid, actions: [{ app: 'Slack', action: 'Send' }] };
    const error = await client.workflows.create(input).catch((e: unknown) => e);
    expect((error as ValidationError).message).toBe(
      'Invalid input to workflows.create: actions[0].app: must be snake_case, like slack; actions[0].action: must be snake_case, like send_message',
    );
  });

  it.each([
    ['', 'must be a non-empty string'],
    ['..', 'must not be or hold "." or ".." segments, plain or percent-encoded'],
    ['a/b', 'must not hold "/", "\\", "?" or "#": an id is one path segment'],
  ])('says "id" once for the id %j', async (id, problem) => {
    const { client } = setup();
    const error = (await client.workflows.get(id).catch((e: unknown) => e)) as ValidationError;
    expect(error.message).toBe(`Invalid workflow: id: ${problem}`);
    expect(error.field).toBe('id');
  });
});
