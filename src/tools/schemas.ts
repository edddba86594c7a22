/**
 * A tool's arguments and result: the SDK's own schemas as Standard Schemas, so a tool host checks with the
 * SDK's rules and names the field as `ValidationError` does. Their JSON Schemas are made at build time, not
 * here (`scripts/mcp-schemas.mts`): zod's JSON Schema code would double the package's share of it.
 */
import { safeParse, toIssues, type Schema } from '../core/schema.js';

/** A schema as tool frameworks take it: a {@link https://standardschema.dev | Standard Schema}. */
export interface ToolSchema<T = unknown> {
  /** The Standard Schema properties. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: T; issues?: undefined } | { issues: readonly ToolIssue[] };
  };
}

/** One refused field: where it is and what is wrong. */
export interface ToolIssue {
  readonly message: string;
  readonly path: readonly (string | number)[];
}

// Which SDK schema a tool schema wraps: for the build step that makes its JSON Schema.
const wrapped = new WeakMap<ToolSchema, Schema>();

/** Wraps one of the SDK's schemas. */
export function toolSchema<T>(schema: Schema<T>): ToolSchema<T> {
  const made: ToolSchema<T> = {
    '~standard': {
      version: 1,
      vendor: 'workflow-automation-sdk',
      validate(value) {
        const result = safeParse(schema, value);
        return result.success ? { value: result.data } : { issues: toIssues(result.error) };
      },
    },
  };
  wrapped.set(made, schema);
  return made;
}

/** The SDK schema a tool schema wraps (for scripts and tests; not in the entry). */
export function schemaOf(schema: ToolSchema): Schema {
  return wrapped.get(schema)!;
}
