import { Client } from 'workflow-automation-sdk';
import { startMockServer } from 'workflow-automation-sdk/testing';

// The whole service, in memory, on 127.0.0.1: no account, no key to set up.
const mock = await startMockServer({ buildDurationMs: 1_000 });
const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });

try {
  const page = await client.orders.list({ limit: 3 });
  console.log(page.items.map((order) => `${order.id}: ${order.status}`));
} finally {
  await mock.close();
}
