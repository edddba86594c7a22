import { expect, test } from 'vitest';
import { Client, NotFoundError } from 'workflow-automation-sdk';
import { createMockService } from 'workflow-automation-sdk/testing';

test('orders.get reads an order, and an unknown id is a NotFoundError', async () => {
  const service = createMockService({ ordersPerUser: 1 });
  const client = new Client({
    baseUrl: 'http://mock.test',
    apiKey: service.apiKey,
    fetch: (input, init) => service.handle(new Request(input, init)),
  });
  const [order] = (await client.orders.list()).items;
  await expect(client.orders.get(order!.id)).resolves.toEqual(order);
  await expect(client.orders.get('ord_missing')).rejects.toBeInstanceOf(NotFoundError);
  service.close();
});
