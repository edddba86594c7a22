// The Next.js recipe: the SDK's Fetch handler is the route's POST; Next answers other methods 405 itself.
import { createWebhookHandler } from 'workflow-automation-sdk/webhooks';

export const POST = createWebhookHandler({
  on: {
    'build.completed': (event) => {
      if (!/^https?:\/\//.test(event.data.download_url)) throw new Error('no download URL');
    },
  },
});
