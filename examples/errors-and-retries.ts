/**
 * Errors and retries: what the SDK retries on its own, and the typed errors it throws when it gives up.
 *
 *   WFA_API_KEY=<your key> WFA_BASE_URL=https://automation.example.com npx tsx examples/errors-and-retries.ts
 */
import {
  ApiError,
  AuthenticationError,
  Client,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '../src/index.js';

// Connection errors, timeouts, 408, 429 and 5xx are retried with backoff (respecting Retry-After) before
// anything is thrown. These are the knobs; `maxRetries: 0` turns retries off.
const client = new Client({ maxRetries: 3, timeoutMs: 15_000 });

// A typed error for each kind of failure. `instanceof` works, and so does `NotFoundError.is(error)`, which
// also recognises errors from another copy of the SDK.
try {
  await client.workflows.get('wf_does_not_exist');
} catch (error) {
  if (error instanceof NotFoundError) console.log(`Not found: ${error.message}`);
  else throw error;
}

// Invalid input is refused before anything is sent, naming each field; values are never echoed.
try {
  await client.workflows.create({ name: '', platform: 'zapier', trigger: { type: 'webhook', url: 'not a url' }, actions: [] });
} catch (error) {
  if (error instanceof ValidationError) console.log(`Refused before sending (first bad field: ${error.field}): ${error.message}`);
  else throw error;
}

// One handler for everything a call can throw, most specific first.
function describe(error: unknown): string {
  if (error instanceof AuthenticationError) return 'the API key was refused: check WFA_API_KEY';
  if (error instanceof RateLimitError) return `rate limited; retry in ${error.retryAfterMs ?? 1000} ms`;
  if (error instanceof ApiError) return `the service answered ${error.status} (request id ${error.requestId ?? 'none'})`;
  if (error instanceof TimeoutError) return `no answer within ${error.timeoutMs} ms`;
  if (error instanceof ConnectionError) return `the service could not be reached: ${error.message}`;
  return String(error);
}

const wrongKey = new Client({ apiKey: 'wfa_wrong_key', maxRetries: 0 });
try {
  await wrongKey.orders.list();
} catch (error) {
  console.log(`With a wrong key: ${describe(error)}`);
}

// Per call: a shorter timeout, no retries, and a signal to cancel it (an AbortError then).
const page = await client.orders.list({ limit: 5 }, { timeoutMs: 5_000, maxRetries: 0, signal: AbortSignal.timeout(10_000) });
console.log(`Listed ${page.items.length} order(s) with per-call options`);
