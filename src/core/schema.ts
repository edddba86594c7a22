/**
 * The zod building blocks every resource schema uses, and the one place zod's results become SDK errors.
 *
 * Why `zod/mini` plus a JIT object: `zod/mini` keeps the browser bundle near 6 KB where `zod` costs 26 KB,
 * but its object parser is interpreted and validates a 1000-item list in about 1.4x its `JSON.parse` time.
 * zod's core ships the JIT-compiled object parser that full `zod` uses (`$ZodObjectJIT`); wiring it into a
 * mini object brings validation to about 0.5x `JSON.parse` for a few hundred bytes. Where `eval` is forbidden
 * (strict CSP), zod falls back to the interpreted parser on its own.
 *
 * Why the helpers below use `refine` rather than zod's `minLength`, `regex`, `int`, `union` or `record`: each
 * of those brings its own implementation into a browser bundle (200-700 bytes gzip apiece), while one `refine`
 * serves them all, with the same messages.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';
import { ValidationError, type Issue } from './errors.js';

// Never re-export `z` from here: a re-exported namespace defeats tree-shaking and drags every zod locale
// (80 KB gzip) into browser bundles. Each module imports `zod/mini` itself.

type Init = (inst: z.ZodMiniObject, def: z.ZodMiniObject['_zod']['def']) => void;
const initJitObject: Init = core.$ZodObjectJIT.init;
const initMiniType: Init = z.ZodMiniType.init;
const JitLooseObject = core.$constructor('ZodMiniObject', (inst: z.ZodMiniObject, def: z.ZodMiniObject['_zod']['def']) => {
  initJitObject(inst, def);
  initMiniType(inst, def);
});

/**
 * An object schema that keeps unknown fields (the service may add fields at any time; dropping them would
 * lose data the caller can see in the raw response).
 */
export function looseObject<Shape extends core.$ZodLooseShape>(shape: Shape): z.ZodMiniObject<Shape, core.$loose> {
  return new JitLooseObject({ type: 'object', shape, catchall: z.unknown() }) as unknown as z.ZodMiniObject<
    Shape,
    core.$loose
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
 * field's doc comment. Apply it last (`.check()` makes a new schema, which would not carry it).
 */
export function doc<S extends z.ZodMiniType>(schema: S, description: string): S {
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
export function parsesTo<T>(): <S extends z.ZodMiniType<T, T>>(
  schema: S &
    ([Same<z.output<S>, T>, Same<z.input<S>, T>] extends [true, true]
      ? unknown
      : { 'differs from its generated interface: run npm run gen:types': never }),
) => z.ZodMiniType<T, T> {
  return (schema) => schema;
}

/**
 * A string whose known values autocomplete while any other value still type-checks and validates: the spec
 * lists only the values it has seen, and a new one must never break a caller (`'building' | (string & {})`).
 * The values are kept at runtime too, for the type generator.
 */
export function openString<const Known extends string = never>(
  known: readonly Known[] = [],
): z.ZodMiniType<Known | (string & {}), Known | (string & {})> {
  const schema = z.string();
  docs.set(schema, { known });
  return schema as z.ZodMiniType<Known | (string & {}), Known | (string & {})>;
}

/** A non-empty string, with a message that says so. */
export function nonEmptyString(): z.ZodMiniString<string> {
  return z.string().check(z.refine((value) => value.length > 0, 'must not be empty'));
}

/** An `http:` or `https:` URL. */
export function httpUrl(): z.ZodMiniType<string, string> {
  return z.string().check(
    z.refine((value) => {
      if (!URL.canParse(value)) return false;
      const protocol = new URL(value).protocol;
      return protocol === 'http:' || protocol === 'https:';
    }, 'must be an http(s) URL'),
  );
}

/** Lower case letters, digits and underscores, starting with a letter: the spec's app and action identifiers. */
export function snakeCaseId(): z.ZodMiniString<string> {
  return z.string().check(
    z.refine((value) => /^[a-z][a-z0-9_]*$/.test(value), 'must be lower case letters, digits and underscores, starting with a letter'),
  );
}

/** A positive whole number, for `page` and `limit`. */
export function positiveInt(): z.ZodMiniNumber<number> {
  return z.number().check(z.refine((value) => Number.isInteger(value) && value > 0, 'must be a whole number greater than 0'));
}

/** An id the service may send as a string or a number. */
export function stringOrNumber(): z.ZodMiniType<string | number, string | number> {
  const schema = z.unknown().check(
    z.refine((value) => typeof value === 'string' || typeof value === 'number', 'must be a string or a number'),
  );
  docs.set(schema, { type: 'string | number' });
  return schema as z.ZodMiniType<string | number, string | number>;
}

/** A JSON object with any keys: free-form settings such as an action's `config`. */
export function anyObject(): z.ZodMiniType<Record<string, unknown>, Record<string, unknown>> {
  return looseObject({});
}

const typeNames: Record<string, string> = { array: 'an array', object: 'an object' };

/**
 * Turns zod's issues into the SDK's plain {@link Issue}s. `zod/mini` carries no locale, so every message is
 * written here or in the schema; the offending value is never quoted (it may be a secret).
 */
export function toIssues(error: core.$ZodError): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const path = issue.path.map(pathKey);
    // One issue per unknown key, at that key, so `ValidationError.field` names it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known field', code: issue.code }));
    }
    return [{ path, message: describe(issue), code: issue.code }];
  });
}

function pathKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

function describe(issue: core.$ZodIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${typeNames[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return 'is invalid';
  }
}

/**
 * Checks a caller's input before anything is sent; throws `ValidationError` naming every bad field.
 *
 * @param what - words for the message: `"input to workflows.create"`
 */
export function checkInput<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new ValidationError(what, toIssues(result.error));
  return result.data;
}

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
  try {
    return encodeURIComponent(id);
  } catch {
    // A lone UTF-16 surrogate cannot be encoded: no URL can carry it.
    throw new ValidationError(what, [{ path: ['id'], message: 'is not well-formed Unicode', code: 'invalid_value' }]);
  }
}
