/**
 * The Node adapter's request and response types are written out (the published types must not need
 * `@types/node`), so these check that node:http's and Express's objects still fit them without a cast.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createWebhookHandler,
  createWebhookRequest,
  toNodeHandler,
  type NodeWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from '../../src/webhooks/index.js';

const listener = toNodeHandler(createWebhookHandler({ on: {} }));

// The shape of Express 4/5's route types, without the package: a Request and Response that extend node's.
interface ExpressRequest extends IncomingMessage {
  // `any`, as Express declares it.
  body: any;
  originalUrl: string;
  params: Record<string, string>;
}
interface ExpressResponse extends ServerResponse {
  status(code: number): this;
}
type ExpressHandler = (req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void) => void;

describe('toNodeHandler', () => {
  it('is a node:http request listener', () => {
    expectTypeOf(listener).toEqualTypeOf<NodeWebhookHandler>();
    expectTypeOf(listener).toExtend<RequestListener>();
    createServer(listener);
  });

  it('is an Express route handler', () => {
    expectTypeOf(listener).toExtend<ExpressHandler>();
  });

  it("accepts node:http's and Express's request and response objects as they are", () => {
    expectTypeOf<IncomingMessage>().toExtend<NodeWebhookRequest>();
    expectTypeOf<ServerResponse>().toExtend<NodeWebhookResponse>();
    expectTypeOf<ExpressRequest>().toExtend<NodeWebhookRequest>();
    expectTypeOf<ExpressResponse>().toExtend<NodeWebhookResponse>();
  });

  it('rejects what is not a request', () => {
    // @ts-expect-error a plain object is not a request
    listener({ url: '/' }, {} as ServerResponse);
  });
});

describe('createWebhookRequest', () => {
  it('takes headers in any form the Headers constructor takes', () => {
    createWebhookRequest({}, { headers: { 'x-a': '1' } });
    createWebhookRequest({}, { headers: [['x-a', '1']] });
    createWebhookRequest({}, { headers: new Headers({ 'x-a': '1' }) });
    // @ts-expect-error not a header value
    createWebhookRequest({}, { headers: { 'x-a': 1 } });
  });
});
