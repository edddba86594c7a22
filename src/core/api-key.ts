/**
 * The API key of one call, and the one rule every key passes whatever its source. A key function may hang, throw
 * or reject: it runs bounded by the call's time and signal, and whatever it does ends in the SDK's own errors.
 */
import { ApiKeyError, TimeoutError } from './errors.js';
import { abortedBy } from './failures.js';
import type { ApiKeySource } from './options.js';
import { now, runPhase } from './timing.js';
import { safeCause, thrownName, usableSecrets } from './redact.js';

/** Where a key came from, for its error: never the key itself. */
export type KeySource = 'the apiKey option' | 'the apiKey function' | 'WFA_API_KEY' | 'the key issuing response';

// What an HTTP field value (RFC 9110) and a Fetch ByteString cannot carry; each failure names its rule.
const KEY_RULES: readonly [RegExp, string][] = [
  [/[\r\n]/, 'a line break (CR or LF)'],
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rule finds.
  [/[\0-\x08\x0b-\x1f\x7f]/, 'a control character'],
  [/[^\0-\xff]/, 'a character past U+00FF'],
];

/** The one check of a key, from any source: trimmed (a key read from a file ends with a line break), then the rules above. */
export function checkApiKey(value: unknown, source: KeySource): string {
  const key = typeof value === 'string' ? value.trim() : '';
  const rule = KEY_RULES.find(([pattern]) => pattern.test(key))?.[1];
  const problem = key === '' ? 'is empty or not a string' : rule && `holds ${rule}, which a header value cannot carry`;
  if (problem) throw new ApiKeyError(`Unusable API key from ${source}: it ${problem}`);
  return key;
}

/** `lastKey` is removed from a failing key function's error, which becomes the cause: a vault's error may quote it. */
export async function resolveKey(
  source: ApiKeySource | undefined,
  fromEnv: boolean,
  bounds: { signal: AbortSignal | undefined; timeoutMs: number },
  lastKey: string | undefined,
): Promise<string> {
  if (source === undefined) throw new ApiKeyError('No API key: pass { apiKey } to new Client(), set WFA_API_KEY, or use Client.login()');
  let key: unknown = source;
  if (typeof source === 'function') {
    const { signal, timeoutMs } = bounds;
    const result = await runPhase(async () => source(), { signal, deadline: now() + timeoutMs });
    if (result.type === 'aborted') throw abortedBy('The request', result.reason);
    if (result.type === 'deadline') throw new TimeoutError(`The apiKey function did not return within ${timeoutMs} ms`, timeoutMs);
    if (result.type === 'failed') {
      const cause = safeCause(result.error, usableSecrets([lastKey]));
      throw new ApiKeyError(`The apiKey function failed (${thrownName(result.error, usableSecrets([lastKey]))}); its error is the cause`, {
        cause,
      });
    }
    key = result.value;
  }
  return checkApiKey(key, typeof source === 'function' ? 'the apiKey function' : fromEnv ? 'WFA_API_KEY' : 'the apiKey option');
}
