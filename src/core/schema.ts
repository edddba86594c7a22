/**
 * The zod building blocks every resource schema uses, and the one place zod's results become SDK errors.
 *
 * Why zod's core classes and not `zod/mini` or `zod`: the SDK calls one thing on a schema, `safeParse`. `zod`
 * costs 26 KB of a browser bundle and `zod/mini` 6 KB, of which about 1 KB is its wrapper classes: methods
 * on every schema the SDK never calls (`parse`, `parseAsync`, `clone`, `brand`, `register`…) and the
 * parameter handling behind them. The builders below construct zod's own core classes (`zod/v4/core`, the
 * layer zod documents for libraries built on it) with the same definitions `zod/mini` would make, so parsing,
 * issues and error paths are zod's, unchanged.
 *
 * Why objects use zod's interpreted `$ZodObject`, not `$ZodObjectJIT`: a valid response is checked by
 * `validate.ts`, which never calls zod's parser; what zod parses is a caller's input (a few fields) or a body
 * already found invalid. The JIT would cost 1.1 KB of every browser bundle for neither, and needs `eval`.
 *
 * Why the builders are marked `@__NO_SIDE_EFFECTS__`: a bundler may then drop a schema nobody uses, so an app
 * that imports only the error classes from the root entry does not carry the client's schemas (or zod).
 *
 * Why the helpers below use {@link refine} rather than zod's `minLength`, `regex`, `int`, `union` or
 * `record`: each of those brings its own implementation into a browser bundle (200-700 bytes gzip apiece),
 * while one refinement serves them all, with the same messages.
 *
 * @example
 * ```ts
 * const Item = looseObject({ id: string(), note: optional(nullable(string())) });
 * const item = checkInput(Item, data, 'item'); // throws ValidationError naming each bad field
 * ```
 */
import * as core from 'zod/v4/core';
import { ValidationError, type Issue } from './errors.js';
import { isHttpUrl } from './url.js';

/** Any schema built here, by what it produces. */
export type Schema<T = unknown> = core.$ZodType<T, T>;

/** A check on an already typed value, with the message shown when it returns false. */
type Refinement = core.$ZodCustom;

/**
 * A check for a schema's `checks`: `fn` returning false adds an issue with `message`, at the field's path
 * (and under `path` within it: an object's check that names one of its fields). zod runs it only when the
 * value passed its type check; a failed refinement stops the checks after it (`abort`), so an object's check
 * may rely on every field having passed its own.
 *
 * @example
 * ```ts
 * const even = number(refine((n: number) => n % 2 === 0, 'must be even'));
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function refine<T>(fn: (value: T) => boolean, message: string, path?: string[]): Refinement {
  return new core.$ZodCustom({ type: 'custom', check: 'custom', fn: fn as (value: unknown) => boolean, error: () => message, path, abort: true });
}

/** A string. */
/* @__NO_SIDE_EFFECTS__ */
export function string(...checks: Refinement[]): core.$ZodString<string> {
  return new core.$ZodString({ type: 'string', checks }) as core.$ZodString<string>;
}

/** Any value, kept as received. */
/* @__NO_SIDE_EFFECTS__ */
export function unknown(...checks: Refinement[]): core.$ZodUnknown {
  return new core.$ZodUnknown({ type: 'unknown', checks });
}

/** `T` or a missing field. */
/* @__NO_SIDE_EFFECTS__ */
export function optional<T extends core.$ZodType>(innerType: T): core.$ZodOptional<T> {
  return new core.$ZodOptional({ type: 'optional', innerType }) as core.$ZodOptional<T>;
}

/** An array of `T`. */
/* @__NO_SIDE_EFFECTS__ */
export function array<T extends core.$ZodType>(element: T): core.$ZodArray<T> {
  return new core.$ZodArray({ type: 'array', element }) as core.$ZodArray<T>;
}

/**
 * The same fields, each optional: an update's shape from a create's.
 *
 * @example
 * ```ts
 * const Changes = looseObject(optionalFields({ name: nonEmptyString() })); // { name?: string }
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function optionalFields<Shape extends core.$ZodShape>(shape: Shape): { [K in keyof Shape]: core.$ZodOptional<Shape[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, optional(field)])) as {
    [K in keyof Shape]: core.$ZodOptional<Shape[K]>;
  };
}

/**
 * An object schema that keeps unknown fields (the service may add fields at any time; dropping them would
 * lose data the caller can see in the raw response). For responses.
 */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<Shape extends core.$ZodLooseShape>(
  shape: Shape,
  ...checks: Refinement[]
): core.$ZodObject<Shape, core.$loose> {
  return new core.$ZodObject({ type: 'object', shape, catchall: unknown(), checks }) as core.$ZodObject<Shape, core.$loose>;
}

/**
 * An object schema that refuses unknown fields, each reported at its key: for a caller's input, where an
 * unknown field is a typo that would otherwise be dropped without a word.
 */
/* @__NO_SIDE_EFFECTS__ */
export function strictObject<Shape extends core.$ZodShape>(shape: Shape): core.$ZodObject<Shape, core.$strict> {
  return new core.$ZodObject({ type: 'object', shape, catchall: new core.$ZodNever({ type: 'never' }) }) as core.$ZodObject<
    Shape,
    core.$strict
  >;
}

/**
 * What scripts/gen-types.ts reads of a schema beyond its zod definition when it writes the public
 * interfaces (src/resources/types.generated.ts). Kept in a WeakMap of our own rather than zod's global
 * registry: that one is shared with an app's own zod schemas and would add its code to browser bundles.
 */
export interface SchemaDoc {
  /** The field's doc comment in the generated interface. */
  readonly description?: string;
  /** An open string's known values, listed in its type before `(string & {})`. */
  readonly known?: readonly string[];
  /** The TypeScript type where the zod definition cannot tell it: a refine that narrows `unknown`. */
  readonly type?: string;
}

const docs = new WeakMap<object, SchemaDoc>();

/**
 * Documents a schema field, once, next to its checks: the generated interface carries `description` as the
 * field's doc comment. Apply it to the schema that carries the checks (it is recorded on that object).
 */
/* @__NO_SIDE_EFFECTS__ */
export function doc<S extends core.$ZodType>(schema: S, description: string): S {
  docs.set(schema, { ...docs.get(schema), description });
  return schema;
}

/** What {@link doc} and the helpers below recorded of a schema, for the type generator. */
export function docOf(schema: object): SchemaDoc | undefined {
  return docs.get(schema);
}

/** True when A and B are the same type: mutual assignability would let an optional field or `any` slip by. */
type Same<A, B> = (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;

/**
 * Types a schema by the interface generated from it, so that what it parses is named by that interface.
 * Compiles only when the schema's own inferred type is exactly that interface: a schema changed without
 * `npm run gen:types` fails the type check here, where it is defined.
 *
 * @example
 * ```ts
 * export const OrderSchema = parsesTo<Order>()(looseObject({ id: stringOrNumber() }));
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function parsesTo<T>(): <S extends Schema<T>>(
  schema: S &
    ([Same<core.output<S>, T>, Same<core.input<S>, T>] extends [true, true]
      ? unknown
      : { 'differs from its generated interface: run npm run gen:types': never }),
) => Schema<T> {
  return (schema) => schema;
}

/**
 * A string whose known values autocomplete while any other value still type-checks and validates: the spec
 * lists only the values it has seen, and a new one must never break a caller (`'building' | (string & {})`).
 * The values are kept at runtime too, for the type generator.
 */
/* @__NO_SIDE_EFFECTS__ */
export function openString<const Known extends string = never>(
  known: readonly Known[] = [],
): Schema<Known | (string & {})> {
  const schema = string();
  docs.set(schema, { known });
  return schema as Schema<Known | (string & {})>;
}

/** A non-empty string, with a message that says so. */
/* @__NO_SIDE_EFFECTS__ */
export function nonEmptyString(): core.$ZodString<string> {
  return string(refine((value: string) => value.length > 0, 'must not be empty'));
}

/** An `http:` or `https:` URL. */
/* @__NO_SIDE_EFFECTS__ */
export function httpUrl(): core.$ZodString<string> {
  return string(
    refine(isHttpUrl, 'must be an http(s) URL'),
  );
}

/** Lower case letters, digits and underscores, starting with a letter: the spec's app and action identifiers. */
/* @__NO_SIDE_EFFECTS__ */
export function snakeCaseId(): core.$ZodString<string> {
  return string(
    refine((value: string) => /^[a-z][a-z0-9_]*$/.test(value), 'must be snake_case, like send_message'),
  );
}

/**
 * A value of type `T` that `test` recognises, else an issue saying `must be <what>`; `type` is `T` as the type
 * generator writes it. For the few types not worth a zod class of their own in every browser bundle (zod's
 * number and nullable cost about 0.2 KB gzip, for four fields and two parameters).
 *
 * @example
 * ```ts
 * const positiveMs = checked<number>('number', 'a number greater than 0', (v) => typeof v === 'number' && v > 0);
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function checked<T>(type: string, what: string, test: (value: unknown) => boolean): Schema<T> {
  const schema = unknown(refine(test, `must be ${what}`));
  docs.set(schema, { type });
  return schema as Schema<T>;
}

/** A positive whole number, for `page` and `limit`. */
/* @__NO_SIDE_EFFECTS__ */
export function positiveInt(): Schema<number> {
  return checked('number', 'a whole number greater than 0', (value) => Number.isInteger(value) && (value as number) > 0);
}

/** A finite number or `null`, such as a build's `progress`. */
/* @__NO_SIDE_EFFECTS__ */
export function nullableNumber(): Schema<number | null> {
  return checked('number | null', 'a number or null', (value) => value === null || Number.isFinite(value));
}

/** A string or `null`. */
/* @__NO_SIDE_EFFECTS__ */
export function nullableString(): Schema<string | null> {
  return checked('string | null', 'a string or null', (value) => value === null || typeof value === 'string');
}

/** An id the service may send as a string or a number. */
/* @__NO_SIDE_EFFECTS__ */
export function stringOrNumber(): Schema<string | number> {
  return checked('string | number', 'a string or a number', (value) => typeof value === 'string' || typeof value === 'number');
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
export function toIssues(error: core.$ZodError, at: readonly string[] = []): Issue[] {
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
function describe(issue: core.$ZodIssue): string {
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
export function safeParse<T>(schema: Schema<T>, value: unknown): core.util.SafeParseResult<T> {
  return core.safeParse(schema, value, { reportInput: true });
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

/**
 * One path segment from a caller's id. Encoded, so an id can never change which endpoint is called; `.` and
 * `..` are refused because URL parsers resolve them (even encoded) into a different path.
 */
/** The longest id sent: far past any real id, short enough that a URL holding it stays a usable size. */
const MAX_ID_LENGTH = 1024;

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
