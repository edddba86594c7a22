import { createServer } from 'node:http';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

const webhooks = toNodeHandler(createWebhookHandler({ on: {} }));
createServer(webhooks).on('checkContinue', webhooks.checkContinue).listen(3000);
// Express: on the server app.listen() returns, call webhooks.checkContinue for the webhook path, and
// res.writeContinue() then app(req, res) for the others.
