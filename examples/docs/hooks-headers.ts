import { Client } from 'workflow-automation-sdk';

const client = new Client({
  hooks: {
    // Every attempt: add headers (never X-API-Key, which a hook can neither read nor set).
    beforeRequest: ({ headers, attempt }) => headers.set('x-attempt', String(attempt)),
    // Every answer, errors and redirects included: the route is the endpoint's template.
    afterResponse: ({ method, route, status, elapsedMs }) => console.log(`${method} ${route} ${status} ${Math.round(elapsedMs)} ms`),
    beforeRetry: ({ attempt, status, error, delayMs }) =>
      console.warn(`attempt ${attempt} failed (${status ?? error}), again in ${delayMs} ms`),
    // Once per call: the error it rejects with.
    onError: ({ route, error }) => console.warn(`${route} failed: ${error.name}`),
  },
});

await client.workflows.get('wf_123'); // logs "GET /workflows/{id} 200 41 ms"
