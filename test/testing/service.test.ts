import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/resources/endpoints.js';
import { createMockService, DEFAULT_MOCK_USER, MockNetworkError } from '../../src/testing/index.js';
import type { MockService, MockServiceOptions } from '../../src/testing/index.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';
import { reply, startReceiver, WORKFLOW, type Receiver, type Reply } from './helpers.js';

const ORIGIN = 'http://mock.test';
const PREFIXES = ['/api/v1', '/v1'] as const;
const START = Date.parse('2030-01-01T00:00:00.000Z');

const services: MockService[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) service.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function mock(options: MockServiceOptions = {}): MockService {
  const service = createMockService(options);
  services.push(service);
  return service;
}

function manualClock() {
  let t = START;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

async function receiver(status?: number): Promise<Receiver> {
  const started = await startReceiver(status);
  receivers.push(started);
  return started;
}

type Api = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** Calls the service like a client holding `key` would (no key header when `key` is null). */
function as(service: MockService, key: string | null = service.apiKey): Api {
  return async (method, path, body) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    return reply(await service.handle(new Request(`${ORIGIN}${path}`, init)));
  };
}

async function createWorkflow(api: Api, prefix = '/v1', body: unknown = WORKFLOW): Promise<Reply> {
  const res = await api('POST', `${prefix}/workflows`, body);
  expect(res.status).toBe(201);
  return res;
}

describe.each(PREFIXES)('every endpoint answers under %s', (prefix) => {
  test('workflows: create, get, list, update, delete', async () => {
    const api = as(mock());
    const created = await createWorkflow(api, prefix);
    const id: string = created.body.id;

    expect((await api('GET', `${prefix}/workflows/${id}`)).body).toEqual(created.body);
    expect((await api('GET', `${prefix}/workflows`)).body.data).toEqual([created.body]);
    const updated = await api('PUT', `${prefix}/workflows/${id}`, { name: 'Renamed' });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Renamed');
    expect((await api('DELETE', `${prefix}/workflows/${id}`)).status).toBe(204);
  });

  test('orders: list and get', async () => {
    const api = as(mock());
    const list = await api('GET', `${prefix}/orders`);
    expect(list.status).toBe(200);
    const first = list.body.data[0];
    expect((await api('GET', `${prefix}/orders/${first.id}`)).body).toEqual(first);
  });

  test('builds: get', async () => {
    const api = as(mock());
    const created = await createWorkflow(api, prefix);
    const build = await api('GET', `${prefix}/builds/${created.body.build_id}`);
    expect(build.status).toBe(200);
    expect(build.body.id).toBe(created.body.build_id);
  });

  test('integrations: save, list, delete', async () => {
    const api = as(mock());
    const saved = await api('POST', `${prefix}/integrations`, { platform: 'zapier', api_key: 'sk_live_abcdef1234', label: 'Prod' });
    expect(saved.status).toBe(201);
    expect((await api('GET', `${prefix}/integrations`)).body.data).toEqual([saved.body]);
    expect((await api('DELETE', `${prefix}/integrations/${saved.body.id}`)).status).toBe(204);
  });
});

describe('paths and prefixes', () => {
  test("with prefixes: ['/v1'], /api/v1 paths are 404 and /v1 paths answer", async () => {
    const api = as(mock({ prefixes: ['/v1'] }));
    expect((await api('GET', '/api/v1/workflows')).status).toBe(404);
    expect((await api('GET', '/v1/workflows')).status).toBe(200);
  });

  test("with prefixes: ['/api/v1'], /v1 paths are 404 and /api/v1 paths answer", async () => {
    const api = as(mock({ prefixes: ['/api/v1'] }));
    expect((await api('GET', '/v1/orders')).status).toBe(404);
    expect((await api('GET', '/api/v1/orders')).status).toBe(200);
  });

  test('a disabled prefix is 404 even without an API key, so a client can tell prefix from key', async () => {
    const api = as(mock({ prefixes: ['/v1'] }), null);
    expect((await api('GET', '/api/v1/workflows')).status).toBe(404);
    expect((await api('GET', '/v1/workflows')).status).toBe(401);
  });

  test('/v1/auth answers whatever the prefixes, and /api/v1/auth does not exist', async () => {
    const api = as(mock({ prefixes: ['/api/v1'] }), null);
    expect((await api('POST', '/v1/auth', DEFAULT_MOCK_USER)).status).toBe(200);
    expect((await api('POST', '/api/v1/auth', DEFAULT_MOCK_USER)).status).toBe(404);
  });

  test('an unknown path is a JSON 404 with a message', async () => {
    const res = await as(mock())('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.error.message).toMatch(/No endpoint GET \/v1\/nothing-here/);
  });

  test('a known path with another method is 405 with Allow', async () => {
    const res = await as(mock())('PATCH', '/v1/workflows/wf_1');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  test("a method named like an object property is 405, not a call into the mock's internals", async () => {
    const res = await as(mock())('constructor', '/v1/workflows');
    expect(res.status).toBe(405);
  });

  test('a trailing slash is accepted', async () => {
    expect((await as(mock())('GET', '/v1/orders/')).status).toBe(200);
  });

  test('an encoded "/" stays inside the id and cannot reach another endpoint', async () => {
    const res = await as(mock())('GET', '/v1/workflows/wf_1%2Fbuilds');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('No workflow with id wf_1/builds');
  });

  test('OPTIONS is a CORS preflight answered without a key', async () => {
    const res = await as(mock(), null)('OPTIONS', '/v1/workflows');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('DELETE');
  });
});

describe('authentication', () => {
  // Every endpoint of the table that needs a key, its id filled in.
  const RESOURCE_ENDPOINTS = Object.values(ENDPOINTS as Record<string, Endpoint>)
    .filter((endpoint) => endpoint.auth !== false)
    .map((endpoint) => [endpoint.method, `/v1${endpoint.path.replace('{id}', 'x_1')}`] as const);

  test.each(RESOURCE_ENDPOINTS)('%s %s without X-API-Key is 401', async (method, path) => {
    const res = await as(mock(), null)(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ message: 'Missing X-API-Key header', code: 'missing_api_key' });
  });

  test.each(RESOURCE_ENDPOINTS)('%s %s with a wrong key is 401', async (method, path) => {
    const res = await as(mock(), 'wfa_test_wrong')(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ message: 'Invalid API key', code: 'invalid_api_key' });
  });

  test('POST /v1/auth with the default user issues a working key', async () => {
    const service = mock();
    const res = await as(service, null)('POST', '/v1/auth', { email: 'demo@example.com', password: 'demo' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ api_key: expect.stringMatching(/^wfa_test_[a-z0-9]{32}$/), user: { email: 'demo@example.com' } });
    expect((await as(service, res.body.api_key)('GET', '/v1/workflows')).status).toBe(200);
  });

  test('each login issues a new key', async () => {
    const api = as(mock(), null);
    const first = await api('POST', '/v1/auth', DEFAULT_MOCK_USER);
    const second = await api('POST', '/v1/auth', DEFAULT_MOCK_USER);
    expect(first.body.api_key).not.toBe(second.body.api_key);
  });

  test('a wrong password is 401', async () => {
    const res = await as(mock(), null)('POST', '/v1/auth', { email: 'demo@example.com', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Invalid email or password');
  });

  test('an unknown email is 401', async () => {
    const res = await as(mock(), null)('POST', '/v1/auth', { email: 'who@example.com', password: 'demo' });
    expect(res.status).toBe(401);
  });

  test('missing credentials are 422 naming the fields', async () => {
    const res = await as(mock(), null)('POST', '/v1/auth', { email: '' });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('Invalid credentials: email: must be an email address; password: is required');
  });

  test('a body that is not JSON is 400', async () => {
    const res = await as(mock(), null)('POST', '/v1/auth', '{not json');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  test('configured users log in, and the default user still does', async () => {
    const api = as(mock({ users: [{ email: 'ana@example.com', password: 'secret' }] }), null);
    expect((await api('POST', '/v1/auth', { email: 'ana@example.com', password: 'secret' })).status).toBe(200);
    expect((await api('POST', '/v1/auth', DEFAULT_MOCK_USER)).status).toBe(200);
  });

  test('a configured user with the default email replaces its password', async () => {
    const api = as(mock({ users: [{ email: 'demo@example.com', password: 'changed' }] }), null);
    expect((await api('POST', '/v1/auth', DEFAULT_MOCK_USER)).status).toBe(401);
    expect((await api('POST', '/v1/auth', { email: 'demo@example.com', password: 'changed' })).status).toBe(200);
  });

  test('a configured apiKey is valid from the start', async () => {
    const service = mock({ users: [{ email: 'ana@example.com', password: 'pw', apiKey: 'key_ana' }] });
    expect((await as(service, 'key_ana')('GET', '/v1/orders')).status).toBe(200);
  });

  test('service.apiKey belongs to the default user', async () => {
    const service = mock();
    const mine = await createWorkflow(as(service));
    const loggedIn = await as(service, null)('POST', '/v1/auth', DEFAULT_MOCK_USER);
    const list = await as(service, loggedIn.body.api_key)('GET', '/v1/workflows');
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([mine.body.id]);
  });

  test('issueKey() makes a key for a configured user and refuses an unknown one', async () => {
    const service = mock({ users: [{ email: 'ana@example.com', password: 'pw' }] });
    expect((await as(service, service.issueKey('ana@example.com'))('GET', '/v1/orders')).status).toBe(200);
    expect(() => service.issueKey('nobody@example.com')).toThrow(/no user nobody@example.com/);
  });
});

describe('workflows', () => {
  test('creation answers 201 with the workflow, status building and a build_id', async () => {
    const res = await createWorkflow(as(mock({ now: manualClock().now })));
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wf_[a-z0-9]{16}$/),
      name: WORKFLOW.name,
      platform: WORKFLOW.platform,
      trigger: WORKFLOW.trigger,
      actions: WORKFLOW.actions,
      status: 'building',
      build_id: expect.stringMatching(/^bld_[a-z0-9]{16}$/),
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    });
  });

  test('extra trigger and action fields are kept; unknown top-level fields are dropped', async () => {
    const body = {
      ...WORKFLOW,
      colour: 'red',
      trigger: { type: 'schedule', cron: '0 * * * *' },
      actions: [{ app: 'a', action: 'b', retries: 3 }],
    };
    const res = await createWorkflow(as(mock()), '/v1', body);
    expect(res.body.trigger).toEqual({ type: 'schedule', cron: '0 * * * *' });
    expect(res.body.actions).toEqual([{ app: 'a', action: 'b', retries: 3 }]);
    expect(res.body).not.toHaveProperty('colour');
  });

  test('an empty actions array is accepted', async () => {
    await createWorkflow(as(mock()), '/v1', { ...WORKFLOW, actions: [] });
  });

  test.each([
    ['no name', { ...WORKFLOW, name: undefined }, 'name: is required'],
    ['an empty name', { ...WORKFLOW, name: '' }, 'name: must not be empty'],
    ['no platform', { ...WORKFLOW, platform: 7 }, 'platform: must be a string'],
    ['no trigger', { ...WORKFLOW, trigger: undefined }, 'trigger: is required'],
    ['no trigger type', { ...WORKFLOW, trigger: {} }, 'trigger.type: is required'],
    ['a trigger url that is not a URL', { ...WORKFLOW, trigger: { type: 'webhook', url: 'nope' } }, 'trigger.url: must be an http(s) URL'],
    ['actions not an array', { ...WORKFLOW, actions: {} }, 'actions: must be an array'],
    ['an action that is not an object', { ...WORKFLOW, actions: ['slack'] }, 'actions[0]: must be an object'],
    ['an app in capitals', { ...WORKFLOW, actions: [{ app: 'Slack', action: 'send' }] }, 'actions[0].app: must be snake_case, like slack'],
    ['a missing action', { ...WORKFLOW, actions: [{ app: 'slack' }] }, 'actions[0].action: is required'],
    [
      'a config that is an array',
      { ...WORKFLOW, actions: [{ app: 'a', action: 'b', config: [] }] },
      'actions[0].config: must be an object',
    ],
    ['a body that is an array', [], '(root): must be an object'],
  ])('creation with %s is 422 naming the field', async (_case, body, issue) => {
    const res = await as(mock())('POST', '/v1/workflows', body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain(issue);
  });

  test('a 422 lists every problem in issues', async () => {
    const res = await as(mock())('POST', '/v1/workflows', { platform: 'zapier', trigger: { type: 'webhook' } });
    expect(res.body.error.issues).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'actions', message: 'is required' },
    ]);
  });

  test('an empty body is 400', async () => {
    const res = await as(mock())('POST', '/v1/workflows', '');
    expect(res.status).toBe(400);
  });

  test("workflows are scoped to the key's user", async () => {
    const service = mock({ users: [{ email: 'ana@example.com', password: 'pw' }] });
    const demos = await createWorkflow(as(service));
    const ana = as(service, service.issueKey('ana@example.com'));
    expect((await ana('GET', '/v1/workflows')).body.data).toEqual([]);
    expect((await ana('GET', `/v1/workflows/${demos.body.id}`)).status).toBe(404);
    expect((await ana('PUT', `/v1/workflows/${demos.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await ana('DELETE', `/v1/workflows/${demos.body.id}`)).status).toBe(404);
  });

  test('an unknown id is a 404 naming it', async () => {
    const res = await as(mock())('GET', '/v1/workflows/wf_missing');
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ message: 'No workflow with id wf_missing', code: 'not_found' });
  });

  test('PUT replaces the fields sent, keeps the others and moves updated_at', async () => {
    const clock = manualClock();
    const api = as(mock({ now: clock.now }));
    const created = await createWorkflow(api);
    clock.advance(1000);
    const res = await api('PUT', `/v1/workflows/${created.body.id}`, { platform: 'make', actions: [], id: 'wf_hijack' });
    expect(res.body).toEqual({
      ...created.body,
      platform: 'make',
      actions: [],
      updated_at: '2030-01-01T00:00:01.000Z',
    });
    expect((await api('GET', `/v1/workflows/${created.body.id}`)).body).toEqual(res.body);
  });

  test('PUT with an invalid field is 422', async () => {
    const api = as(mock());
    const created = await createWorkflow(api);
    const res = await api('PUT', `/v1/workflows/${created.body.id}`, { trigger: { type: '' } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('trigger.type: must not be empty');
  });

  test('PUT without any field is 422', async () => {
    const api = as(mock());
    const created = await createWorkflow(api);
    expect((await api('PUT', `/v1/workflows/${created.body.id}`, {})).status).toBe(422);
  });

  test('DELETE answers 204 with no body, then the workflow is gone', async () => {
    const api = as(mock());
    const created = await createWorkflow(api);
    const res = await api('DELETE', `/v1/workflows/${created.body.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await api('GET', `/v1/workflows/${created.body.id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/workflows/${created.body.id}`)).status).toBe(404);
  });
});

describe('lists', () => {
  async function withWorkflows(count: number, options: MockServiceOptions = {}): Promise<{ api: Api; ids: string[] }> {
    const api = as(mock(options));
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await createWorkflow(api, '/v1', { ...WORKFLOW, name: `W${i}` })).body.id);
    return { api, ids };
  }

  test('default paging is page 1 of 20, newest first, in the { data, page, limit, total, has_more } envelope', async () => {
    const { api, ids } = await withWorkflows(25);
    const res = await api('GET', '/v1/workflows');
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 25, has_more: true });
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual(ids.slice().reverse().slice(0, 20));
  });

  test('the last page is short and has_more is false', async () => {
    const { api, ids } = await withWorkflows(25);
    const res = await api('GET', '/v1/workflows?page=2&limit=20');
    expect(res.body).toMatchObject({ page: 2, limit: 20, total: 25, has_more: false });
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual(ids.slice(0, 5).reverse());
  });

  test('a page past the end is empty', async () => {
    const { api } = await withWorkflows(3);
    expect((await api('GET', '/v1/workflows?page=9')).body).toMatchObject({ data: [], total: 3, has_more: false });
  });

  test('limit above 100 is lowered to 100', async () => {
    const { api } = await withWorkflows(1);
    expect((await api('GET', '/v1/workflows?limit=500')).body.limit).toBe(100);
  });

  test.each(['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=1.5'])('%s is 400', async (query) => {
    const res = await as(mock())('GET', `/v1/orders?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
  });

  test('status filters workflows', async () => {
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 1000 });
    const api = as(service);
    const old = await createWorkflow(api);
    clock.advance(1000);
    const fresh = await createWorkflow(api);
    expect((await api('GET', '/v1/workflows?status=active')).body.data.map((w: { id: string }) => w.id)).toEqual([old.body.id]);
    expect((await api('GET', '/v1/workflows?status=building')).body.data.map((w: { id: string }) => w.id)).toEqual([fresh.body.id]);
  });

  test('every list carries X-Total-Count', async () => {
    const res = await as(mock({ ordersPerUser: 7 }))('GET', '/v1/orders?limit=2');
    expect(res.headers.get('x-total-count')).toBe('7');
  });

  test("listEnvelope 'items' puts the records under items", async () => {
    const { api } = await withWorkflows(1, { listEnvelope: 'items' });
    const res = await api('GET', '/v1/workflows');
    expect(Object.keys(res.body)).toEqual(['items', 'page', 'limit', 'total', 'has_more']);
  });

  test("listEnvelope 'array' answers the bare array", async () => {
    const { api, ids } = await withWorkflows(2, { listEnvelope: 'array' });
    const res = await api('GET', '/v1/workflows');
    expect(res.body.map((w: { id: string }) => w.id)).toEqual(ids.slice().reverse());
  });

  test('a listEnvelope function shapes the body', async () => {
    const api = as(mock({ ordersPerUser: 3, listEnvelope: (p) => ({ results: p.items.length, meta: { page: p.page, total: p.total } }) }));
    expect((await api('GET', '/v1/orders')).body).toEqual({ results: 3, meta: { page: 1, total: 3 } });
  });
});

describe('orders', () => {
  test('each user has five seeded orders, newest first, one of each status', async () => {
    const res = await as(mock({ now: manualClock().now }))('GET', '/v1/orders');
    expect(res.body.total).toBe(5);
    expect(res.body.data.map((o: { status: string }) => o.status)).toEqual(['pending', 'paid', 'fulfilled', 'cancelled', 'refunded']);
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^ord_[a-z0-9]{16}$/),
      status: 'pending',
      amount: expect.any(Number),
      currency: 'USD',
      workflow_id: null,
      created_at: '2029-12-31T23:00:00.000Z',
    });
  });

  test('status filters orders', async () => {
    const res = await as(mock({ ordersPerUser: 10 }))('GET', '/v1/orders?status=paid');
    expect(res.body.total).toBe(2);
    expect(res.body.data.every((o: { status: string }) => o.status === 'paid')).toBe(true);
  });

  test('ordersPerUser sets how many are seeded', async () => {
    expect((await as(mock({ ordersPerUser: 42 }))('GET', '/v1/orders')).body.total).toBe(42);
  });

  test("another user's order is 404", async () => {
    const service = mock({ users: [{ email: 'ana@example.com', password: 'pw' }] });
    const demoOrder = (await as(service)('GET', '/v1/orders')).body.data[0];
    const res = await as(service, service.issueKey('ana@example.com'))('GET', `/v1/orders/${demoOrder.id}`);
    expect(res.status).toBe(404);
  });
});

describe('integrations', () => {
  const KEY = 'sk_live_abcdef1234';

  test('saving answers 201 with the key masked', async () => {
    const res = await as(mock({ now: manualClock().now }))('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY, label: 'Prod' });
    expect(res.body).toEqual({
      id: expect.stringMatching(/^int_[a-z0-9]{16}$/),
      platform: 'zapier',
      label: 'Prod',
      api_key: 'sk_l…1234',
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    });
  });

  test('saving the same platform again updates the record (200, same id)', async () => {
    const clock = manualClock();
    const api = as(mock({ now: clock.now }));
    const first = await api('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY, label: 'Prod' });
    clock.advance(5000);
    const second = await api('POST', '/v1/integrations', { platform: 'zapier', api_key: 'sk_live_zzzzzz9999' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, api_key: 'sk_l…9999', updated_at: '2030-01-01T00:00:05.000Z' });
    expect((await api('GET', '/v1/integrations')).body.total).toBe(1);
  });

  test('another platform creates another record', async () => {
    const api = as(mock());
    await api('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY });
    await api('POST', '/v1/integrations', { platform: 'make', api_key: KEY });
    const list = await api('GET', '/v1/integrations');
    expect(list.body.data.map((i: { platform: string }) => i.platform)).toEqual(['make', 'zapier']);
  });

  test('a label left out is null', async () => {
    const res = await as(mock())('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY });
    expect(res.body.label).toBeNull();
  });

  test('no response ever contains the full key', async () => {
    const service = mock();
    const api = as(service);
    const saved = await service.handle(
      new Request(`${ORIGIN}/v1/integrations`, {
        method: 'POST',
        headers: { 'x-api-key': service.apiKey },
        body: JSON.stringify({ platform: 'zapier', api_key: KEY }),
      }),
    );
    expect(await saved.text()).not.toContain(KEY);
    const listed = await service.handle(new Request(`${ORIGIN}/v1/integrations`, { headers: { 'x-api-key': service.apiKey } }));
    expect(await listed.text()).not.toContain(KEY);
    expect((await api('GET', '/v1/integrations')).body.data[0].api_key).toBe('sk_l…1234');
  });

  test.each([
    ['abcd', 'a…d'],
    ['abcdefgh', 'ab…gh'],
    ['abc', '…'],
  ])('a short key %s is masked as %s, never more than half shown', async (key, masked) => {
    const res = await as(mock())('POST', '/v1/integrations', { platform: 'p', api_key: key });
    expect(res.body.api_key).toBe(masked);
  });

  test.each([
    ['no platform', { api_key: KEY }, 'platform: is required'],
    ['no api_key', { platform: 'zapier' }, 'api_key: is required'],
    ['a label that is a number', { platform: 'zapier', api_key: KEY, label: 3 }, 'label: must be a string'],
  ])('saving with %s is 422', async (_case, body, issue) => {
    const res = await as(mock())('POST', '/v1/integrations', body);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain(issue);
  });

  test('DELETE answers 204 and removes it; an unknown id is 404', async () => {
    const api = as(mock());
    const saved = await api('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY });
    expect((await api('DELETE', `/v1/integrations/${saved.body.id}`)).status).toBe(204);
    expect((await api('GET', '/v1/integrations')).body.data).toEqual([]);
    expect((await api('DELETE', `/v1/integrations/${saved.body.id}`)).status).toBe(404);
  });

  test("integrations are scoped to the key's user", async () => {
    const service = mock({ users: [{ email: 'ana@example.com', password: 'pw' }] });
    const saved = await as(service)('POST', '/v1/integrations', { platform: 'zapier', api_key: KEY });
    const ana = as(service, service.issueKey('ana@example.com'));
    expect((await ana('GET', '/v1/integrations')).body.data).toEqual([]);
    expect((await ana('DELETE', `/v1/integrations/${saved.body.id}`)).status).toBe(404);
  });
});

describe('builds', () => {
  async function started(options: MockServiceOptions = {}) {
    const clock = manualClock();
    const service = mock({ now: clock.now, ...options });
    const api = as(service);
    const workflow = (await createWorkflow(api)).body;
    const build = async (): Promise<Reply> => api('GET', `/v1/builds/${workflow.build_id}`);
    return { clock, service, api, workflow, build };
  }

  test('a new build is building at progress 0 with its first log lines', async () => {
    const { build, workflow } = await started();
    expect((await build()).body).toEqual({
      id: workflow.build_id,
      workflow_id: workflow.id,
      status: 'building',
      progress: 0,
      logs: [`Build ${workflow.build_id} queued for workflow ${workflow.id}`, 'Target platform zapier, trigger webhook'],
      created_at: '2030-01-01T00:00:00.000Z',
    });
  });

  test('progress rises with time as an integer below 100 while building', async () => {
    const { clock, build } = await started({ buildDurationMs: 3000 });
    const seen: number[] = [];
    for (const step of [1000, 500, 1000, 499]) {
      clock.advance(step);
      seen.push((await build()).body.progress);
    }
    expect(seen).toEqual([33, 50, 83, 99]);
  });

  test('logs grow as the build advances', async () => {
    const { clock, build } = await started({ buildDurationMs: 1000 });
    const before = (await build()).body.logs.length;
    clock.advance(900);
    const after = (await build()).body.logs;
    expect(after.length).toBeGreaterThan(before);
    expect(after).toContain('Compiling action 1/2: slack.send_message');
    expect(after).toContain('Packaging for zapier');
  });

  test('after buildDurationMs the build is completed with progress 100 and a download_url', async () => {
    const { clock, build, workflow } = await started({ buildDurationMs: 3000 });
    clock.advance(3000);
    const res = (await build()).body;
    expect(res).toMatchObject({
      status: 'completed',
      progress: 100,
      download_url: `${ORIGIN}/downloads/${workflow.build_id}.zip`,
      finished_at: '2030-01-01T00:00:03.000Z',
    });
    expect(res.logs.at(-1)).toBe('Build completed');
  });

  test('the default build takes 3000 ms', async () => {
    const { clock, build } = await started();
    clock.advance(2999);
    expect((await build()).body.status).toBe('building');
    clock.advance(1);
    expect((await build()).body.status).toBe('completed');
  });

  test("the workflow's status follows its build: building, then active", async () => {
    const { clock, api, workflow } = await started({ buildDurationMs: 1000 });
    clock.advance(1000);
    expect((await api('GET', `/v1/workflows/${workflow.id}`)).body.status).toBe('active');
  });

  test('downloadBaseUrl sets the origin of download_url', async () => {
    const { clock, build, workflow } = await started({ buildDurationMs: 0, downloadBaseUrl: 'https://cdn.example.test/' });
    clock.advance(0);
    expect((await build()).body.download_url).toBe(`https://cdn.example.test/downloads/${workflow.build_id}.zip`);
  });

  test('failBuilds: true ends every build failed, with an error and logs', async () => {
    const { clock, build, api, workflow } = await started({ buildDurationMs: 1000, failBuilds: true });
    clock.advance(1000);
    const res = (await build()).body;
    expect(res).toMatchObject({ status: 'failed', error: expect.stringContaining('Packaging failed') });
    expect(res).not.toHaveProperty('download_url');
    expect(res.logs.at(-1)).toBe('Build failed');
    expect((await api('GET', `/v1/workflows/${workflow.id}`)).body.status).toBe('failed');
  });

  test('failBuilds as a function picks the builds that fail', async () => {
    const clock = manualClock();
    const api = as(mock({ now: clock.now, buildDurationMs: 10, failBuilds: (w) => w.name.startsWith('bad') }));
    const bad = (await createWorkflow(api, '/v1', { ...WORKFLOW, name: 'bad one' })).body;
    const good = (await createWorkflow(api, '/v1', { ...WORKFLOW, name: 'good one' })).body;
    clock.advance(10);
    expect((await api('GET', `/v1/builds/${bad.build_id}`)).body.status).toBe('failed');
    expect((await api('GET', `/v1/builds/${good.build_id}`)).body.status).toBe('completed');
  });

  test('failNextBuild() fails only the next build', async () => {
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10 });
    const api = as(service);
    service.failNextBuild();
    const first = (await createWorkflow(api)).body;
    const second = (await createWorkflow(api)).body;
    clock.advance(10);
    expect((await api('GET', `/v1/builds/${first.build_id}`)).body.status).toBe('failed');
    expect((await api('GET', `/v1/builds/${second.build_id}`)).body.status).toBe('completed');
  });

  test('deleting a workflow while it builds cancels the build', async () => {
    const { clock, api, build, workflow } = await started({ buildDurationMs: 1000 });
    clock.advance(500);
    await api('DELETE', `/v1/workflows/${workflow.id}`);
    clock.advance(1000);
    expect((await build()).body).toMatchObject({ status: 'cancelled', error: expect.stringContaining('deleted') });
  });

  test('deleting a workflow after its build completed leaves the build completed', async () => {
    const { clock, api, build, workflow } = await started({ buildDurationMs: 1000 });
    clock.advance(1000);
    await api('DELETE', `/v1/workflows/${workflow.id}`);
    expect((await build()).body.status).toBe('completed');
  });

  test("another user's build is 404", async () => {
    const { service, workflow } = await started({ users: [{ email: 'ana@example.com', password: 'pw' }] });
    const res = await as(service, service.issueKey('ana@example.com'))('GET', `/v1/builds/${workflow.build_id}`);
    expect(res.status).toBe(404);
  });

  test('the download_url serves a ZIP without an API key once completed', async () => {
    const { clock, service, build } = await started({ buildDurationMs: 1000 });
    clock.advance(1000);
    const response = await service.handle(new Request((await build()).body.download_url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect([...new Uint8Array(await response.arrayBuffer()).slice(0, 4)]).toEqual([0x50, 0x4b, 0x05, 0x06]);
  });

  test('the download is 404 while the build runs', async () => {
    const { service, workflow } = await started();
    const response = await service.handle(new Request(`${ORIGIN}/downloads/${workflow.build_id}.zip`));
    expect(response.status).toBe(404);
  });
});

describe('build.completed webhook', () => {
  test('is POSTed to webhookUrl when a build completes on the injected clock', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 1000, webhookUrl: hooks.url });
    const workflow = (await createWorkflow(as(service))).body;
    clock.advance(1000);
    await service.flush();
    expect(hooks.received).toEqual([
      {
        path: '/hooks',
        headers: expect.objectContaining({ 'content-type': 'application/json' }),
        body: {
          event: 'build.completed',
          workflow_id: workflow.id,
          data: { download_url: `${ORIGIN}/downloads/${workflow.build_id}.zip` },
        },
      },
    ]);
  });

  test("is sent on time by the service's own timer, even if nobody polls", async () => {
    fakeClockInThisTest();
    const sent: unknown[] = [];
    const service = mock({
      buildDurationMs: 50,
      webhookUrl: 'https://hooks.example.test/in',
      fetch: async (_input, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return new Response(null, { status: 202 });
      },
    });
    const workflow = (await createWorkflow(as(service))).body;
    await vi.advanceTimersByTimeAsync(49);
    expect(sent, 'before the build ends').toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([expect.objectContaining({ event: 'build.completed', workflow_id: workflow.id })]);
  });

  test('is sent once per build however often the build is read', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10, webhookUrl: hooks.url });
    const api = as(service);
    const workflow = (await createWorkflow(api)).body;
    clock.advance(10);
    for (let i = 0; i < 3; i++) await api('GET', `/v1/builds/${workflow.build_id}`);
    await service.flush();
    await service.flush();
    expect(hooks.received).toHaveLength(1);
  });

  test('goes out on any request after the build is due, not only a build read', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10, webhookUrl: hooks.url });
    await createWorkflow(as(service));
    clock.advance(10);
    await as(service)('GET', '/v1/orders');
    await hooks.waitFor(1);
    expect(hooks.received).toHaveLength(1);
  });

  test('is not sent for a failed or a cancelled build', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10, webhookUrl: hooks.url });
    const api = as(service);
    service.failNextBuild();
    await createWorkflow(api);
    const doomed = (await createWorkflow(api)).body;
    await api('DELETE', `/v1/workflows/${doomed.id}`);
    clock.advance(10);
    await service.flush();
    expect(hooks.received).toEqual([]);
  });

  test('is not sent without a webhook URL, and setWebhookUrl() sets one later', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10 });
    const api = as(service);
    await createWorkflow(api);
    clock.advance(10);
    await service.flush();
    service.setWebhookUrl(hooks.url);
    const second = (await createWorkflow(api)).body;
    clock.advance(10);
    await service.flush();
    expect(hooks.received.map((r) => (r.body as { workflow_id: string }).workflow_id)).toEqual([second.id]);
  });

  test("webhookDeliveries() records each POST with the receiver's status", async () => {
    const hooks = await receiver(500);
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10, webhookUrl: hooks.url, webhookRetryDelaysMs: [] });
    const workflow = (await createWorkflow(as(service))).body;
    clock.advance(10);
    await service.flush();
    expect(service.webhookDeliveries()).toEqual([
      {
        url: hooks.url,
        payload: { event: 'build.completed', workflow_id: workflow.id, data: { download_url: expect.any(String) } },
        id: `evt_${workflow.build_id}`,
        attempt: 1,
        status: 500,
        at: '2030-01-01T00:00:00.010Z',
      },
    ]);
  });

  test('a receiver that cannot be reached is recorded as an error that says why', async () => {
    const hooks = await receiver();
    const url = hooks.url;
    await hooks.close();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10, webhookUrl: url, webhookRetryDelaysMs: [] });
    await createWorkflow(as(service));
    clock.advance(10);
    await service.flush();
    const deliveries = service.webhookDeliveries();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.error).toMatch(/^fetch failed: .*ECONNREFUSED/);
  });

  test('the fetch option delivers webhooks', async () => {
    const sent: string[] = [];
    const clock = manualClock();
    const service = mock({
      now: clock.now,
      buildDurationMs: 10,
      webhookUrl: 'https://hooks.example.test/in',
      fetch: async (input, init) => {
        sent.push(`${String(input)} ${String(init?.body)}`);
        return new Response(null, { status: 202 });
      },
    });
    const workflow = (await createWorkflow(as(service))).body;
    clock.advance(10);
    await service.flush();
    expect(sent).toEqual([
      expect.stringContaining(`https://hooks.example.test/in {"event":"build.completed","workflow_id":"${workflow.id}"`),
    ]);
    expect(service.webhookDeliveries()[0]?.status).toBe(202);
  });

  test('close() stops deliveries that have not been made', async () => {
    fakeClockInThisTest();
    const fetch = vi.fn(async () => new Response(null, { status: 202 }));
    const service = mock({ buildDurationMs: 30, webhookUrl: 'https://hooks.example.test/in', fetch });
    await createWorkflow(as(service));
    service.close();
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('fault knobs', () => {
  test('latencyMs delays every answer', async () => {
    fakeClockInThisTest();
    const api = as(mock({ latencyMs: 60 }));
    const settled = await settle(api('GET', '/v1/orders'));
    expect(settled).toMatchObject({ ok: true, value: { status: 200 }, elapsedMs: 60 });
  });

  test("an abort during the latency rejects handle() with the signal's reason", async () => {
    const service = mock({ latencyMs: 1000 });
    const controller = new AbortController();
    const pending = service.handle(
      new Request(`${ORIGIN}/v1/orders`, { headers: { 'x-api-key': service.apiKey }, signal: controller.signal }),
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('failBuilds: a share fails about that many builds, the same ones for one seed', async () => {
    const outcomes = async (): Promise<string[]> => {
      const clock = manualClock();
      const api = as(mock({ now: clock.now, buildDurationMs: 0, failBuilds: 0.25, seed: 9 }));
      const out: string[] = [];
      for (let i = 0; i < 200; i++) {
        const { build_id } = (await createWorkflow(api)).body;
        out.push((await api('GET', `/v1/builds/${build_id}`)).body.status);
      }
      return out;
    };
    const first = await outcomes();
    const failed = first.filter((status) => status === 'failed').length;

    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(70);
    expect(await outcomes()).toEqual(first);
    expect(() => createMockService({ failBuilds: 1.5 })).toThrow(/failBuilds/);
  });

  test('errorRate: 1 answers every request with a JSON 5xx', async () => {
    const res = await as(mock({ errorRate: 1 }))('GET', '/v1/orders');
    expect([500, 502, 503]).toContain(res.status);
    expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.stringContaining('errorRate') });
  });

  test('errorRate fails about that share of requests, with a 500, 502 or 503 in about equal parts', async () => {
    const api = as(mock({ errorRate: 0.3, seed: 11 }));
    const counts = new Map<number, number>();
    for (let i = 0; i < 600; i++) {
      const { status } = await api('GET', '/v1/orders');
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([200, 500, 502, 503]);
    for (const status of [500, 502, 503]) expect(counts.get(status)).toBeGreaterThan(40);
    expect(600 - (counts.get(200) ?? 0)).toBeGreaterThan(140);
    expect(600 - (counts.get(200) ?? 0)).toBeLessThan(220);
  });

  test('errorRate with a seed fails the same requests on every run', async () => {
    const statuses = async (): Promise<number[]> => {
      const api = as(mock({ errorRate: 0.5, seed: 1234 }));
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await api('GET', '/v1/orders')).status);
      return out;
    };
    const first = await statuses();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });

  test('rateLimit refuses every Nth request with 429 and Retry-After', async () => {
    const api = as(mock({ rateLimit: { every: 3, retryAfterSeconds: 2 } }));
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await api('GET', '/v1/orders'));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 429, 200, 200, 429]);
    expect(replies[2]?.headers.get('retry-after')).toBe('2');
    expect(replies[2]?.body.error.code).toBe('rate_limited');
  });

  test("rateLimit's Retry-After defaults to 1 second", async () => {
    const res = await as(mock({ rateLimit: { every: 1 } }))('GET', '/v1/orders');
    expect(res.headers.get('retry-after')).toBe('1');
  });

  test('failNext(n, status) fails the next n requests, then answers normally', async () => {
    const service = mock();
    const api = as(service);
    service.failNext(2, 503);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await api('GET', '/v1/orders')).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  test('failNext defaults to 500', async () => {
    const service = mock();
    service.failNext(1);
    expect((await as(service)('GET', '/v1/orders')).status).toBe(500);
  });

  test('failNext with 429 sends Retry-After: 1 unless told otherwise', async () => {
    const service = mock();
    const api = as(service);
    service.failNext(1, 429);
    service.failNext(1, 429, { retryAfterSeconds: 7, message: 'Slow down' });
    expect((await api('GET', '/v1/orders')).headers.get('retry-after')).toBe('1');
    const second = await api('GET', '/v1/orders');
    expect(second.headers.get('retry-after')).toBe('7');
    expect(second.body.error.message).toBe('Slow down');
  });

  test("failNext(n, 'network') makes handle() reject with MockNetworkError", async () => {
    const service = mock();
    service.failNext(1, 'network');
    await expect(as(service)('GET', '/v1/orders')).rejects.toBeInstanceOf(MockNetworkError);
    expect((await as(service)('GET', '/v1/orders')).status).toBe(200);
  });

  test('failNext rejects a status that is not an error status', () => {
    expect(() => mock().failNext(1, 200)).toThrow(RangeError);
  });

  test('out-of-range options are refused when the mock is created', () => {
    expect(() => createMockService({ errorRate: 2 })).toThrow(/errorRate/);
    expect(() => createMockService({ rateLimit: { every: 0 } })).toThrow(/rateLimit.every/);
    expect(() => createMockService({ buildDurationMs: -1 })).toThrow(/buildDurationMs/);
  });
});

describe('every response', () => {
  test('has a distinct x-request-id, errors included', async () => {
    const service = mock();
    const ok = await as(service)('GET', '/v1/orders');
    const unauthorised = await as(service, null)('GET', '/v1/orders');
    service.failNext(1, 500);
    const failed = await as(service)('GET', '/v1/orders');
    const ids = [ok, unauthorised, failed].map((r) => r.headers.get('x-request-id'));
    expect(ids.every((id) => /^req_[a-z0-9]{20}$/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  test('with a body is application/json', async () => {
    const service = mock();
    const api = as(service);
    const replies = [await api('GET', '/v1/orders'), await api('GET', '/nope'), await api('POST', '/v1/workflows', {})];
    expect(replies.map((r) => r.headers.get('content-type'))).toEqual(['application/json', 'application/json', 'application/json']);
  });

  test('exposes its headers to browsers', async () => {
    const res = await as(mock())('GET', '/v1/orders');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});

describe('isolation and reset', () => {
  test('two instances share no records', async () => {
    const a = mock();
    const b = mock();
    await createWorkflow(as(a));
    expect((await as(b)('GET', '/v1/workflows')).body.total).toBe(0);
  });

  test('two instances share no keys', async () => {
    const a = mock();
    const b = mock();
    expect((await as(b, a.apiKey)('GET', '/v1/orders')).status).toBe(401);
  });

  test('faults queued on one instance do not touch another', async () => {
    const a = mock();
    const b = mock();
    a.failNext(1, 503);
    expect((await as(b)('GET', '/v1/orders')).status).toBe(200);
  });

  test('the same seed gives the same ids and keys', async () => {
    const first = mock({ seed: 99, now: manualClock().now });
    const second = mock({ seed: 99, now: manualClock().now });
    expect(first.apiKey).toBe(second.apiKey);
    expect((await createWorkflow(as(first))).body).toEqual((await createWorkflow(as(second))).body);
  });

  test('reset() removes workflows and integrations and restores seeded orders', async () => {
    const service = mock();
    const api = as(service);
    const orders = (await api('GET', '/v1/orders')).body.data;
    await createWorkflow(api);
    await api('POST', '/v1/integrations', { platform: 'zapier', api_key: 'sk_live_abcdef1234' });
    service.reset();
    expect((await api('GET', '/v1/workflows')).body.total).toBe(0);
    expect((await api('GET', '/v1/integrations')).body.total).toBe(0);
    expect((await api('GET', '/v1/orders')).body.data).toEqual(orders);
  });

  test('reset() keeps service.apiKey valid and revokes keys issued since', async () => {
    const service = mock();
    const issued = service.issueKey();
    service.reset();
    expect((await as(service)('GET', '/v1/orders')).status).toBe(200);
    expect((await as(service, issued)('GET', '/v1/orders')).status).toBe(401);
  });

  test('reset() drops queued faults and failing builds', async () => {
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10 });
    service.failNext(3, 500);
    service.failNextBuild();
    service.reset();
    const api = as(service);
    const workflow = (await createWorkflow(api)).body;
    clock.advance(10);
    expect((await api('GET', `/v1/builds/${workflow.build_id}`)).body.status).toBe('completed');
  });

  test('reset() restores the webhook URL and forgets deliveries', async () => {
    const hooks = await receiver();
    const clock = manualClock();
    const service = mock({ now: clock.now, buildDurationMs: 10 });
    service.setWebhookUrl(hooks.url);
    await createWorkflow(as(service));
    clock.advance(10);
    await service.flush();
    service.reset();
    expect(service.webhookDeliveries()).toEqual([]);
    await createWorkflow(as(service));
    clock.advance(10);
    await service.flush();
    expect(hooks.received).toHaveLength(1);
  });

  test('reset() cancels the webhook of a build still running', async () => {
    fakeClockInThisTest();
    const fetch = vi.fn(async () => new Response(null, { status: 202 }));
    const service = mock({ buildDurationMs: 30, webhookUrl: 'https://hooks.example.test/in', fetch });
    await createWorkflow(as(service));
    service.reset();
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('the service code', () => {
  // The service and everything it imports also run in browsers through msw.
  const NODE_ONLY = new Set(['server.ts', 'server-body.ts', 'server-refusals.ts']);
  const dir = new URL('../../src/testing/', import.meta.url);
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !NODE_ONLY.has(name) && name !== 'index.ts');

  test.each(files)('%s uses no Node-only globals or modules', (name) => {
    const code = readFileSync(new URL(name, dir), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bBuffer\b|\bprocess\.|from 'node:/);
  });
});
