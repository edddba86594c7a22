import { Client } from 'workflow-automation-sdk';

const client = new Client({ baseUrl: 'https://automation.example.com' });

// The data, and how it was answered.
const { data: workflow, response } = await client.workflows.get('wf_123').withResponse();
console.log(workflow.name, response.status, response.requestId, response.headers.get('x-ratelimit-remaining'));
console.log(`${response.attempts} request(s) to ${response.url} in ${Math.round(response.elapsedMs)} ms`);

// Every page of a list carries the same details.
for await (const page of client.orders.list({ limit: 100 }).pages()) console.log(page.response.requestId);

// The raw Response, its body unread: stream it, or read it your own way.
const raw = await client.workflows.get('wf_123').asResponse();
console.log(raw.headers.get('content-type'), await raw.text());
