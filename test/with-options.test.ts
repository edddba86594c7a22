/**
 * `client.withOptions`: a client with the options merged over its parent's, sharing the parent's connection pool,
 * confirmed prefix and rate gate unless its options replace them, and leaving the parent as it was.
 */
import { describe, expect, it } from 'vitest';
import { Client, ValidationError } from '../src/index.js';
import { coreOf } from '../src/resources/resource.js';
import { API_KEY, BASE_URL, useService } from './helpers/service.js';

const service = useService();
const parentOptions = { apiKey: API_KEY, baseUrl: BASE_URL, maxRetries: 0, headers: { 'x-team': 'a' } };

describe('client.withOptions', () => {
  it('sends with the options merged over the parent’s, and leaves the parent unchanged', async () => {
    service.reply('GET', '/api/v1/workflows', 200, []);
    service.reply('GET', '/api/v1/workflows', 200, []);
    const parent = new Client({ ...parentOptions, apiPrefix: '/api/v1' });

    const child = parent.withOptions({ headers: { 'x-team': 'b' } });
    await child.workflows.list();
    await parent.workflows.list();

    expect(service.requests.map((r) => [r.headers['x-team'], r.headers['x-api-key']])).toEqual([
      ['b', API_KEY],
      ['a', API_KEY],
    ]);
  });

  it('refuses an invalid option as new Client does, naming it', () => {
    const parent = new Client(parentOptions);

    expect(() => parent.withOptions({ timeoutMs: -1 })).toThrow(ValidationError);
    expect(() => parent.withOptions({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it('goes straight to the prefix its parent confirmed, without probing again', async () => {
    service.reply('GET', '/v1/workflows', 200, []);
    service.reply('GET', '/v1/orders', 200, []);
    const parent = new Client(parentOptions);
    await parent.workflows.list();

    await parent.withOptions({ timeoutMs: 5_000 }).orders.list();

    expect(service.requests.map((r) => r.path)).toEqual(['/api/v1/workflows', '/v1/workflows', '/v1/orders']);
  });

  it('shares the parent’s transport (its connection pool) and rate gate, unless its options replace them', () => {
    const parent = new Client(parentOptions);
    const of = (client: Client) => coreOf(client.workflows);

    const child = parent.withOptions({ timeoutMs: 5_000 });
    const ownFetch = parent.withOptions({ fetch: globalThis.fetch });
    const ownGate = parent.withOptions({ rateLimit: { maxConcurrent: 2 } });

    expect(of(child).settings.transport).toBe(of(parent).settings.transport);
    expect(of(child).gate).toBeDefined();
    expect(of(child).gate).toBe(of(parent).gate);
    expect(of(child).routes).toBe(of(parent).routes);
    expect(of(ownFetch).settings.transport).not.toBe(of(parent).settings.transport);
    expect(of(ownGate).gate).not.toBe(of(parent).gate);
  });
});
