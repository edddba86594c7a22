/** `withResponse()` and `asResponse()` types: the data keeps its type, and an ApiPromise is still a Promise. */
import { describe, expectTypeOf, it } from 'vitest';
import type { ApiPromise, Client, Order, Page, ResponseDetails, WithResponse, Workflow } from '../../src/index.js';

declare const client: Client;

describe('response details', () => {
  it('withResponse keeps the data type and adds the details', async () => {
    const { data, response } = await client.workflows.get('wf_1').withResponse();
    expectTypeOf(data).toEqualTypeOf<Workflow>();
    expectTypeOf(response).toEqualTypeOf<ResponseDetails>();
    expectTypeOf(response.attempts).toEqualTypeOf<number>();
    expectTypeOf(response.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(client.orders.list().withResponse()).resolves.toEqualTypeOf<WithResponse<Page<Order>>>();
    expectTypeOf((await client.orders.list()).response).toEqualTypeOf<ResponseDetails>();
  });

  it('asResponse resolves to a Response; an ApiPromise is assignable to a Promise', () => {
    expectTypeOf(client.orders.get('ord_1').asResponse()).toEqualTypeOf<Promise<Response>>();
    expectTypeOf(client.orders.list().asResponse()).toEqualTypeOf<Promise<Response>>();
    expectTypeOf<ApiPromise<Order>>().toExtend<Promise<Order>>();
    const plain: Promise<Workflow> = client.workflows.get('wf_1');
    void plain;
    // @ts-expect-error the details are readonly
    void ((r: ResponseDetails) => (r.status = 1));
  });
});
