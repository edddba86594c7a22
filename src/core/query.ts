/** Query strings, each value checked before anything is sent. */
import { ValidationError } from './errors.js';
import { ownFields } from './readable.js';

/**
 * Query values the core can put in a URL; `undefined` and `null` are left out, so optional filters can be
 * passed as they are. An array repeats the key.
 *
 * @example
 * ```ts
 * const query: Record<string, QueryValue> = { status: filter ?? undefined, tag: ['a', 'b'] }; // ?tag=a&tag=b
 * await client.request({ method: 'GET', path: '/workflows', query });
 * ```
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The query string (no `?`), as `URLSearchParams` encodes it; refuses a value that is not a string, number or boolean. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return '';
  // Read once, first: a query that cannot be read is a ValidationError naming the field, not a getter's error.
  const given = ownFields(query, 'query');
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    // A string would be spread into one parameter per character.
    throw new ValidationError('query', [{ path: [], message: 'must be an object of names to values', code: 'invalid_type' }]);
  }
  const params = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    // A JavaScript caller can pass anything: an object would be sent as `[object Object]`.
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      const message = 'must be a string, number or boolean, or an array of them';
      throw new ValidationError('query', [{ path: [name], message, code: 'invalid_type' }]);
    }
    // Encoding would silently turn a lone surrogate into U+FFFD: refused, as in ids.
    if (LONE_SURROGATE.test(name) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
      throw new ValidationError('query', [{ path: [name], message: 'is not valid Unicode', code: 'invalid_value' }]);
    }
    params.append(name, String(value));
  };
  for (const [name, value] of Object.entries(given)) {
    if (Array.isArray(value)) for (const item of value as readonly unknown[]) add(name, item);
    else if (value !== undefined && value !== null) add(name, value);
  }
  return params.toString();
}
