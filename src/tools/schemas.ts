/** A tool's arguments and result: the SDK's own schemas, as Standard Schemas that also give their JSON Schema. */
import { safeParse, toIssues, type Schema } from '../core/schema.js';
import { jsonSchemaOf } from './json-schema.js';

/**
 * A schema as tool frameworks take it ({@link https://standardschema.dev | Standard Schema} with its JSON
 * Schema): `validate` is the check the SDK itself runs, so a refusal names the field as the SDK's
 * `ValidationError` does.
 */
export interface ToolSchema<T = unknown> {
  /** The Standard Schema and Standard JSON Schema properties. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: T; issues?: undefined } | { issues: readonly ToolIssue[] };
    readonly jsonSchema: {
      readonly input: (options?: object) => Record<string, unknown>;
      readonly output: (options?: object) => Record<string, unknown>;
    };
  };
}

/** One refused field: where it is and what is wrong. */
export interface ToolIssue {
  readonly message: string;
  readonly path: readonly (string | number)[];
}

/** Wraps one of the SDK's schemas; its JSON Schema is made once, on first use. */
export function toolSchema<T>(schema: Schema<T>): ToolSchema<T> {
  const made: Partial<Record<'input' | 'output', Record<string, unknown>>> = {};
  const json = (io: 'input' | 'output') => (made[io] ??= jsonSchemaOf(schema, io));
  return {
    '~standard': {
      version: 1,
      vendor: 'workflow-automation-sdk',
      validate(value) {
        const result = safeParse(schema, value);
        return result.success ? { value: result.data } : { issues: toIssues(result.error) };
      },
      jsonSchema: { input: () => json('input'), output: () => json('output') },
    },
  };
}
