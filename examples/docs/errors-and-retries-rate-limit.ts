import { Client, memoryRateStore } from 'workflow-automation-sdk';

// On by default: 200 creates at once share one gate, and a 429 holds them all for its Retry-After.
const client = new Client({
  logger: console, // one warn line when the gate closes, one info line when it opens
  hooks: { onRateLimit: ({ state, waitMs, waiting }) => console.log(`rate gate ${state} (${waitMs} ms, ${waiting} waiting)`) },
});
const input = { name: 'n', platform: 'zapier', trigger: { type: 'webhook' as const }, actions: [] };
await Promise.all(Array.from({ length: 200 }, () => client.workflows.create(input)));

// A quota you know: paced to it from the first send, at most 8 in flight.
export const paced = new Client({ rateLimit: { requestsPerSecond: 20, maxConcurrent: 8 } });

// Clients of one process sharing one budget: one store, one name.
const store = memoryRateStore();
export const [reports, sync] = [1, 2].map(() => new Client({ rateLimit: { store, key: 'ci' } }));

// Each call on its own again, as before the gate: a 429 is retried up to maxRetries, on its own timer.
export const unpaced = new Client({ rateLimit: false });
