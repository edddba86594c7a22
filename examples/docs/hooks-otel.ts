import { trace } from '@opentelemetry/api';
import { Client } from 'workflow-automation-sdk';
import { otelHooks } from 'workflow-automation-sdk/otel';

// A span per call ("GET /workflows/{id}"), a CLIENT span per attempt, a span per build wait with a "poll" event each.
const client = new Client({
  hooks: otelHooks({
    tracer: trace.getTracer('my-app'), // default: the global provider's 'workflow-automation-sdk' tracer
    hooks: { onError: ({ error }) => console.warn(error.message) }, // your own hooks still run
  }),
});

const workflow = await client.workflows.create({ name: 'n', platform: 'shopify', trigger: { type: 'webhook' }, actions: [] });
await client.waitForBuild(workflow);
