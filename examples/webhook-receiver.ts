/**
 * A webhook receiver on plain `node:http`: the service POSTs `build.completed` when a build finishes.
 *
 *   PORT=3000 npx tsx examples/webhook-receiver.ts           # runs until Ctrl+C
 *   PORT=3000 npx tsx examples/webhook-receiver.ts --once    # stops after the first event
 *
 * To see it receive something without an account, point the mock's webhooks at it and create a workflow:
 *
 *   wfa mock --webhook-url http://127.0.0.1:3000/webhooks
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler } from '../src/webhooks/index.js';

let received = 0;

// The handler reads and checks the body, then calls the function for the event's kind: `event` is typed,
// `event.data.download_url` a string. Kinds without a function are acknowledged (200) and ignored.
const handler = createWebhookHandler({
  on: {
    'build.completed': (event) => {
      console.log(`Build of ${event.workflow_id} completed: ${event.data.download_url}`);
      received += 1;
    },
  },
});

const server = createServer(toNodeHandler(handler));

function stop(): void {
  server.close();
  server.closeAllConnections();
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

// With --once, stop after the first event has been answered, so the sender still gets its 200.
if (process.argv.includes('--once')) {
  server.on('request', (_request, response) => response.once('finish', () => received > 0 && stop()));
}

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/webhooks`);
});
