import { createWebhookHandler, hmacSha256, standardWebhooks } from 'workflow-automation-sdk/webhooks';

// Standard Webhooks (https://www.standardwebhooks.com): webhook-id, webhook-timestamp and webhook-signature
// headers, a `whsec_…` secret, and deliveries more than 5 minutes from now refused. An empty or malformed
// secret throws a ValidationError here, at startup, rather than refusing every delivery later.
export const POST = createWebhookHandler({
  verify: standardWebhooks({ secret: process.env.WEBHOOK_SECRET ?? '', toleranceSeconds: 300 }),
  on: { 'build.completed': (event) => console.log(event.workflow_id, event.data.download_url) },
});

// An HMAC-SHA256 of the body in one header, as hex or base64, after an optional prefix (GitHub's style here).
export const githubStyle = createWebhookHandler({
  verify: hmacSha256({ secret: process.env.WEBHOOK_SECRET ?? '', header: 'x-hub-signature-256', encoding: 'hex', prefix: 'sha256=' }),
  on: { 'build.completed': (event) => console.log(event.workflow_id, event.data.download_url) },
});
