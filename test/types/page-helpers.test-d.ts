/** The paging helpers' types: what each yields, and that `toArray` cannot be called without a limit. */
import { describe, expectTypeOf, it } from 'vitest';
import type { Client, Order, Page, Workflow } from '../../src/index.js';

declare const client: Client;

describe('paging helpers', () => {
  it('toArray resolves to an array of items and requires a limit', async () => {
    expectTypeOf(await client.orders.list().toArray({ limit: 10 })).toEqualTypeOf<Order[]>();
    // @ts-expect-error a limit is required
    void client.orders.list().toArray();
    // @ts-expect-error a limit is required
    void client.orders.list().toArray({});
  });

  it('take yields items and pages() yields pages', async () => {
    for await (const wf of client.workflows.list().take(5)) expectTypeOf(wf).toEqualTypeOf<Workflow>();
    for await (const page of client.orders.list().pages()) expectTypeOf(page).toEqualTypeOf<Page<Order>>();
    // @ts-expect-error n is a number
    void client.orders.list().take('5');
  });
});
