/**
 * A body that something read before the handler (Hono's c.req.json(), request.json() in a route handler) is
 * the receiver's misconfiguration: a 500 and a WfaError for onError that says so, never a 400 blaming the sender.
 */
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createWebhookBody, createWebhookHandler, createWebhookRequest, WfaError } from '../../src/webhooks/index.js';

function handlerWithErrors() {
  const errors: unknown[] = [];
  const on = vi.fn();
  const handler = createWebhookHandler({ on: { 'build.completed': on }, onError: (error) => void errors.push(error) });
  return { handler, errors, on };
}

describe('createWebhookHandler: a body already read is a 500 for onError', () => {
  it('answers 500 for a Request whose body was used, and tells onError how to mount the handler', async () => {
    const { handler, errors, on } = handlerWithErrors();
    const request = createWebhookRequest();
    await request.json(); // what a route does before handing the request over
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Webhook body was already read by the receiving server' });
    expect(on).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(WfaError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/already read before the handler got the Request \(its body is used\)/);
    expect((error as Error).message).toMatch(/handler\(c\.req\.raw\)/);
    expect((error as Error).message).toMatch(/docs\/webhooks\.md/);
  });

  it('answers 500 for a body another reader holds locked', async () => {
    const { handler, errors } = handlerWithErrors();
    const request = createWebhookRequest();
    request.body?.getReader();
    expect((await handler(request)).status).toBe(500);
    expect((errors[0] as Error).message).toMatch(/its body is locked/);
  });

  it('logs the misconfiguration with console.error when there is no onError', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const request = createWebhookRequest();
    await request.text();
    expect((await createWebhookHandler({ on: {} })(request)).status).toBe(500);
    expect(log).toHaveBeenCalledWith('workflow-automation-sdk: webhook receiver is misconfigured', expect.any(WfaError));
  });

  it('still answers 400 for a delivery that is really empty', async () => {
    const { handler, errors } = handlerWithErrors();
    const response = await handler(new Request('https://example.com/hooks', { method: 'POST' }));
    expect(response.status).toBe(400);
    expect(errors).toEqual([]);
  });
});

describe('Hono (a real app, in process)', () => {
  function app() {
    const { handler, errors, on } = handlerWithErrors();
    const hono = new Hono();
    hono.post('/read-first', async (c) => {
      await c.req.json();
      return handler(c.req.raw);
    });
    hono.post('/raw', (c) => handler(c.req.raw));
    return { hono, errors, on };
  }
  const delivery = { method: 'POST', body: createWebhookBody(), headers: { 'content-type': 'application/json' } };

  it('answers 500 after c.req.json(), and onError says the body was already read', async () => {
    const { hono, errors, on } = app();
    const response = await hono.request('/read-first', delivery);
    expect(response.status).toBe(500);
    expect(on).not.toHaveBeenCalled();
    expect((errors[0] as Error).message).toMatch(/already read/);
  });

  it('answers 200 when the route hands over c.req.raw unread, as the recipe does', async () => {
    const { hono, errors, on } = app();
    expect((await hono.request('/raw', delivery)).status).toBe(200);
    expect(on).toHaveBeenCalledOnce();
    expect(errors).toEqual([]);
  });
});
