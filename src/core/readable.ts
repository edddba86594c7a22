/**
 * Options a caller cannot read: a Proxy whose traps throw, a getter that fails. Reading them must give a
 * ValidationError naming the option, never the getter's own error, which may say anything (a secret too).
 */
import { ValidationError } from './errors.js';

/**
 * The ValidationError for `value` (the input called `what`) after reading it threw, naming the first field whose
 * reading throws: depth first, at most 4 levels and 500 fields deep (options are a few levels of a few fields).
 */
export function unreadable(what: string, value: unknown): ValidationError {
  let budget = 500;
  const search = (inner: unknown, path: string[]): string[] | undefined => {
    if (Object(inner) !== inner || path.length > 4) return undefined;
    let names: string[];
    try {
      names = Object.keys(inner as object);
    } catch {
      return path;
    }
    for (const name of names) {
      if (--budget < 0) return undefined;
      let found: string[] | undefined;
      try {
        found = search((inner as Record<string, unknown>)[name], [...path, name]);
      } catch {
        found = [...path, name];
      }
      if (found) return found;
    }
    return undefined;
  };
  const path = search(value, []) ?? [];
  return new ValidationError(what, [{ path, message: 'could not be read: reading it threw', code: 'invalid_type' }]);
}

/**
 * An options object's own fields, read once into a plain object that merging and checking read safely; the
 * objects under `nested` (`headers`, `rateLimit`) copied too, so that what is checked is what is used.
 */
export function ownFields<T>(value: T, what: string, nested: readonly string[] = []): T {
  if (typeof value !== 'object' || value === null) return value;
  try {
    const copy = { ...value } as Record<string, unknown>;
    // Only a plain object: anything else (a `Headers`, a `Map`) is the check's to refuse, as given.
    for (const name of nested) if (isPlainObject(copy[name])) copy[name] = { ...(copy[name] as object) };
    return copy as T;
  } catch {
    throw unreadable(what, value);
  }
}

/** The one rule for what options spell as `{…}`: a plain object, not a `Headers`, a `Map` or a class's instance. */
export function isPlainObject(value: unknown): boolean {
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === null;
}
