// Fastify reads and parses every JSON body before the route runs; the webhook route asks it not to.
import Fastify from 'fastify';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

const handleWebhook = toNodeHandler(
  createWebhookHandler({
    on: { 'build.completed': (event) => console.log(`Build of ${event.workflow_id} ready: ${event.data.download_url}`) },
    onError: (error) => console.error('webhook failed', error),
  }),
);

export const app = Fastify();

// A plugin of its own, so the other routes keep Fastify's JSON parser.
app.register(async (webhooks) => {
  webhooks.removeAllContentTypeParsers();
  // Leaves the body unread: the handler streams it, within its size and time limits.
  webhooks.addContentTypeParser('*', (_request, _body, done) => done(null));
  webhooks.post('/wfa-webhook', (request, reply) => {
    reply.hijack(); // the handler writes the response itself
    handleWebhook(request.raw, reply.raw);
  });
});

app.post('/orders', async (request) => ({ received: request.body }));
// await app.listen({ port: 3000 });
