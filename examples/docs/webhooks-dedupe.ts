import { createClient } from 'redis'; // or ioredis: new Redis(process.env.REDIS_URL)
import { createWebhookHandler, memoryStore, redisStore } from 'workflow-automation-sdk/webhooks';

declare const db: { builds: { markReady(workflowId: string, url: string): Promise<void> } }; // your storage
const on = {
  'build.completed': (event: { workflow_id: string; data: { download_url: string } }) =>
    db.builds.markReady(event.workflow_id, event.data.download_url),
};

// One process: keys in memory (bounded, forgotten after ttlMs).
export const single = createWebhookHandler({ on, dedupe: { store: memoryStore(), ttlMs: 24 * 60 * 60 * 1000 } });

// Several processes or servers: one Redis for all of them, through your own connected client.
const redis = await createClient({ url: process.env.REDIS_URL }).connect();
export const shared = createWebhookHandler({
  on,
  dedupe: {
    store: redisStore(redis, { prefix: 'shop:webhooks:' }),
    ttlMs: 24 * 60 * 60 * 1000, // a duplicate within a day is answered 200 and not run
    idHeaders: ['webhook-id', 'x-delivery-id'], // the first present is the key; else the SHA-256 of the event
  },
});
