// app/api/wfa-webhook/route.ts in Next.js; the same handler serves Hono, Bun, Deno and Cloudflare Workers.
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

declare const db: { builds: { markReady(workflowId: string, url: string): Promise<void> } }; // your storage

export const POST = createWebhookHandler({
  on: {
    'build.completed': async (event, request) => {
      console.log('delivery', request.headers.get('x-request-id'));
      await db.builds.markReady(event.workflow_id, event.data.download_url);
    },
  },
  onUnknown: (event) => console.warn('unhandled webhook kind', event.event),
  onError: (error, event) => console.error('webhook handler failed', event?.event, error),
  maxBodyBytes: 64 * 1024,
});
