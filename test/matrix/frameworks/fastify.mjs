/**
 * Fastify: the webhook route in its own plugin scope whose content-type parser leaves the body unread, so the
 * SDK's Node handler streams the raw bytes (Fastify's JSON parser would consume them first).
 */
import Fastify from 'fastify';
import { toNodeHandler } from 'workflow-automation-sdk/webhooks';
import { RESULT_PREFIX, runSmoke, webhookHandler } from '../smoke.mjs';

const app = Fastify();
const nodeHandler = toNodeHandler(webhookHandler);
app.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null)); // leave the stream to the SDK
  scope.all('/webhook', (request, reply) => {
    reply.hijack();
    nodeHandler(request.raw, reply.raw);
  });
});
app.post('/other', async (request) => request.body); // the app's other routes keep the JSON parser

const address = await app.listen({ host: '127.0.0.1', port: 0 });
try {
  const results = await runSmoke(JSON.parse(process.env.WFA_MATRIX), { receiverUrl: `${address}/webhook` });
  console.log(RESULT_PREFIX + JSON.stringify(results));
} finally {
  await app.close();
}
