import { Redis } from 'ioredis';
import { Client } from 'workflow-automation-sdk';
import { redisRateStore } from 'workflow-automation-sdk/redis';

// Every CI runner of the pipeline runs this with the same WFA_API_KEY and REDIS_URL.
const redis = new Redis(process.env.REDIS_URL!);
const client = new Client({
  rateLimit: {
    store: redisRateStore(redis), // one budget for every runner using this key
    requestsPerSecond: 20, // optional: the key's whole quota, if you know it (the runners share it)
  },
});

const shard = Number(process.env.CI_NODE_INDEX ?? 0);
const { workflow, build } = await client.workflows.createAndWait({
  name: `Nightly export, shard ${shard}`,
  platform: 'make',
  trigger: { type: 'schedule' },
  actions: [{ app: 'google_sheets', action: 'append_row' }],
});
console.log(workflow.id, build.download_url);
await redis.quit();
