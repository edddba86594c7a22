/**
 * The `/funcs` entry: `createCore` takes the client's options with the same checks, and each endpoint function
 * sends what the method of the same name sends and gives what it gives, errors included; the methods are these.
 */
import { describe, expect, it } from 'vitest';
import * as funcs from '../src/funcs.js';
import { ENDPOINTS } from '../src/resources/endpoints.js';
import { Client, NotFoundError, ValidationError, type Workflow } from '../src/index.js';
import { ApiPromise } from '../src/resources/api-promise.js';
import { PagePromise } from '../src/resources/page-promise.js';
import { API_KEY, BASE_URL, rejectionOf, useService } from './helpers/service.js';

const service = useService();
const options = { apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix: '/api/v1', maxRetries: 0 } as const;
const workflow: Workflow = { id: 'wf_1', name: 'A', platform: 'zapier', status: 'active', created_at: '2026-01-01T00:00:00Z' };

describe('createCore', () => {
  it('refuses what new Client refuses, with the same error', () => {
    const bad = { ...options, maxRetries: 'x' as never };

    const error = thrownBy(() => funcs.createCore(bad));

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('maxRetries');
    expect(error).toEqual(thrownBy(() => new Client(bad)));
  });
});

describe('the endpoint functions', () => {
  it('are one per endpoint of the table, named <namespace><Method>', () => {
    const names = Object.keys(ENDPOINTS).map((name) => name.replace(/\.(\w)/, (_, c: string) => c.toUpperCase()));
    expect(Object.keys(funcs).sort()).toEqual([...names, 'createCore', 'waitForBuild'].sort());
  });

  it('send what the method sends and give what it gives', async () => {
    service.reply('GET', '/api/v1/workflows/wf_1', 200, workflow);
    service.reply('GET', '/api/v1/workflows/wf_1', 200, workflow);

    const core = funcs.createCore(options);
    const fromFunction = funcs.workflowsGet(core, 'wf_1');
    expect(fromFunction).toBeInstanceOf(ApiPromise);
    await expect(fromFunction).resolves.toEqual(workflow);
    await expect(new Client(options).workflows.get('wf_1')).resolves.toEqual(workflow);
    expect(service.requests.map((r) => [r.method, r.path, r.headers['x-api-key']])).toEqual([
      ['GET', '/api/v1/workflows/wf_1', API_KEY],
      ['GET', '/api/v1/workflows/wf_1', API_KEY],
    ]);
  });

  it('list as a PagePromise: one page awaited, every item with for await', async () => {
    service.reply('GET', '/api/v1/workflows', 200, { data: [workflow], page: 1, limit: 1, total: 1 });

    const page = funcs.workflowsList(funcs.createCore(options), { limit: 1 });

    expect(page).toBeInstanceOf(PagePromise);
    expect((await page).items).toEqual([workflow]);
  });

  it('throw the same errors: a bad input before sending, the service refusal as its class', async () => {
    service.reply('GET', '/api/v1/orders/ord_9', 404, { error: 'No order' });
    const core = funcs.createCore(options);

    await rejectionOf(funcs.workflowsCreate(core, { name: '' } as never), ValidationError);
    await rejectionOf(funcs.ordersGet(core, 'ord_9'), NotFoundError);

    expect(service.requests.map((r) => r.path)).toEqual(['/api/v1/orders/ord_9']);
  });
});

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}
