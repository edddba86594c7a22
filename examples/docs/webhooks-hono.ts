// Hono hands over the Fetch Request as c.req.raw: pass it on unread.
import { Hono } from 'hono';
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

const handleWebhook = createWebhookHandler({
  on: { 'build.completed': (event) => console.log(`Build of ${event.workflow_id} ready: ${event.data.download_url}`) },
  onError: (error) => console.error('webhook failed', error),
});

export const app = new Hono();
// No c.req.json() (or body-reading middleware) before it: a body already read is answered 500.
app.all('/wfa-webhook', (c) => handleWebhook(c.req.raw)); // all: any other method gets 405
// export default app;   (Bun, Deno, Cloudflare Workers)
