// app/api/wfa-webhook/route.ts: a Next.js route handler gets the Fetch Request with its body unread.
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

const handleWebhook = createWebhookHandler({
  on: { 'build.completed': (event) => console.log(`Build of ${event.workflow_id} ready: ${event.data.download_url}`) },
  onError: (error) => console.error('webhook failed', error),
});

export async function POST(request: Request): Promise<Response> {
  // Headers may be read here, but not the body: after request.json() the handler has nothing to read (500).
  console.log('delivery', request.headers.get('x-request-id'));
  return handleWebhook(request);
}
