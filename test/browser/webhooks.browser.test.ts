/**
 * The webhooks entry point in Chromium: parsing strings, bytes and Requests with the page's own TextDecoder,
 * ReadableStream and Response, with no Node API anywhere.
 */
import { expect, test, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  createWebhookPayload,
  createWebhookRequest,
  isKnownWebhookEvent,
  parseWebhookEvent,
  safeParseWebhookEvent,
  WebhookParseError,
  WfaError,
} from '../../src/webhooks/index.js';
import { describeInBrowser } from './mock.js';

const payload = { event: 'build.completed', workflow_id: 'wf_42', data: { download_url: 'https://files.example.com/wf_42.zip' } };

describeInBrowser('webhooks in Chromium', () => {
  test('parses a string, a Uint8Array, an ArrayBuffer and an object into the same event', () => {
    const text = JSON.stringify(payload);
    const bytes = new TextEncoder().encode(text);
    for (const body of [text, bytes, bytes.buffer, payload]) {
      const event = parseWebhookEvent(body);
      expect(isKnownWebhookEvent(event)).toBe(true);
      if (event.event === 'build.completed') expect(event.data.download_url).toBe('https://files.example.com/wf_42.zip');
    }
  });

  test('says what is wrong with a bad delivery', () => {
    const error = (() => {
      try {
        parseWebhookEvent({ ...payload, data: { download_url: 'javascript:alert(1)' } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WebhookParseError);
    expect(error).toBeInstanceOf(WfaError);
    expect((error as WebhookParseError).path).toBe('data.download_url');
    expect(safeParseWebhookEvent('not json').success).toBe(false);
  });

  test('keeps events of kinds this SDK does not know', () => {
    const event = parseWebhookEvent({ event: 'order.updated', workflow_id: 'wf_1', data: { status: 'paid' } });
    expect(isKnownWebhookEvent(event)).toBe(false);
    expect(event.data).toEqual({ status: 'paid' });
  });

  test('the Fetch handler answers a Request made in the page', async () => {
    const completed = vi.fn();
    const unknown = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': completed }, onUnknown: unknown });

    const ok = await handler(new Request('https://app.example/webhooks', { method: 'POST', body: JSON.stringify(payload) }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ received: true });
    expect(completed).toHaveBeenCalledWith(expect.objectContaining({ workflow_id: 'wf_42' }), expect.any(Request), { confirmed: false });

    const other = await handler(createWebhookRequest({ event: 'order.updated', data: {} }));
    expect(other.status).toBe(200);
    expect(unknown).toHaveBeenCalledOnce();

    const bad = await handler(new Request('https://app.example/webhooks', { method: 'POST', body: '{"event":' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringMatching(/JSON/i) });

    const get = await handler(new Request('https://app.example/webhooks'));
    expect(get.status).toBe(405);
  });

  test('a streamed body over maxBodyBytes is refused with 413', async () => {
    const handler = createWebhookHandler({ on: {}, maxBodyBytes: 64 });
    const chunks = [new TextEncoder().encode(createWebhookBody()), new TextEncoder().encode(' '.repeat(100))];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await handler(new Request('https://app.example/webhooks', { method: 'POST', body, duplex: 'half' } as RequestInit));
    expect(response.status).toBe(413);
  });

  test('verify gets the exact bytes, and can check an HMAC with Web Crypto', async () => {
    const secret = new TextEncoder().encode('whsec_test');
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const body = new TextEncoder().encode(JSON.stringify(createWebhookPayload({ workflow_id: 'wf_7' })));
    const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, body));
    const hex = [...signature].map((b) => b.toString(16).padStart(2, '0')).join('');

    const handler = createWebhookHandler({
      on: {},
      verify: async (rawBody, headers) => {
        const given = headers.get('x-signature') ?? '';
        const bytes = new Uint8Array((given.match(/../g) ?? []).map((h) => parseInt(h, 16)));
        return crypto.subtle.verify('HMAC', key, bytes, new Uint8Array(rawBody));
      },
    });
    const signed = await handler(new Request('https://app.example/webhooks', { method: 'POST', body, headers: { 'x-signature': hex } }));
    expect(signed.status).toBe(200);
    const forged = await handler(
      new Request('https://app.example/webhooks', { method: 'POST', body, headers: { 'x-signature': '00'.repeat(32) } }),
    );
    expect(forged.status).toBe(401);
  });
});
