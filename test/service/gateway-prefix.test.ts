/**
 * A gateway's own prefix, or none: `apiPrefix: '/wfa/v1'` and `apiPrefix: ''` against the mock service serving
 * exactly that, with keys issued at `<prefix>/auth` or `authPath`. Nothing is detected or retried.
 */
import { describe, expect, it } from 'vitest';
import { Client, NotFoundError, type ClientOptions } from '../../src/index.js';
import { createMockService, DEFAULT_MOCK_USER, type MockServiceOptions } from '../../src/testing/index.js';

function setup(mock: MockServiceOptions, options: Omit<ClientOptions, 'fetch'>) {
  const service = createMockService(mock);
  const sent: string[] = [];
  const fetch = (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return service.handle(request);
  };
  return { service, sent, options: { ...options, fetch, maxRetries: 0 } };
}

const workflow = {
  name: 'Gateway',
  platform: 'make' as const,
  trigger: { type: 'webhook' as const },
  actions: [{ app: 'gmail', action: 'send_email' }],
};

describe.each([
  { apiPrefix: '/wfa/v1', baseUrl: 'https://gw.test', path: '/wfa/v1' },
  { apiPrefix: '/wfa/v1/', baseUrl: 'https://gw.test', path: '/wfa/v1' },
  { apiPrefix: '', baseUrl: 'https://gw.test/wfa', path: '/wfa' },
  { apiPrefix: '/', baseUrl: 'https://gw.test/wfa/', path: '/wfa' },
  { apiPrefix: '', baseUrl: 'https://gw.test/wfa/v1', path: '/wfa/v1' },
])('apiPrefix $apiPrefix with baseUrl $baseUrl', ({ apiPrefix, baseUrl, path }) => {
  const mock = { prefixes: [path], authPath: `${path}/auth` };

  it('logs in at <prefix>/auth and sends every call under the prefix, never elsewhere', async () => {
    const { sent, options } = setup(mock, { baseUrl, apiPrefix });
    const client = await Client.login({ ...options, ...DEFAULT_MOCK_USER });
    const created = await client.workflows.create(workflow);
    await expect(client.workflows.get(created.id)).resolves.toMatchObject({ name: 'Gateway' });
    await expect(client.workflows.list()).resolves.toHaveProperty('items');
    await expect(client.workflows.get('wf_missing')).rejects.toBeInstanceOf(NotFoundError);
    expect(sent).toEqual([
      `POST ${path}/auth`,
      `POST ${path}/workflows`,
      `GET ${path}/workflows/${created.id}`,
      `GET ${path}/workflows`,
      `GET ${path}/workflows/wf_missing`,
    ]);
    expect(client.toJSON()).toMatchObject({ apiPrefix: apiPrefix.replace(/\/+$/, ''), prefixConfirmed: true });
  });
});

describe('authPath', () => {
  it('sends key issuing where it says, whatever the prefix', async () => {
    const { sent, options } = setup({ prefixes: ['/wfa'], authPath: '/login/keys' }, { baseUrl: 'https://gw.test', apiPrefix: '/wfa' });
    const client = await Client.login({ ...options, authPath: '/login/keys', ...DEFAULT_MOCK_USER });
    await client.orders.list();
    expect(sent).toEqual(['POST /login/keys', 'GET /wfa/orders']);
  });

  it('keeps /v1/auth for the known prefixes and auto-detection', async () => {
    for (const apiPrefix of ['auto', '/api/v1', '/v1'] as const) {
      const { sent, options } = setup({}, { baseUrl: 'https://svc.test', apiPrefix });
      await Client.login({ ...options, ...DEFAULT_MOCK_USER });
      expect(sent).toEqual(['POST /v1/auth']);
    }
  });

  it('a custom prefix is not detected: a 404 under it is not retried under another', async () => {
    const { sent, options } = setup({ prefixes: ['/v1'] }, { baseUrl: 'https://gw.test', apiPrefix: '/wfa' });
    const service = createMockService();
    const client = new Client({ ...options, apiKey: service.apiKey });
    await expect(client.workflows.get('wf_1')).rejects.toBeInstanceOf(NotFoundError);
    expect(sent).toEqual(['GET /wfa/workflows/wf_1']);
  });
});
