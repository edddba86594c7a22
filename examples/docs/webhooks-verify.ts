import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

// The service documents no signature. If your deployment signs deliveries (a gateway in front of you, say,
// with an HMAC-SHA256 hex digest in x-signature), check it in `verify`: it gets the exact bytes received.
const secret = process.env.WEBHOOK_SECRET ?? '';

export const handler = createWebhookHandler({
  on: { 'build.completed': (event) => console.log(event.data.download_url) },
  verify(rawBody, headers) {
    const received = Buffer.from(headers.get('x-signature') ?? '', 'hex');
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    return received.length === expected.length && timingSafeEqual(received, expected);
  },
});

// Without node:crypto (browsers, edge runtimes): Web Crypto's constant-time verify.
const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
export const edgeHandler = createWebhookHandler({
  on: {},
  verify(rawBody, headers) {
    const hex = headers.get('x-signature') ?? '';
    const signature = new Uint8Array((hex.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)));
    return crypto.subtle.verify('HMAC', key, signature, new Uint8Array(rawBody));
  },
});
