import { Client, type FetchLike } from 'workflow-automation-sdk';

// Any Fetch-compatible function: here one that times each attempt. It is looked up at call time, so test
// tools that replace globalThis.fetch later still see every request.
const timedFetch: FetchLike = async (input, init) => {
  const started = performance.now();
  try {
    return await fetch(input, init);
  } finally {
    const url = input instanceof Request ? input.url : String(input);
    console.debug(`${init?.method ?? 'GET'} ${url}: ${Math.round(performance.now() - started)} ms`);
  }
};

const client = new Client({ baseUrl: 'https://automation.example.com', fetch: timedFetch });

// Every method takes RequestOptions last: they override the client's for this call only.
const workflow = await client.workflows.get('wf_123', {
  timeoutMs: 5_000,
  maxRetries: 0,
  signal: AbortSignal.timeout(10_000),
  headers: { 'X-Request-Source': 'nightly-job' },
});
console.log(workflow.status);

// An endpoint the SDK does not model yet: same key, prefix, retries and errors.
const stats = await client.request<{ count: number }>({ method: 'GET', path: '/workflows/stats', query: { status: 'active' } });
console.log(stats.count);
