/**
 * Each delivery handled once, across servers: two receivers (as two servers would) share one Redis, and the
 * same delivery reaches each of them three times at once. The handler runs once.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/webhook-dedupe-redis.ts                   # node-redis
 *   REDIS_URL=redis://127.0.0.1:6379 REDIS_CLIENT=ioredis npx tsx examples/webhook-dedupe-redis.ts
 *
 * Without REDIS_URL it uses memoryStore(), which is for one process only.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createWebhookHandler, createWebhookRequest, memoryStore, redisStore, type WebhookDedupeStore } from '../src/webhooks/index.js';

const url = process.env.REDIS_URL;
let store: WebhookDedupeStore = memoryStore();
let close = async (): Promise<unknown> => undefined;
if (url && process.env.REDIS_CLIENT === 'ioredis') {
  // Connected before the first delivery: until it is, the store answers 503 (the sender would try later).
  const client = new Redis(url, { lazyConnect: true });
  await client.connect();
  store = redisStore(client, { prefix: `example:${Date.now()}:` });
  close = () => client.quit();
} else if (url) {
  const client = await createClient({ url }).connect();
  store = redisStore(client, { prefix: `example:${Date.now()}:` });
  close = () => client.quit();
}

let runs = 0;
// Two servers' handlers: separate objects, one store.
const [serverA, serverB] = [1, 2].map(() =>
  createWebhookHandler({
    on: {
      'build.completed': async (event) => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 50)); // your work: the duplicates arrive meanwhile
        console.log(`Handled ${event.workflow_id}`);
      },
    },
    dedupe: { store, ttlMs: 60_000 },
  }),
);

const delivery = () => createWebhookRequest({ workflow_id: 'wf_example' }, { headers: { 'webhook-id': 'msg_example_1' } });
const answers = await Promise.all([serverA, serverB, serverA, serverB, serverA, serverB].map((handle) => handle!(delivery())));
// One 200 from the handler (whichever delivery reserved the key first), 503s for the duplicates still running
// (the sender tries later), then a retry once it is done (200, a duplicate).
const statuses = answers.map((answer) => answer.status).sort((a, b) => a - b);
console.log(`Answers: ${statuses.join(' ')}`);
const retry = await serverB!(delivery());
console.log(`Retry: ${retry.status} ${JSON.stringify(await retry.json())}`);
console.log(`Handler runs: ${runs} (${url ? 'redisStore' : 'memoryStore'})`);
await close();
