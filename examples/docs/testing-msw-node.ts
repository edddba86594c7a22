import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { Client } from 'workflow-automation-sdk';
import { createMockHandlers, MOCK_BASE_URL } from 'workflow-automation-sdk/testing/msw';

const handlers = createMockHandlers({ baseUrl: MOCK_BASE_URL, ordersPerUser: 12 }); // https://api.example.test
const server = setupServer(...handlers);
const client = new Client({ baseUrl: MOCK_BASE_URL, apiKey: handlers.service.apiKey });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => handlers.service.reset());
afterAll(() => server.close());

test('lists every seeded order across pages', async () => {
  const ids: (string | number)[] = [];
  for await (const order of client.orders.list({ limit: 5 })) ids.push(order.id);
  expect(ids).toHaveLength(12);
});
