/** The SDK's schemas as JSON Schema, through zod's public `toJSONSchema`: for `openapi.json` and the tools' arguments and results. */
import * as z from 'zod/mini';
import type { Schema } from '../core/schema.js';

// A `custom` schema (the SDK's small unions) has no JSON Schema: the kinds it accepts are found with the public
// safeParse, a kind with any of its samples (a URL for a string that must be one). `integer` is named only when a
// number with a fraction is refused; a schema that accepts every kind stays `{}`.
const KINDS: Record<string, unknown[]> = {
  string: ['a', 'https://example.com/'],
  integer: [1],
  number: [0.5],
  null: [null],
  boolean: [true],
};
const probe = (schema: z.core.$ZodType) => {
  const kinds = Object.keys(KINDS).filter((type) => KINDS[type]!.some((sample) => z.safeParse(schema, sample).success));
  return kinds.includes('number') ? kinds.filter((kind) => kind !== 'integer') : kinds;
};
const override = ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: object }) => {
  const kinds = Object.keys(jsonSchema).length === 0 ? probe(zodSchema) : [];
  if (kinds.length > 0 && kinds.length < 4) Object.assign(jsonSchema, { type: kinds });
};

/** A schema as JSON Schema (draft 2020-12): what it takes (`input`) or what it gives (`output`). */
export function jsonSchemaOf(schema: Schema, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', override }) as Record<string, unknown>;
}
