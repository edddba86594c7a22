/**
 * `client.orders`: read only (list and get), under both path prefixes. The spec shows only an order's id and a
 * status filter, so every other field is kept as received.
 */
import { describe, expect, it } from 'vitest';
import { Client, NotFoundError, ResponseValidationError, ValidationError, type ApiPrefix } from '../../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from '../helpers/service.js';

const service = useService();

function makeClient(apiPrefix: ApiPrefix = '/api/v1', options: { validateResponses?: boolean } = {}) {
  return new Client({ apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix, maxRetries: 0, ...options });
}

/** An order with the fields a real deployment might add: all must be kept. */
const order = { id: 'ord_1', status: 'paid', amount: { value: 1999, currency: 'EUR' }, workflow_id: 'wf_123', lines: [{ sku: 'A' }] };

describe.each(PREFIXES)('client.orders with apiPrefix %s', (prefix) => {
  describe('list', () => {
    it('sends GET <prefix>/orders with page, limit and status in the query and the X-API-Key header', async () => {
      service.reply('GET', `${prefix}/orders`, 200, { orders: [order], has_more: false });

      await makeClient(prefix).orders.list({ page: 3, limit: 25, status: 'paid' });

      const sent = service.single();
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe(`${prefix}/orders`);
      expect(Object.fromEntries(sent.query)).toEqual({ page: '3', limit: '25', status: 'paid' });
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('leaves out parameters that are undefined', async () => {
      service.reply('GET', `${prefix}/orders`, 200, []);

      await makeClient(prefix).orders.list({ page: undefined, limit: 5, status: undefined });

      expect(service.single().search).toBe('?limit=5');
    });

    it('resolves to a page of orders with their unknown fields kept', async () => {
      service.reply('GET', `${prefix}/orders`, 200, { orders: [order, { id: 42 }], has_more: false });

      const page = await makeClient(prefix).orders.list();

      expect(page.items).toEqual([order, { id: 42 }]);
    });
  });

  describe('get', () => {
    it('sends GET <prefix>/orders/{id} with the X-API-Key header and no body', async () => {
      service.reply('GET', `${prefix}/orders/ord_1`, 200, order);

      await makeClient(prefix).orders.get('ord_1');

      const sent = service.single();
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe(`${prefix}/orders/ord_1`);
      expect(sent.search).toBe('');
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('accepts a numeric id', async () => {
      service.reply('GET', `${prefix}/orders/42`, 200, { id: 42 });

      await makeClient(prefix).orders.get(42);

      expect(service.single().path).toBe(`${prefix}/orders/42`);
    });

    it('resolves to the order with every field kept', async () => {
      service.reply('GET', `${prefix}/orders/ord_1`, 200, order);

      await expect(makeClient(prefix).orders.get('ord_1')).resolves.toEqual(order);
    });

    it('rejects with NotFoundError for a missing order', async () => {
      await rejectionOf(makeClient(prefix).orders.get('ord_missing'), NotFoundError);

      expect(service.requests).toHaveLength(1);
    });
  });
});

describe('client.orders input validation (rejects with ValidationError, sends nothing)', () => {
  it.each([
    ['page 0', { page: 0 }, 'page'],
    ['limit 1.5', { limit: 1.5 }, 'limit'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['an empty status', { status: '' }, 'status'],
    ['a status that is not a string', { status: 3 }, 'status'],
  ])('list refuses %s and names the field', async (_, params, field) => {
    const error = await rejectionOf(makeClient().orders.list(params as never), ValidationError);

    expect(error.field).toBe(field);
    expect(error.issues[0]?.path).toEqual([field]);
    expect(service.requests).toHaveLength(0);
  });

  it('list refuses an unknown parameter and names it', async () => {
    const error = await rejectionOf(makeClient().orders.list({ workflow_id: 'wf_1' } as never), ValidationError);

    expect(error.message).toContain('workflow_id');
    expect(error.field).toBe('workflow_id');
    expect(service.requests).toHaveLength(0);
  });

  it.each(['.', '..', '', '   '])('get refuses the id %j', async (id) => {
    const error = await rejectionOf(makeClient().orders.get(id), ValidationError);

    expect(error.field).toBe('id');
    expect(service.requests).toHaveLength(0);
  });

  it.each([1.5, Number.NaN])('get refuses the non-integer numeric id %s', async (id) => {
    await rejectionOf(makeClient().orders.get(id), ValidationError);

    expect(service.requests).toHaveLength(0);
  });
});

describe('client.orders ids', () => {
  it.each([
    ['a b', 'a%20b'],
    ['a;b=c', 'a%3Bb%3Dc'],
    ['%2F', '%252F'],
    ['ord 1', 'ord%201'],
  ])('get URL-encodes the id %j into one path segment (%s)', async (id, segment) => {
    service.reply('GET', '/api/v1/orders/*', 200, order);

    await makeClient().orders.get(id);

    const sent = service.single();
    expect(sent.path).toBe(`/api/v1/orders/${segment}`);
    expect(sent.search).toBe('');
  });
});

describe('client.orders response validation', () => {
  it('rejects an order without an id with ResponseValidationError carrying the raw body and the issue path', async () => {
    service.reply('GET', '/api/v1/orders/ord_1', 200, { status: 'paid' });

    const error = await rejectionOf(makeClient().orders.get('ord_1'), ResponseValidationError);

    expect(error.body).toEqual({ status: 'paid' });
    expect(error.issues.map((issue) => issue.path)).toEqual([['id']]);
  });

  it('rejects a list item without an id, pointing at the item inside the envelope', async () => {
    service.reply('GET', '/api/v1/orders', 200, { orders: [order, { status: 'open' }] });

    const error = await rejectionOf(makeClient().orders.list(), ResponseValidationError);

    expect(error.issues.map((issue) => issue.path)).toEqual([['orders', 1, 'id']]);
  });

  it('returns the body as received with validateResponses: false', async () => {
    service.reply('GET', '/api/v1/orders/ord_1', 200, { status: 'paid' });

    await expect(makeClient('/api/v1', { validateResponses: false }).orders.get('ord_1')).resolves.toEqual({ status: 'paid' });
  });
});
