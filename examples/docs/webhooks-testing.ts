import { expect, test, vi } from 'vitest';
import { createWebhookHandler, createWebhookPayload, createWebhookRequest } from 'workflow-automation-sdk/webhooks';

test('stores the download URL of a completed build', async () => {
  const markReady = vi.fn();
  const handler = createWebhookHandler({ on: { 'build.completed': (event) => markReady(event.data.download_url) } });

  // A valid delivery, with your overrides, as a Fetch Request: no server needed.
  const response = await handler(
    createWebhookRequest({ workflow_id: 'wf_42', data: { download_url: 'https://files.example.com/wf_42.zip' } }),
  );

  expect(response.status).toBe(200);
  expect(markReady).toHaveBeenCalledWith('https://files.example.com/wf_42.zip');
});

test('acknowledges kinds it does not know', async () => {
  const handler = createWebhookHandler({ on: {} });
  const response = await handler(createWebhookRequest(createWebhookPayload({ event: 'order.updated', data: { status: 'paid' } })));
  expect(response.status).toBe(200);
});
