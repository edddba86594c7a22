/**
 * Options a caller cannot read: a Proxy whose traps throw, a getter that fails. Reading them must give a
 * ValidationError naming the option, never the getter's own error, which may say anything (a secret too).
 */
import { ValidationError } from './errors.js';

/** How deep and how many fields the search for an unreadable field goes: options are a few levels of a few fields. */
const MAX_DEPTH = 4;
const MAX_FIELDS = 500;

/** Reading it threw: the ValidationError for `what`, naming the field at `path`. */
export function unreadable(what: string, path: readonly (string | number)[]): ValidationError {
  return new ValidationError(what, [{ path: [...path], message: 'could not be read: reading it threw', code: 'invalid_type' }]);
}

/**
 * Where in `value` a read throws (the fields, their prototype, whether it is an array), depth first, within the
 * bounds above; `undefined` when none does. Only asked after a check threw, to name what it could not read.
 */
export function unreadablePath(value: unknown): (string | number)[] | undefined {
  let budget = MAX_FIELDS;
  const search = (inner: unknown, path: string[]): string[] | undefined => {
    if ((typeof inner !== 'object' && typeof inner !== 'function') || inner === null) return undefined;
    let names: string[];
    try {
      Array.isArray(inner);
      Object.getPrototypeOf(inner);
      names = Object.keys(inner);
    } catch {
      return path;
    }
    for (const name of names) {
      if (--budget < 0) return undefined;
      let field: unknown;
      try {
        field = (inner as Record<string, unknown>)[name];
      } catch {
        return [...path, name];
      }
      const found = path.length < MAX_DEPTH ? search(field, [...path, name]) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return search(value, []);
}

/**
 * The own fields of an options object, copied once into a plain object, so that merging and checking it read
 * plain data; a field that cannot be read is a ValidationError naming it. Anything but an object is returned as is.
 */
export function ownFields<T>(value: T, what: string): T {
  if (typeof value !== 'object' || value === null) return value;
  let names: string[];
  try {
    names = Object.keys(value);
  } catch {
    throw unreadable(what, []);
  }
  const fields = names.map((name) => {
    try {
      return [name, (value as Record<string, unknown>)[name]] as const;
    } catch {
      throw unreadable(what, [name]);
    }
  });
  // fromEntries keeps a `__proto__` field as data, never a prototype.
  return Object.fromEntries(fields) as T;
}
