import { expect, test } from 'vitest';
import { createWebhookBody, createWebhookHandler, signWebhook, standardWebhooks } from 'workflow-automation-sdk/webhooks';

const verify = standardWebhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }); // a test secret
const handler = createWebhookHandler({ verify, on: { 'build.completed': () => {} } });
const post = (body: string, headers: Record<string, string>) =>
  handler(new Request('https://example.com/webhooks', { method: 'POST', headers, body }));

test('accepts a signed delivery, refuses a tampered or stale one', async () => {
  const body = createWebhookBody({ workflow_id: 'wf_42' });
  const headers = await signWebhook(verify, body); // webhook-id, webhook-timestamp, webhook-signature

  expect((await post(body, headers)).status).toBe(200);
  expect((await post(body.replace('wf_42', 'wf_43'), headers)).status).toBe(401);
  const stale = await signWebhook(verify, body, { timestamp: new Date(Date.now() - 10 * 60_000) });
  expect((await post(body, stale)).status).toBe(401);
});
