/**
 * The API key of one call. A key function is a user's callback that may hang, throw or reject, so it runs
 * bounded by the call's time and signal, and whatever it does ends in the SDK's own errors.
 */
import { AbortError, ApiKeyError, TimeoutError } from './errors.js';
import type { ApiKeySource } from './options.js';
import { now, runPhase } from './poll.js';
import { safeCause, usableSecrets } from './redact.js';

// Visible ASCII: no spaces, no control characters.
const HEADER_SAFE = /^[!-~]+$/;

/** `lastKey` is removed from a failing key function's error, which becomes the cause: a vault's error may quote it. */
export async function resolveKey(
  source: ApiKeySource | undefined,
  bounds: { signal: AbortSignal | undefined; timeoutMs: number },
  lastKey: string | undefined,
): Promise<string> {
  let key: unknown = source;
  if (typeof source === 'function') {
    const { signal, timeoutMs } = bounds;
    const result = await runPhase(async () => source(), { signal, deadline: now() + timeoutMs });
    if (result.type === 'aborted') throw new AbortError('The request was aborted by its signal', { cause: result.reason });
    if (result.type === 'deadline') throw new TimeoutError(`The apiKey function did not return within ${timeoutMs} ms`, timeoutMs);
    if (result.type === 'failed') {
      const { error } = result;
      const name = error instanceof Error ? error.name : typeof error;
      throw new ApiKeyError(`The apiKey function failed (${name}); its error is the cause`, {
        cause: safeCause(error, usableSecrets([lastKey])),
      });
    }
    key = result.value;
  }
  if (typeof key !== 'string' || key === '') {
    throw new ApiKeyError(
      typeof source === 'function'
        ? 'The apiKey function returned no key: it must return a non-empty string'
        : 'No API key: pass { apiKey } to new Client(), set WFA_API_KEY, or use Client.login()',
    );
  }
  if (!HEADER_SAFE.test(key)) {
    throw new ApiKeyError('The API key holds spaces or control characters, which an HTTP header cannot carry');
  }
  return key;
}
