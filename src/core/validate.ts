/**
 * Response validation: a check-only pass first, zod's parser when it fails.
 *
 * Why not zod alone: zod builds a new value as it parses (a copy of every object and array, and a result
 * object for every field it visits). For a valid 20-item list that is about 27 KB of garbage per request,
 * more than twice what `JSON.parse` of the body allocates, and the largest cost the SDK added to a list call
 * over hand-written `fetch`. A valid body needs none of it: its copy equals the body. So each schema is read
 * once into a plain function that only answers "valid?", allocating nothing, and a body it accepts is
 * returned as parsed. A body it does not accept goes to zod, whose result (data or issues) is the answer: the
 * check decides nothing but when zod's copy can be skipped.
 *
 * The check is built only from what it can match exactly: the classes `schema.ts` builds (strings, unknowns,
 * optionals, arrays, objects that keep unknown keys, custom refinements). A schema holding anything else gets no
 * check and is always parsed by zod. Where the check and zod could differ, it declines: a field named like a
 * key every object inherits, an own `__proto__` key (zod leaves it out of its copy), a refinement that returns
 * anything but `true`.
 *
 * @example
 * ```ts
 * const result = validateResponse(WorkflowSchema, JSON.parse(text));
 * if (!result.success) throw new ResponseValidationError({ body, issues: toIssues(result.error), method, url });
 * ```
 */
import type * as core from 'zod/v4/core';
import { safeParse, type Schema } from './schema.js';

/** True when the value is valid; false when zod must decide. Never throws on JSON, allocates nothing. */
type Check = (value: unknown) => boolean;

/** The parts of a zod definition the check reads; the rest of a definition means "no check". */
type Def = core.$ZodTypeDef & {
  innerType?: core.$ZodType;
  element?: core.$ZodType;
  shape?: Record<string, core.$ZodType>;
  catchall?: core.$ZodType;
  coerce?: boolean;
};

// `null`: the schema holds something the check cannot match; zod parses it every time.
const checks = new WeakMap<object, Check | null>();

/**
 * Validates a response body: the body itself when it is valid (as zod would have returned it, without the
 * copy), else zod's result. Never throws for a body; like {@link safeParse}, answers with a result.
 */
export function validateResponse<T>(schema: Schema<T>, value: unknown): core.util.SafeParseResult<T> {
  let check = checks.get(schema);
  if (check === undefined) checks.set(schema, (check = compile(schema) ?? null));
  return check?.(value) ? { success: true, data: value as T } : safeParse(schema, value);
}

/** Reads a schema into its check, or `undefined` when it holds a class or option the check cannot match. */
function compile(schema: core.$ZodType): Check | undefined {
  const def = schema._zod.def as Def;
  const refinements: ((value: unknown) => unknown)[] = [];
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def as core.$ZodCheckDef & { fn?: (value: unknown) => unknown };
    if (checkDef.check !== 'custom' || checkDef.when || !checkDef.fn) return undefined;
    refinements.push(checkDef.fn);
  }
  const type = compileType(def);
  if (!type) return undefined;
  if (!refinements.length) return type;
  return (value) => {
    if (!type(value)) return false;
    for (const fn of refinements) if (fn(value) !== true) return false;
    return true;
  };
}

function compileType(def: Def): Check | undefined {
  switch (def.type) {
    case 'unknown':
      return () => true;
    case 'string':
      return def.coerce ? undefined : (value) => typeof value === 'string';
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner && ((value) => value === undefined || inner(value));
    }
    case 'array': {
      const element = def.element && compile(def.element);
      return (
        element &&
        ((value) => {
          if (!Array.isArray(value)) return false;
          for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
          return true;
        })
      );
    }
    case 'object':
      return def.shape && compileObject(def.shape, def.catchall);
    default:
      return undefined;
  }
}

/**
 * An object's check. Only objects that keep unknown keys (catchall `unknown`) have one: zod's copy of any
 * other leaves keys out or refuses them, which a response check has no use for.
 */
function compileObject(shape: Record<string, core.$ZodType>, catchall: core.$ZodType | undefined): Check | undefined {
  if (catchall?._zod.def.type !== 'unknown' || catchall._zod.def.checks?.length) return undefined;
  const keys: string[] = [];
  const fieldChecks: Check[] = [];
  const optional: boolean[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const check = compile(field);
    // A key that objects inherit (`constructor`, `__proto__`…) reads the prototype's value when absent.
    if (!check || key in Object.prototype) return undefined;
    keys.push(key);
    fieldChecks.push(check);
    optional.push(field._zod.optin === 'optional' && field._zod.optout === 'optional');
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    for (let i = 0; i < keys.length; i++) {
      const field = (value as Record<string, unknown>)[keys[i]!];
      // JSON has no `undefined`: it is a missing key, fine only for an optional field.
      if (field === undefined ? !optional[i] : !fieldChecks[i]!(field)) return false;
    }
    // zod leaves an own `__proto__` key (JSON.parse makes one from `"__proto__": …`) out of its copy.
    return !Object.hasOwn(value, '__proto__');
  };
}
