/**
 * A receiver that accepts only deliveries signed as Standard Webhooks says. Runs on its own: it starts the
 * receiver, signs two deliveries as a sender would (one then tampered with), and prints how each was answered.
 *
 *   npx tsx examples/webhook-signed.ts
 *
 * Against your own server, with builds from the service forwarded to it:
 *
 *   export WFA_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
 *   wfa listen --forward-to http://localhost:3000/webhooks --sign standard-webhooks
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookBody, createWebhookHandler, signWebhook, standardWebhooks, toNodeHandler } from '../src/webhooks/index.js';

// In production the secret comes from your secret store; this one is Standard Webhooks' example secret.
const verify = standardWebhooks({ secret: process.env.WFA_WEBHOOK_SECRET ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });

const server = createServer(
  toNodeHandler(
    createWebhookHandler({
      verify, // a missing, tampered or stale signature is answered 401 and never reaches `on`
      on: { 'build.completed': (event) => console.log(`Verified: build of ${event.workflow_id} at ${event.data.download_url}`) },
    }),
  ),
);
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
console.log(`Receiving signed webhooks at ${url}`);

try {
  const body = createWebhookBody({ workflow_id: 'wf_42', data: { download_url: 'https://downloads.example.com/wf_42.zip' } });
  const headers = await signWebhook(verify, body); // what a signing sender (or `wfa listen --sign`) adds
  const send = (payload: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });

  console.log(`Signed delivery: ${(await send(body)).status}`);
  console.log(`Tampered delivery: ${(await send(body.replace('wf_42.zip', 'evil.zip'))).status}`);
} finally {
  server.close();
}
