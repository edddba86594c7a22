import { createServer } from 'node:http';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

const handler = createWebhookHandler({
  on: { 'build.completed': (event) => console.log(`Build of ${event.workflow_id} ready: ${event.data.download_url}`) },
});

// A node:http request listener; the same function is an Express route handler:
//   app.all('/wfa-webhook', toNodeHandler(handler))   (mount it before express.json(), see below)
createServer(toNodeHandler(handler)).listen(3000, () => console.log('Receiving webhooks at http://localhost:3000/'));
