/**
 * The schema helpers every resource uses, on zod's public `zod/mini` API, and the one place where zod's results
 * become SDK errors (`ValidationError` for a caller's input, issues for a response). Why `zod/mini`: see
 * docs/design.md, "Validation".
 */
import * as z from 'zod/mini';
import { ValidationError, type Issue } from './errors.js';
import { isHttpUrl } from './url.js';

/** Any schema built here, by what it produces. */
export type Schema<T = unknown> = z.core.$ZodType<T, T>;

/** A check on an already typed value: `fn` false adds an issue with `message`, under `path` if given. */
type Check<T> = z.core.$ZodCheck<T>;

// A failed check stops the checks after it (`abort`), so an object's check may rely on its fields' own.
/* @__NO_SIDE_EFFECTS__ */
export function refine<T>(fn: (value: T) => boolean, message: string, path?: string[]): Check<T> {
  return z.refine<T>(fn, { error: message, path, abort: true });
}

/* @__NO_SIDE_EFFECTS__ */
export function string(...checks: Check<string>[]): z.ZodMiniString<string> {
  return checks.length ? z.string().check(...checks) : z.string();
}

// zod's builders, re-declared so a bundler sees each as free of side effects and drops unused schemas.
/* @__NO_SIDE_EFFECTS__ */
export function unknown(): z.ZodMiniUnknown {
  return z.unknown();
}

/* @__NO_SIDE_EFFECTS__ */
export function optional<T extends z.core.SomeType>(inner: T): z.ZodMiniOptional<T> {
  return z.optional(inner);
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T extends z.core.SomeType>(element: T): z.ZodMiniArray<T> {
  return z.array(element);
}

/* @__NO_SIDE_EFFECTS__ */
export function strictObject<Shape extends z.core.$ZodShape>(shape: Shape): z.ZodMiniObject<Shape, z.core.$strict> {
  return z.strictObject(shape);
}

// The same object with every field optional: an update's shape from a create's.
/* @__NO_SIDE_EFFECTS__ */
export function partial<Shape extends z.core.$ZodLooseShape>(
  schema: z.ZodMiniObject<Shape, z.core.$loose>,
  ...checks: Check<object>[]
): z.ZodMiniObject<{ -readonly [K in keyof Shape]: z.ZodMiniOptional<Shape[K]> }, z.core.$loose> {
  const optional = z.partial(schema);
  return checks.length ? optional.check(...checks) : optional;
}

/**
 * An object that keeps unknown fields: the service may add fields at any time, and dropping them would lose
 * data the caller can see in the raw response. For responses.
 */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<Shape extends z.core.$ZodLooseShape>(shape: Shape, ...checks: Check<object>[]): z.ZodMiniObject<Shape, z.core.$loose> {
  const schema = z.looseObject(shape);
  return checks.length ? schema.check(...checks) : schema;
}

/** True when A and B are the same type: mutual assignability would let an optional field or `any` slip by. */
type Same<A, B> = (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;

// Types a schema by the hand-written interface beside it. Compiles only while the schema's inferred type is
// exactly that interface, so the two cannot drift apart.
/* @__NO_SIDE_EFFECTS__ */
export function parsesTo<T>(): <S extends Schema<T>>(
  schema: S &
    ([Same<z.output<S>, T>, Same<z.input<S>, T>] extends [true, true]
      ? unknown
      : { 'differs from the interface written beside it': never }),
) => Schema<T> {
  return (schema) => schema;
}

// A string whose known values autocomplete while any other value still passes (`'building' | (string & {})`):
// the spec lists only the values it has seen, and a new one must never break a caller.
/* @__NO_SIDE_EFFECTS__ */
export function openString<const Known extends string = never>(_known: readonly Known[] = []): Schema<Known | (string & {})> {
  return z.string() as Schema<Known | (string & {})>;
}

/* @__NO_SIDE_EFFECTS__ */
export function nonEmptyString(): z.ZodMiniString<string> {
  return string(refine((value: string) => value.length > 0, 'must not be empty'));
}

/* @__NO_SIDE_EFFECTS__ */
export function httpUrl(): z.ZodMiniString<string> {
  return string(refine(isHttpUrl, 'must be an http(s) URL'));
}

// The spec's app and action identifiers: lower case letters, digits and underscores, starting with a letter.
/* @__NO_SIDE_EFFECTS__ */
export function snakeCaseId(): z.ZodMiniString<string> {
  return string(refine((value: string) => /^[a-z][a-z0-9_]*$/.test(value), 'must be snake_case, like send_message'));
}

// A value of type `T` that `test` recognises, else the issue `must be <what>`. One `custom` serves the few
// small unions (number or null, string or number), each with a message that names it.
/* @__NO_SIDE_EFFECTS__ */
export function checked<T>(what: string, test: (value: unknown) => boolean): Schema<T> {
  return z.custom<T>(test, { error: `must be ${what}` });
}

/* @__NO_SIDE_EFFECTS__ */
export function positiveInt(): Schema<number> {
  return checked('a whole number greater than 0', (value) => Number.isInteger(value) && (value as number) > 0);
}

/* @__NO_SIDE_EFFECTS__ */
export function nullableNumber(): Schema<number | null> {
  return checked('a number or null', (value) => value === null || Number.isFinite(value));
}

/* @__NO_SIDE_EFFECTS__ */
export function nullableString(): Schema<string | null> {
  return checked('a string or null', (value) => value === null || typeof value === 'string');
}

/* @__NO_SIDE_EFFECTS__ */
export function stringOrNumber(): Schema<string | number> {
  return checked('a string or a number', (value) => typeof value === 'string' || typeof value === 'number');
}

/** A JSON object with any keys: free-form settings such as an action's `config`. */
/* @__NO_SIDE_EFFECTS__ */
export function anyObject(): Schema<Record<string, unknown>> {
  return looseObject({});
}

/**
 * Turns zod's issues into the SDK's plain {@link Issue}s. zod's core carries no locale, so every message is
 * written here or in the schema; the offending value is never quoted (it may be a secret).
 *
 * @param at - where the checked value sits in the body, put before each issue's path: `['data']` for a list's items
 */
export function toIssues(error: z.core.$ZodError, at: readonly string[] = []): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    // zod types paths as PropertyKey[], but the schemas built here only ever put object keys (strings) and
    // array indexes (numbers) there: objects parse their shape's keys and `Object.keys` of the rest.
    const path = [...at, ...(issue.path as (string | number)[])];
    // One issue per unknown key, at that key, so `ValidationError.field` names it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known field', code: issue.code }));
    }
    return [{ path, message: describe(issue), code: issue.code }];
  });
}

// Only the issues the schemas built here can raise: a type mismatch, a refinement (whose message is its
// own), an unknown key (above). Another kind of check added to a schema would read "is invalid" until
// described here; so would zod's own message, which an app's zod locale could have set.
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return issue.message;
  if (issue.code !== 'invalid_type') return 'is invalid';
  if (issue.input === undefined) return 'is required';
  // "a string", "a number", "an array", "an object": the article by the type's first letter.
  return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
}

/**
 * Parses without throwing. `reportInput` puts the offending value on each zod issue, which {@link toIssues}
 * reads to tell a missing field from a wrong one; it never reaches an SDK error.
 */
export function safeParse<T>(schema: Schema<T>, value: unknown): z.core.util.SafeParseResult<T> {
  return z.safeParse(schema, value, { reportInput: true });
}

/**
 * Checks a caller's input before anything is sent; throws `ValidationError` naming every bad field.
 *
 * @param what - words for the message: `"input to workflows.create"`
 */
export function checkInput<T>(schema: Schema<T>, value: unknown, what: string): T {
  const result = safeParse(schema, value);
  if (!result.success) throw new ValidationError(what, toIssues(result.error));
  return result.data;
}

// The longest id sent: far past any real id, short enough that a URL holding it stays a usable size.
const MAX_ID_LENGTH = 1024;

/**
 * One path segment from a caller's id. Encoded, so an id can never change which endpoint is called; `.` and
 * `..` are refused because URL parsers resolve them (even encoded) into a different path.
 */
export function idSegment(id: unknown, what: string): string {
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  if (typeof id !== 'string' || id.trim() === '') {
    throw new ValidationError(what, [{ path: ['id'], message: 'must be a non-empty string', code: 'invalid_type' }]);
  }
  if (id === '.' || id === '..') {
    throw new ValidationError(what, [{ path: ['id'], message: 'must not be "." or ".."', code: 'invalid_value' }]);
  }
  if (id.length > MAX_ID_LENGTH) {
    throw new ValidationError(what, [{ path: ['id'], message: `is ${id.length} characters long; ids are at most ${MAX_ID_LENGTH}`, code: 'too_big' }]);
  }
  try {
    return encodeURIComponent(id);
  } catch {
    // A lone UTF-16 surrogate cannot be encoded: no URL can carry it.
    throw new ValidationError(what, [{ path: ['id'], message: 'is not valid Unicode', code: 'invalid_value' }]);
  }
}
