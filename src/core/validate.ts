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
 * optionals, arrays, objects that keep or refuse unknown keys, custom refinements). A schema holding anything
 * else gets no check and is always parsed by zod. Where the check and zod could differ, it declines: a field
 * named like a key every object inherits, an own `__proto__` key (zod leaves it out of its copy), a refinement
 * that returns anything but `true`.
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
// False once `Function` was refused: tried again, it would only add CSP violation reports.
let compiles = true;

/**
 * Validates a response body: the body itself when it is valid (as zod would have returned it, without the
 * copy), else zod's result. Never throws for a body; like {@link safeParse}, answers with a result.
 */
export function validateResponse<T>(schema: Schema<T>, value: unknown): core.util.SafeParseResult<T> {
  return passes(schema, value) ? { success: true, data: value as T } : safeParse(schema, value);
}

/**
 * True when `value` is certainly valid, with nothing allocated; false when zod must decide (it may still
 * find the value valid). For a caller's input, check a copy the caller cannot change: the check reads each
 * field once, and a getter read again later could answer differently.
 *
 * @example
 * ```ts
 * const query = { ...params };
 * if (!passes(ParamsSchema, query)) checkInput(ParamsSchema, query, 'input to orders.list');
 * ```
 */
export function passes(schema: Schema, value: unknown): boolean {
  let check = checks.get(schema);
  if (check === undefined) checks.set(schema, (check = compile(schema) ?? null));
  return check !== null && check(value);
}

/**
 * Reads a schema into its check: the source of one function, with each field read by name, so that the
 * engine sees one object shape per call site (a check made of one closure per schema node ran 8 µs per
 * 20 items, this one under 1 µs). Where `Function` is refused (a strict CSP, Cloudflare Workers), there is
 * no check and zod parses every body, as it would anyway; it is tried once, not once per schema.
 */
function compile(schema: core.$ZodType): Check | undefined {
  const refinements: unknown[] = [];
  let names = 0;
  /** Statements that `return false` unless the value in variable `v` passes `node`; `undefined`: no check. */
  const emit = (node: core.$ZodType, v: string): string | undefined => {
    const def = node._zod.def as Def;
    let code: string | undefined;
    switch (def.type) {
      case 'unknown':
        code = '';
        break;
      case 'string':
        code = def.coerce ? undefined : `if(typeof ${v}!=="string")return false;`;
        break;
      case 'optional': {
        const inner = def.innerType && emit(def.innerType, v);
        code = inner && `if(${v}!==undefined){${inner}}`;
        break;
      }
      case 'array': {
        const i = `i${names++}`;
        const item = `v${names++}`;
        const element = def.element && emit(def.element, item);
        code = element && `if(!Array.isArray(${v}))return false;for(let ${i}=0;${i}<${v}.length;${i}++){const ${item}=${v}[${i}];${element}}`;
        break;
      }
      case 'object':
        code = def.shape && emitObject(def.shape, def.catchall, v);
    }
    for (const check of def.checks ?? []) {
      const checkDef = check._zod.def as core.$ZodCheckDef & { fn?: unknown };
      if (code === undefined || checkDef.check !== 'custom' || checkDef.when || !checkDef.fn) return undefined;
      // Anything but `true` (a truthy number, a promise) is left for zod to judge.
      code += `if(f[${refinements.push(checkDef.fn) - 1}](${v})!==true)return false;`;
    }
    return code;
  };
  /**
   * Objects that keep unknown keys (catchall `unknown`) or refuse them (`never`) have a check; zod's copy of
   * any other leaves keys out. An own `__proto__` key (JSON.parse makes one from `"__proto__": …`) is left out
   * of zod's copy, so such an object is zod's to parse.
   */
  const emitObject = (shape: Record<string, core.$ZodType>, catchall: core.$ZodType | undefined, v: string) => {
    const rest = catchall?._zod.def;
    if ((rest?.type !== 'unknown' && rest?.type !== 'never') || rest.checks?.length) return undefined;
    let code = `if(typeof ${v}!=="object"||${v}===null||Array.isArray(${v})||Object.hasOwn(${v},"__proto__"))return false;`;
    for (const [key, field] of Object.entries(shape)) {
      // A key that objects inherit (`constructor`, `toString`…) reads the prototype's value when absent.
      if (key in Object.prototype) return undefined;
      const value = `v${names++}`;
      const check = emit(field, value);
      if (check === undefined) return undefined;
      // `undefined` (never in JSON) is taken for a missing key: fine for an optional field, zod's call otherwise.
      const required = field._zod.optin === 'optional' && field._zod.optout === 'optional' ? '' : `if(${value}===undefined)return false;`;
      code += `const ${value}=${v}[${JSON.stringify(key)}];${required}${check}`;
    }
    if (rest.type === 'never') code += `for(const k in ${v})if(!Object.hasOwn(f[${refinements.push(shape) - 1}],k))return false;`;
    return code;
  };
  const body = compiles ? emit(schema, 'v') : undefined;
  if (body === undefined) return undefined;
  try {
    return new Function('f', `return v=>{${body}return true}`)(refinements) as Check;
  } catch {
    compiles = false;
    return undefined;
  }
}
