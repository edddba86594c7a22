/**
 * The `Client` itself: raw calls with `client.request` (through the same core as the resources: key, prefix,
 * errors), and a client that never reveals its API key when serialised or inspected.
 */
import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BadRequestError, Client, NotFoundError, WfaError, type ApiPrefix } from '../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from './helpers/service.js';

const service = useService();

function makeClient(apiPrefix: ApiPrefix | 'auto' = '/api/v1') {
  return new Client({ apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix, maxRetries: 0 });
}

describe.each(PREFIXES)('client.request with apiPrefix %s', (prefix) => {
  it.each(['/api/v1/workflows', '/v1/workflows', '/workflows', 'workflows'])(
    'sends the path %j under the confirmed prefix',
    async (path) => {
      service.reply('GET', `${prefix}/workflows`, 200, []);

      await makeClient(prefix).request({ method: 'GET', path });

      expect(service.single().path).toBe(`${prefix}/workflows`);
    },
  );

  it('sends the method, the JSON body and the X-API-Key header', async () => {
    service.reply('PATCH', `${prefix}/workflows/wf_1`, 200, { id: 'wf_1' });

    await makeClient(prefix).request({ method: 'PATCH', path: '/workflows/wf_1', body: { name: 'Renamed', tags: ['a'] } });

    const sent = service.single();
    expect(sent.method).toBe('PATCH');
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.headers['content-type']).toMatch(/^application\/json/);
    expect(sent.body).toEqual({ name: 'Renamed', tags: ['a'] });
  });

  it('resolves to the body as received, without validation', async () => {
    service.reply('GET', `${prefix}/workflows/stats`, 200, { count: 3, by_status: { building: 1 } });

    const body = await makeClient(prefix).request<{ count: number }>({ method: 'GET', path: '/workflows/stats' });

    expect(body).toEqual({ count: 3, by_status: { building: 1 } });
  });

  it('resolves to undefined for an empty 204', async () => {
    service.reply('DELETE', `${prefix}/workflows/wf_1`, 204);

    await expect(makeClient(prefix).request({ method: 'DELETE', path: '/workflows/wf_1' })).resolves.toBeUndefined();
  });
});

describe('client.request query', () => {
  it('repeats the name for each value of an array', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);

    await makeClient().request({ method: 'GET', path: '/workflows', query: { status: ['building', 'active'], page: 1 } });

    const sent = service.single();
    expect(sent.query.getAll('status')).toEqual(['building', 'active']);
    expect(sent.search).toBe('?status=building&status=active&page=1');
  });

  it('leaves out undefined and null values and writes numbers and booleans as text', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);

    await makeClient().request({ method: 'GET', path: '/workflows', query: { a: undefined, b: null, limit: 5, archived: false } });

    expect(service.single().search).toBe('?limit=5&archived=false');
  });

  it('encodes values that contain reserved characters', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);

    await makeClient().request({ method: 'GET', path: '/workflows', query: { name: 'a&b=c d#e' } });

    expect(service.single().query.get('name')).toBe('a&b=c d#e');
  });

  it('adds the query to a query string already in the path', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);

    await makeClient().request({ method: 'GET', path: '/workflows?page=2', query: { limit: 10 } });

    expect(Object.fromEntries(service.single().query)).toEqual({ page: '2', limit: '10' });
  });
});

describe('client.request through the core', () => {
  it('sends a raw path under the prefix that auto-detection confirmed', async () => {
    service.reply('GET', '/v1/workflows', 200, []);
    service.reply('GET', '/v1/orders', 200, []);
    const client = makeClient('auto');

    await client.workflows.list();
    await client.request({ method: 'GET', path: '/api/v1/orders' });

    expect(service.requests.map((r) => r.path)).toEqual(['/api/v1/workflows', '/v1/workflows', '/v1/orders']);
  });

  it('rejects with the error class of the status (404 NotFoundError)', async () => {
    const error = await rejectionOf(makeClient().request({ method: 'GET', path: '/no/such/thing' }), NotFoundError);

    expect(error.status).toBe(404);
    expect(service.requests).toHaveLength(1);
  });

  it('rejects with the error class of the status (400 BadRequestError) carrying the body', async () => {
    service.reply('POST', '/api/v1/workflows', 400, { message: 'name is required' });

    const error = await rejectionOf(makeClient().request({ method: 'POST', path: '/workflows', body: {} }), BadRequestError);

    expect(error.body).toEqual({ message: 'name is required' });
  });

  it('sends the per-call headers with the default ones', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);

    await makeClient().request({ method: 'GET', path: '/workflows', headers: { 'x-trace-id': 'trace-1' } });

    expect(service.single().headers).toMatchObject({ 'x-trace-id': 'trace-1', 'x-api-key': API_KEY });
  });

  it('fails before sending anything when there is no API key', async () => {
    const client = new Client({ baseUrl: BASE_URL, apiKey: '', apiPrefix: '/v1', maxRetries: 0 });

    await rejectionOf(client.request({ method: 'GET', path: '/workflows' }), WfaError);
    expect(service.requests).toHaveLength(0);
  });
});

describe('a client never shows its API key', () => {
  const views: [string, (client: Client) => string][] = [
    ['toJSON()', (client) => JSON.stringify(client.toJSON())],
    ['JSON.stringify', (client) => JSON.stringify(client)],
    ['util.inspect', (client) => inspect(client, { depth: Infinity, showHidden: true })],
    ['util.inspect without custom inspection', (client) => inspect(client, { depth: Infinity, showHidden: true, customInspect: false })],
    ['console.log formatting (%o)', (client) => format('%o', client)],
    ['String()', (client) => String(client)],
    ['a namespace (client.workflows) inspected', (client) => inspect(client.workflows, { depth: Infinity, showHidden: true })],
  ];

  it.each(views)('in %s', (_, view) => {
    expect(view(makeClient())).not.toContain(API_KEY);
  });

  it('in util.inspect when the key comes from a function', () => {
    const client = new Client({ apiKey: () => API_KEY, baseUrl: BASE_URL });

    expect(inspect(client, { depth: Infinity, showHidden: true })).not.toContain(API_KEY);
  });

  it('still says which service it talks to in toJSON()', () => {
    expect(makeClient('/v1').toJSON()).toMatchObject({ baseUrl: BASE_URL, apiPrefix: '/v1' });
  });
});
