import { describe, expect, test } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/resources/endpoints.js';
import { createMockService } from '../../src/testing/index.js';

// Every endpoint of the SDK's table, its id filled in: the mock's routes come from the same table.
const TABLE = Object.entries(ENDPOINTS as Record<string, Endpoint>).map(
  ([name, endpoint]) =>
    [name, endpoint.method, endpoint.auth === false ? endpoint.path : `/v1${endpoint.path.replace('{id}', 'x_1')}`] as const,
);

describe("the mock's routes", () => {
  test.each(TABLE)('%s (%s %s) has a route: its answer is not "no such endpoint"', async (_name, method, path) => {
    const service = createMockService();
    const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    const res = await service.handle(new Request(`http://mock.test${path}`, { method, headers, body }));
    const answer = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    service.close();

    expect(res.status).not.toBe(405);
    expect(answer?.error?.message ?? '').not.toMatch(/^No endpoint/);
  });
});
