import { Client } from 'workflow-automation-sdk';
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

declare const db: { builds: { markReady(workflowId: string, url: string): Promise<void> } }; // your storage

// The client the handler confirms with: any object with workflows.get and builds.get will do.
const client = new Client({ apiKey: process.env.WFA_API_KEY });

export const POST = createWebhookHandler({
  confirm: client, // re-reads the workflow and its build before the handler runs
  unconfirmed: 'reject', // the default: kinds the SDK cannot confirm never reach onUnknown
  confirmTimeoutMs: 5_000, // no answer by then: 503, and the sender tries again
  on: {
    'build.completed': async (event, _request, delivery) => {
      // Only reached when the build is `completed` with this very download_url.
      console.log('confirmed:', delivery.confirmed); // true
      await db.builds.markReady(event.workflow_id, event.data.download_url);
    },
  },
  onError: (error) => console.warn('webhook refused', error), // a 401 says why here, never in the response
});
