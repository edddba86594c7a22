// Express 4 and 5 alike: the webhook route reads the raw body itself, so it is mounted before express.json().
import express from 'express';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

const handleWebhook = toNodeHandler(
  createWebhookHandler({
    on: { 'build.completed': (event) => console.log(`Build of ${event.workflow_id} ready: ${event.data.download_url}`) },
    onError: (error) => console.error('webhook failed', error),
  }),
);

export const app = express();
app.all('/wfa-webhook', handleWebhook); // first: the body is still unread here; all: any other method gets 405
app.use(express.json()); // then the parser your other routes use
app.post('/orders', (req, res) => {
  res.json({ received: req.body });
});
// app.listen(3000);
