/** Key issuing's model: an email and password in, a key out. */
import { checkApiKey } from '../core/api-key.js';
import { ResponseValidationError } from '../core/errors.js';
import { nonEmptyString, parsesTo, refine, strictObject, string, type Schema } from '../core/schema.js';

/** What `auth.issueKey` and `Client.login` take. */
export interface Credentials {
  /** The account's email address. */
  email: string;
  /** The account's password; not empty. Kept out of every error and log line. */
  password: string;
}

let credentials: Schema<Credentials> | undefined;
export const credentialsSchema = () =>
  (credentials ??= parsesTo<Credentials>()(
    strictObject({
      email: string().check(refine((value: string) => /^[^\s@]+@[^\s@]+$/.test(value), 'must be an email address')),
      password: nonEmptyString(),
    }),
  ));

/** An issued API key. */
export interface IssuedKey {
  /** The key, to pass as `apiKey`. */
  apiKey: string;
}

/** Where a key issuing response may hold the key, in this order, at the top level or under `data`. */
export const KEY_FIELDS = ['api_key', 'apiKey', 'key', 'token', 'access_token', 'accessToken'];

function findIssuedKey(body: unknown, underData = false): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const field = KEY_FIELDS.find((name) => typeof record[name] === 'string');
  if (field) return record[field] as string;
  // Under `data` once, as documented: a body of `data` nested without end cannot run the search out of stack.
  return underData ? undefined : findIssuedKey(record['data'], true);
}

/** Runs inside the core, which adds the URL to its error and hides the body (`hideBody`). */
/** The issued key's reader, given as the endpoint table's models give their schemas. */
export const issuedKeyReader = () => readIssuedKey;

export function readIssuedKey(data: unknown): IssuedKey {
  const apiKey = findIssuedKey(data);
  // The same rule as every other key: a key no header can carry fails here, not at the next call.
  if (apiKey !== undefined) return { apiKey: checkApiKey(apiKey, 'the key issuing response') };
  throw new ResponseValidationError({
    body: undefined,
    issues: [{ path: [], message: `has no key under ${KEY_FIELDS.join(', ')} (or data.*)`, code: 'missing_key' }],
    method: 'POST',
    url: '/v1/auth',
  });
}
