/**
 * The webhook handler behind real servers on 127.0.0.1: node:http with a body parser in front, Fastify with its
 * default JSON parser, and the guide's recipes (examples/docs/webhooks-*.ts) for Express, Fastify and Hono.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  signWebhook,
  standardWebhooks,
  toNodeHandler,
  WfaError,
} from '../../src/webhooks/index.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(listener: RequestListener | Server): Promise<string> {
  const server = typeof listener === 'function' ? createServer(listener) : listener;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function listenFastify(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function deliver(url: string, body: string = createWebhookBody()): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
}

function receiver() {
  const errors: unknown[] = [];
  const on = vi.fn();
  const handler = createWebhookHandler({ on: { 'build.completed': on }, onError: (error) => void errors.push(error) });
  return { handler, node: toNodeHandler(handler), errors, on };
}

/** Reads a request to the end and keeps nothing, as a parser that stores the result elsewhere does. */
async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

describe('toNodeHandler after a framework read the body', () => {
  it('node:http: answers 500 and tells onError the body was read by a parser, when it was sent with a Content-Length', async () => {
    const { node, errors, on } = receiver();
    const url = await listen(async (req, res) => {
      await drain(req);
      node(req, res);
    });
    const response = await deliver(`${url}/hooks`);
    expect(response.status).toBe(500);
    expect(on).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(WfaError.is(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toMatch(/already read by a framework's body parser/);
    expect((errors[0] as Error).message).toMatch(/Fastify/);
  });

  it('node:http: a chunked body read first is a 500 too', async () => {
    const { node, errors } = receiver();
    const url = await listen(async (req, res) => {
      await drain(req);
      node(req, res);
    });
    const body = new Blob([createWebhookBody()]).stream();
    const response = await fetch(`${url}/hooks`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
  });

  it("node:http: an empty delivery read first is still a 400, the sender's fault", async () => {
    const { node, errors } = receiver();
    const url = await listen(async (req, res) => {
      await drain(req);
      node(req, res);
    });
    expect((await deliver(`${url}/hooks`, '')).status).toBe(400);
    expect(errors).toEqual([]);
  });

  it('Fastify: its default JSON parser in front of toNodeHandler gives a 500 naming the case', async () => {
    const { node, errors, on } = receiver();
    const app = Fastify();
    app.post('/hooks', (request, reply) => {
      reply.hijack();
      node(request.raw, reply.raw);
    });
    const response = await deliver(`${await listenFastify(app)}/hooks`);
    expect(response.status).toBe(500);
    expect(on).not.toHaveBeenCalled();
    expect((errors[0] as Error).message).toMatch(/already read by a framework's body parser/);
  });
});

describe('Express: a receiver mounted behind express.json() (mis-mounted)', () => {
  const verify = standardWebhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
  // As a real sender may send it: pretty-printed. Re-serialised by express.json(), it is no longer these bytes.
  const pretty = JSON.stringify(JSON.parse(createWebhookBody()), null, 2);

  async function misMounted(options: { verify?: typeof verify }) {
    const errors: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = express();
    app.use(express.json());
    app.all('/hooks', toNodeHandler(createWebhookHandler({ on: {}, onError: (error) => void errors.push(error), ...options })));
    const url = `${await listen(createServer(app))}/hooks`;
    return { errors, warn, url };
  }

  it('a correctly signed delivery fails verification, and onError gets a WfaError naming the parser and the fix', async () => {
    const { errors, url } = await misMounted({ verify });
    const headers = { 'content-type': 'application/json', ...(await signWebhook(verify, pretty)) };
    const response = await fetch(url, { method: 'POST', body: pretty, headers });
    expect(response.status).toBe(401);
    expect(errors).toHaveLength(1);
    expect(WfaError.is(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toMatch(/rebuilt from req\.body/);
    expect((errors[0] as Error).message).toMatch(/mount the webhook route before express\.json\(\), or behind express\.raw/);
  });

  it('warns once, even when nothing fails (no verify): dedupe would key on re-serialised JSON', async () => {
    const { errors, warn, url } = await misMounted({});
    for (let i = 0; i < 2; i++) {
      const response = await fetch(url, { method: 'POST', body: pretty, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(200);
    }
    expect(errors).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/body parser \(such as express\.json\(\)\).*dedupe keys on the rebuilt text/s);
  });
});

describe("the guide's framework recipes, on real servers", () => {
  it('Express: the webhook route answers 200, and the routes after express.json() still parse JSON', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { app } = await import('../../examples/docs/webhooks-express.js');
    const url = await listen(createServer(app));
    expect((await deliver(`${url}/wfa-webhook`)).status).toBe(200);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Build of wf_\w+ ready: https:/));
    const orders = await fetch(`${url}/orders`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(await orders.json()).toEqual({ received: { a: 1 } });
    // app.all: a GET gets the documented 405, not Express's 404.
    const get = await fetch(`${url}/wfa-webhook`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('Fastify: the webhook route answers 200 and 400, and the other routes keep the JSON parser', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { app } = await import('../../examples/docs/webhooks-fastify.js');
    const url = await listenFastify(app);
    expect((await deliver(`${url}/wfa-webhook`)).status).toBe(200);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Build of wf_\w+ ready: https:/));
    expect((await deliver(`${url}/wfa-webhook`, '{"event":')).status).toBe(400);
    const orders = await fetch(`${url}/orders`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(await orders.json()).toEqual({ received: { a: 1 } });
  });

  it('Hono: the webhook route answers 200', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { app } = await import('../../examples/docs/webhooks-hono.js');
    const response = await app.request('/wfa-webhook', {
      method: 'POST',
      body: createWebhookBody(),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Build of wf_\w+ ready: https:/));
  });

  it('Next.js: the route handler answers 200', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { POST } = await import('../../examples/docs/webhooks-nextjs.js');
    const response = await POST(new Request('https://example.com/api/wfa-webhook', { method: 'POST', body: createWebhookBody() }));
    expect(response.status).toBe(200);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Build of wf_\w+ ready: https:/));
  });
});
