/**
 * The schema helpers every resource uses, on `zod/mini` (why: docs/design.md, "Validation"), and the one place
 * where zod's results become SDK errors.
 */
import { $constructor, $ZodObject } from 'zod/v4/core';
import * as z from 'zod/mini';
import { onNode } from './choose-transport.js';
import { ValidationError, type Issue } from './errors.js';
import { unreadable } from './readable.js';
import { redact, usableSecrets } from './redact.js';
import { compiledObjects } from './node-parts.js';
import { climbs, isHttpUrl } from './url.js';

export type Schema<T = unknown> = z.core.$ZodType<T, T>;

// zod's own builders, as they are: each resource imports its schemas' parts from here.
export { array, optional, partial, string, unknown } from 'zod/mini';

// On Node, objects use the parser of classic zod, which compiles each shape once with `new Function`; elsewhere,
// zod/mini's, which checks field by field. Same schemas, same issues (docs/design.md, "Validation"). Not in
// browsers: zod's probe for `new Function` would be reported as a violation under a strict CSP, and only Node
// gets that parser (node-parts.ts).
type Init = (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => void;
const initObject: Init = (onNode() && compiledObjects?.()) || $ZodObject.init;
const initMini: Init = z.ZodMiniType.init;
const CheckedObject = $constructor('CheckedObject', (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
  initObject(inst, def);
  initMini(inst, def);
  inst.shape = def.shape;
});

export function looseObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$loose> {
  return new CheckedObject({ type: 'object', shape, catchall: z.unknown() }) as never;
}

export function strictObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$strict> {
  return new CheckedObject({ type: 'object', shape, catchall: z.never() }) as never;
}

// A failed check stops the checks after it (`abort`), so an object's check may rely on its fields' own.
export function refine<T>(fn: (value: T) => boolean, message: string, path?: string[]): z.core.$ZodCheck<T> {
  return z.refine<T>(fn, { error: message, path, abort: true });
}

/** True when A and B are the same type: mutual assignability would let an optional field or `any` slip by. */
type Same<A, B> = (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;

// Compiles only while the schema's type is exactly the interface beside it, so the two cannot drift apart.
export function parsesTo<T>(): <S extends Schema<T>>(
  schema: S &
    ([Same<z.output<S>, T>, Same<z.input<S>, T>] extends [true, true]
      ? unknown
      : { 'differs from the interface written beside it': never }),
) => Schema<T> {
  return (schema) => schema;
}

// Known values autocomplete, any other passes: the spec lists only values seen, and a new one must not break a caller.
export function openString<const Known extends string = never>(_known: readonly Known[] = []): Schema<Known | (string & {})> {
  return z.string() as Schema<Known | (string & {})>;
}

export function nonEmptyString(): z.ZodMiniString<string> {
  return z.string().check(refine((value: string) => value.length > 0, 'must not be empty'));
}

export function httpUrl(): z.ZodMiniString<string> {
  return z.string().check(refine(isHttpUrl, 'must be an http(s) URL'));
}

export function snakeCaseId(example: string): z.ZodMiniString<string> {
  return z.string().check(refine((value: string) => /^[a-z][a-z0-9_]*$/.test(value), `must be snake_case, like ${example}`));
}

// One `custom` serves the few small unions, each with a message that names it.
export function checked<T>(what: string, test: (value: unknown) => boolean): Schema<T> {
  return z.custom<T>(test, { error: `must be ${what}` });
}

export function positiveInt(): Schema<number> {
  return checked('a whole number greater than 0', (value) => Number.isInteger(value) && (value as number) > 0);
}

export function nullableNumber(): Schema<number | null> {
  return checked('a number or null', (value) => value === null || Number.isFinite(value));
}

export function nullableString(): Schema<string | null> {
  return checked('a string or null', (value) => value === null || typeof value === 'string');
}

export function stringOrNumber(): Schema<string | number> {
  return checked('a string or a number', (value) => typeof value === 'string' || typeof value === 'number');
}

/**
 * zod's core carries no locale, so every message is written here or in the schema; the offending value is
 * never quoted (it may be a secret). `at` prefixes each path: `['data']` for a list's items.
 */
export function toIssues(error: z.core.$ZodError, at: readonly string[] = []): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    // The schemas built here only put string keys and array indexes in a path.
    const path = [...at, ...(issue.path as (string | number)[])];
    // One issue per unknown key, at that key, so `ValidationError.field` names it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known field', code: issue.code }));
    }
    return [{ path, message: describe(issue), code: issue.code }];
  });
}

// Only the issues our schemas raise; zod's own message is never used, since an app's zod locale could set it.
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return issue.message;
  if (issue.code !== 'invalid_type') return 'is invalid';
  if (issue.input === undefined) return 'is required';
  return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
}

/** `reportInput` lets {@link toIssues} tell a missing field from a wrong one; the value never reaches an SDK error. */
export function safeParse<T>(schema: Schema<T>, value: unknown): z.core.util.SafeParseResult<T> {
  return z.safeParse(schema, value, { reportInput: true });
}

/**
 * `secrets` are removed from the issues, and so is a credential-named value: a path quotes the keys it names (a
 * header name `X-API-Key: sk_…`).
 */
export function checkInput<T>(schema: Schema<T>, value: unknown, what: string, secrets: readonly unknown[] = []): T {
  let result: z.core.util.SafeParseResult<T>;
  try {
    result = safeParse(schema, value);
  } catch {
    // A getter or a Proxy trap of the input threw: named, its own error (which may say anything) dropped.
    throw unreadable(what, value);
  }
  if (!result.success) throw new ValidationError(what, redact(toIssues(result.error), usableSecrets(secrets as (string | undefined)[])));
  return result.data;
}

// Far past any real id, short enough that a URL holding it stays a usable size.
const MAX_ID_LENGTH = 1024;

/**
 * Encoded, so an id can never change which endpoint is called. An id is one path segment: a dot segment (even
 * percent-encoded) or a separator (`/`, `\`, `?`, `#`) is refused, as in a caller's own path, since URL parsers
 * and gateways that decode `%2F` before normalising would resolve it into another path.
 */
export function idSegment(id: unknown, what: string): string {
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  // `what` names the id ("workflow id"); the issue's path is `id`, so the message says "id" once.
  const refuse = (message: string, code: string): never => {
    throw new ValidationError(what.replace(/ id\b/, ''), [{ path: ['id'], message, code }]);
  };
  if (typeof id !== 'string' || id.trim() === '') return refuse('must be a non-empty string', 'invalid_type');
  if (climbs(id)) return refuse('must not be or hold "." or ".." segments, plain or percent-encoded', 'invalid_value');
  if (/[/\\?#]/.test(id)) return refuse('must not hold "/", "\\", "?" or "#": an id is one path segment', 'invalid_value');
  if (id.length > MAX_ID_LENGTH) return refuse(`is ${id.length} characters long; ids are at most ${MAX_ID_LENGTH}`, 'too_big');
  try {
    return encodeURIComponent(id);
  } catch {
    // A lone UTF-16 surrogate cannot be encoded: no URL can carry it.
    return refuse('is not valid Unicode', 'invalid_value');
  }
}
