import { Client, TimeoutError } from 'workflow-automation-sdk';

// Every call ends within 15 s, whatever it meets: key function, attempts, backoff, redirects, prefix fallback.
const client = new Client({
  deadlineMs: 15_000,
  retry: {
    statuses: [429, 502, 503], // instead of 408, 429 and 5xx
    baseDelayMs: 200, // the first backoff step (doubling, with jitter)...
    maxDelayMs: 2_000, // ...up to this
    maxRetryAfterMs: 10_000, // a longer Retry-After ends the call with its error
    // true retries, false does not, undefined keeps the default rule; a POST that may have acted needs true.
    shouldRetry: ({ method, status }) => (method === 'POST' && status === 503 ? true : undefined),
  },
});

try {
  await client.workflows.get('wf_123', { deadlineMs: 3_000 }); // per call
} catch (error) {
  if (TimeoutError.is(error)) console.log(error.reason === 'deadline' ? 'the call ran out of time' : 'one attempt did');
  else throw error;
}
