/**
 * `client.workflows`: list, create, get, update and delete, under both path prefixes, with input checks made
 * before anything is sent and responses validated (unknown fields kept).
 */
import { describe, expect, it } from 'vitest';
import {
  Client,
  NotFoundError,
  ResponseValidationError,
  ValidationError,
  type ApiPrefix,
  type WorkflowCreateParams,
} from '../../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from '../helpers/service.js';

const service = useService();

function makeClient(apiPrefix: ApiPrefix = '/api/v1', options: { validateResponses?: boolean } = {}) {
  return new Client({ apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix, maxRetries: 0, ...options });
}

const createInput: WorkflowCreateParams = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

/** A workflow as the service returns it, with fields the SDK does not model (they must be kept). */
const workflow = {
  id: 'wf_123',
  name: 'Notify on order',
  platform: 'zapier',
  status: 'building',
  created_at: '2024-05-01T12:00:00Z',
  build_id: 'bld_456',
  trigger: { type: 'webhook', url: 'https://example.com/hook', secret_header: 'X-Sig' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' }, position: 1 }],
  owner: { team: 'ops' },
  tags: ['orders'],
};

describe.each(PREFIXES)('client.workflows with apiPrefix %s', (prefix) => {
  describe('list', () => {
    it('sends GET <prefix>/workflows with page, limit and status in the query and the X-API-Key header', async () => {
      service.reply('GET', `${prefix}/workflows`, 200, { data: [workflow], has_more: false });

      await makeClient(prefix).workflows.list({ page: 2, limit: 10, status: 'building' });

      const sent = service.single();
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe(`${prefix}/workflows`);
      expect(Object.fromEntries(sent.query)).toEqual({ page: '2', limit: '10', status: 'building' });
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('sends no query string when called without parameters', async () => {
      service.reply('GET', `${prefix}/workflows`, 200, []);

      await makeClient(prefix).workflows.list();

      expect(service.single().search).toBe('');
    });

    it('resolves to a page of validated workflows with their unknown fields kept', async () => {
      service.reply('GET', `${prefix}/workflows`, 200, { data: [workflow], page: 1, total: 1 });

      const page = await makeClient(prefix).workflows.list();

      expect(page.items).toEqual([workflow]);
      expect(page.info.total).toBe(1);
    });

    it('yields every workflow of the page with for await', async () => {
      const second = { ...workflow, id: 'wf_124' };
      service.reply('GET', `${prefix}/workflows`, 200, { data: [workflow, second], has_more: false });

      const ids: string[] = [];
      for await (const item of makeClient(prefix).workflows.list()) ids.push(item.id);

      expect(ids).toEqual(['wf_123', 'wf_124']);
      expect(service.requests).toHaveLength(1);
    });
  });

  describe('create', () => {
    it('sends POST <prefix>/workflows with the input as its JSON body and the X-API-Key header', async () => {
      service.reply('POST', `${prefix}/workflows`, 201, workflow);

      await makeClient(prefix).workflows.create(createInput);

      const sent = service.single();
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe(`${prefix}/workflows`);
      expect(sent.search).toBe('');
      expect(sent.headers['content-type']).toMatch(/^application\/json/);
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toEqual(createInput);
    });

    it('sends a trigger without url and actions without config as given', async () => {
      service.reply('POST', `${prefix}/workflows`, 201, workflow);
      const minimal = {
        name: 'Minimal',
        platform: 'make',
        trigger: { type: 'webhook' },
        actions: [{ app: 'gmail', action: 'send_email' }],
      };

      await makeClient(prefix).workflows.create(minimal);

      expect(service.single().body).toEqual(minimal);
    });

    it('rejects an answer without a build_id with ResponseValidationError that keeps the workflow', async () => {
      const { build_id: _, ...withoutBuild } = workflow;
      service.reply('POST', `${prefix}/workflows`, 201, withoutBuild);

      const error = await rejectionOf(makeClient(prefix).workflows.create(createInput), ResponseValidationError);

      expect(error.issues[0]?.path).toEqual(['build_id']);
      expect(error.body).toMatchObject({ id: withoutBuild.id });
    });

    it('resolves to the created workflow (id, status, created_at, build_id) with unknown fields kept', async () => {
      service.reply('POST', `${prefix}/workflows`, 201, workflow);

      const created = await makeClient(prefix).workflows.create(createInput);

      expect(created).toEqual(workflow);
    });
  });

  describe('get', () => {
    it('sends GET <prefix>/workflows/{id} with the X-API-Key header and no body', async () => {
      service.reply('GET', `${prefix}/workflows/wf_123`, 200, workflow);

      await makeClient(prefix).workflows.get('wf_123');

      const sent = service.single();
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe(`${prefix}/workflows/wf_123`);
      expect(sent.search).toBe('');
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('resolves to the workflow with unknown fields kept', async () => {
      service.reply('GET', `${prefix}/workflows/wf_123`, 200, workflow);

      await expect(makeClient(prefix).workflows.get('wf_123')).resolves.toEqual(workflow);
    });

    it('rejects with NotFoundError for a missing workflow, without trying the other prefix', async () => {
      await rejectionOf(makeClient(prefix).workflows.get('wf_missing'), NotFoundError);

      expect(service.requests.map((r) => r.path)).toEqual([`${prefix}/workflows/wf_missing`]);
    });
  });

  describe('update', () => {
    it('sends PUT <prefix>/workflows/{id} with the changes as its JSON body and the X-API-Key header', async () => {
      service.reply('PUT', `${prefix}/workflows/wf_123`, 200, { ...workflow, name: 'Renamed' });

      await makeClient(prefix).workflows.update('wf_123', { name: 'Renamed' });

      const sent = service.single();
      expect(sent.method).toBe('PUT');
      expect(sent.path).toBe(`${prefix}/workflows/wf_123`);
      expect(sent.search).toBe('');
      expect(sent.headers['content-type']).toMatch(/^application\/json/);
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toEqual({ name: 'Renamed' });
    });

    it('resolves to the updated workflow with unknown fields kept', async () => {
      const updated = { ...workflow, name: 'Renamed', status: 'active' };
      service.reply('PUT', `${prefix}/workflows/wf_123`, 200, updated);

      await expect(makeClient(prefix).workflows.update('wf_123', { name: 'Renamed' })).resolves.toEqual(updated);
    });
  });

  describe('delete', () => {
    it('sends DELETE <prefix>/workflows/{id} with the X-API-Key header and no body', async () => {
      service.reply('DELETE', `${prefix}/workflows/wf_123`, 204);

      await makeClient(prefix).workflows.delete('wf_123');

      const sent = service.single();
      expect(sent.method).toBe('DELETE');
      expect(sent.path).toBe(`${prefix}/workflows/wf_123`);
      expect(sent.search).toBe('');
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('resolves to undefined for an empty 204', async () => {
      service.reply('DELETE', `${prefix}/workflows/wf_123`, 204);

      await expect(makeClient(prefix).workflows.delete('wf_123')).resolves.toBeUndefined();
    });

    it('resolves to the parsed body for a 200 with JSON', async () => {
      service.reply('DELETE', `${prefix}/workflows/wf_123`, 200, { id: 'wf_123', deleted: true });

      await expect(makeClient(prefix).workflows.delete('wf_123')).resolves.toEqual({ id: 'wf_123', deleted: true });
    });
  });
});

describe('client.workflows input validation (rejects with ValidationError, sends nothing)', () => {
  const createCases: [string, unknown, string][] = [
    ['an empty name', { ...createInput, name: '' }, 'name'],
    ['a missing name', { ...createInput, name: undefined }, 'name'],
    ['an empty platform', { ...createInput, platform: '' }, 'platform'],
    ['a trigger.url that is not a URL', { ...createInput, trigger: { type: 'webhook', url: 'not a url' } }, 'trigger.url'],
    ['a trigger.url that is not http(s)', { ...createInput, trigger: { type: 'webhook', url: 'javascript:alert(1)' } }, 'trigger.url'],
    ['a trigger without type', { ...createInput, trigger: { url: 'https://example.com/hook' } }, 'trigger.type'],
    ['actions that are not an array', { ...createInput, actions: 'slack' }, 'actions'],
    [
      'an action app that is not lower snake case',
      { ...createInput, actions: [{ app: 'Slack', action: 'send_message' }] },
      'actions[0].app',
    ],
    ['an action app with a hyphen', { ...createInput, actions: [{ app: 'google-sheets', action: 'add_row' }] }, 'actions[0].app'],
    [
      'an action name that is not lower snake case',
      { ...createInput, actions: [{ app: 'slack', action: 'sendMessage' }] },
      'actions[0].action',
    ],
    [
      'an action config that is not an object',
      { ...createInput, actions: [{ app: 'slack', action: 'send_message', config: 'x' }] },
      'actions[0].config',
    ],
  ];

  it.each(createCases)('create refuses %s and names the field', async (_, input, field) => {
    const error = await rejectionOf(makeClient().workflows.create(input as WorkflowCreateParams), ValidationError);

    expect(error.field).toBe(field);
    expect(error.issues.map((issue) => issue.path.join('.'))).toContain(field.replace(/\[(\d+)\]/g, '.$1'));
    expect(error.message).toContain(field);
    expect(service.requests).toHaveLength(0);
  });

  const listCases: [string, Record<string, unknown>, string][] = [
    ['page 0', { page: 0 }, 'page'],
    ['a negative page', { page: -1 }, 'page'],
    ['limit 1.5', { limit: 1.5 }, 'limit'],
    ['a limit given as a string', { limit: '10' }, 'limit'],
    ['an empty status', { status: '' }, 'status'],
  ];

  it.each(listCases)('list refuses %s and names the field', async (_, params, field) => {
    const error = await rejectionOf(makeClient().workflows.list(params as never), ValidationError);

    expect(error.field).toBe(field);
    expect(error.issues[0]?.path).toEqual([field]);
    expect(service.requests).toHaveLength(0);
  });

  it('list refuses an unknown parameter and names it', async () => {
    const error = await rejectionOf(makeClient().workflows.list({ sort: 'name' } as never), ValidationError);

    expect(error.message).toContain('sort');
    expect(error.field).toBe('sort');
    expect(service.requests).toHaveLength(0);
  });

  it('update refuses empty changes', async () => {
    await rejectionOf(makeClient().workflows.update('wf_123', {}), ValidationError);

    expect(service.requests).toHaveLength(0);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a trigger.url that is not a URL', { trigger: { type: 'webhook', url: 'nope' } }, 'trigger.url'],
    ['an action app that is not lower snake case', { actions: [{ app: 'Slack', action: 'send_message' }] }, 'actions[0].app'],
  ])('update refuses %s and names the field', async (_, changes, field) => {
    const error = await rejectionOf(makeClient().workflows.update('wf_123', changes), ValidationError);

    expect(error.field).toBe(field);
    expect(service.requests).toHaveLength(0);
  });
});

describe('client.workflows ids', () => {
  const calls = {
    get: (client: Client, id: string) => client.workflows.get(id),
    update: (client: Client, id: string) => client.workflows.update(id, { name: 'Renamed' }),
    delete: (client: Client, id: string) => client.workflows.delete(id),
  };
  const methods = { get: 'GET', update: 'PUT', delete: 'DELETE' } as const;

  describe.each(Object.keys(calls) as (keyof typeof calls)[])('%s', (name) => {
    it.each([
      ['wf 1', 'wf%201'],
      ['a;b=c', 'a%3Bb%3Dc'],
      ['%2F', '%252F'],
    ])('URL-encodes the id %j into one path segment (%s)', async (id, segment) => {
      service.reply(methods[name], '/api/v1/workflows/*', 200, workflow);

      await calls[name](makeClient(), id);

      const sent = service.single();
      expect(sent.path).toBe(`/api/v1/workflows/${segment}`);
      expect(sent.search).toBe('');
    });

    it.each(['.', '..', '', 'a/b', 'a\\b', '?x', '#', '../orders', '%2e%2E'])(
      'refuses the id %j with ValidationError and sends nothing',
      async (id) => {
        const error = await rejectionOf(calls[name](makeClient(), id), ValidationError);

        expect(error.field).toBe('id');
        expect(service.requests).toHaveLength(0);
      },
    );
  });
});

describe('client.workflows response validation', () => {
  it('rejects a workflow missing a required field with ResponseValidationError carrying the raw body and the issue path', async () => {
    const { name: _name, ...nameless } = workflow;
    service.reply('GET', '/api/v1/workflows/wf_123', 200, nameless);

    const error = await rejectionOf(makeClient().workflows.get('wf_123'), ResponseValidationError);

    expect(error.body).toEqual(nameless);
    expect(error.issues.map((issue) => issue.path)).toEqual([['name']]);
    expect(error.message).toContain('name');
  });

  it('rejects a created workflow whose id is not a string', async () => {
    service.reply('POST', '/api/v1/workflows', 201, { ...workflow, id: 123 });

    const error = await rejectionOf(makeClient().workflows.create(createInput), ResponseValidationError);

    expect(error.issues.map((issue) => issue.path)).toEqual([['id']]);
    expect(error.body).toEqual({ ...workflow, id: 123 });
  });

  it('rejects a list whose item lacks an id, pointing at the item inside the envelope', async () => {
    const { id: _id, ...idless } = workflow;
    service.reply('GET', '/api/v1/workflows', 200, { data: [workflow, idless] });

    const error = await rejectionOf(makeClient().workflows.list(), ResponseValidationError);

    expect(error.issues.map((issue) => issue.path)).toEqual([['data', 1, 'id']]);
    expect(error.body).toEqual({ data: [workflow, idless] });
  });

  it('accepts a status it does not know', async () => {
    service.reply('GET', '/api/v1/workflows/wf_123', 200, { ...workflow, status: 'paused_by_admin' });

    await expect(makeClient().workflows.get('wf_123')).resolves.toMatchObject({ status: 'paused_by_admin' });
  });

  it('returns the body as received with validateResponses: false', async () => {
    service.reply('GET', '/api/v1/workflows/wf_123', 200, { id: 'wf_123', weird: true });

    const received = await makeClient('/api/v1', { validateResponses: false }).workflows.get('wf_123');

    expect(received).toEqual({ id: 'wf_123', weird: true });
  });

  it('returns list items as received with validateResponses: false', async () => {
    service.reply('GET', '/api/v1/workflows', 200, { data: [{ only: 'this' }], has_more: false });

    const page = await makeClient('/api/v1', { validateResponses: false }).workflows.list();

    expect(page.items).toEqual([{ only: 'this' }]);
  });
});
