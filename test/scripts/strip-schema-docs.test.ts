import { describe, expect, it } from 'vitest';
import { stripDocCalls } from '../../scripts/strip-schema-docs.js';

describe('stripDocCalls', () => {
  it('unwraps doc(schema, description) into the schema', () => {
    expect(stripDocCalls("const a = doc(z.string(), 'The name.');")).toBe('const a = z.string();');
  });

  it('keeps nested calls and arguments with commas and parentheses', () => {
    const source = "x = z.optional(doc(looseObject({ a: doc(z.string(), 'A, (really).'), b: f(1, 2) }), 'Outer.'));";
    expect(stripDocCalls(source)).toBe('x = z.optional(looseObject({ a: z.string(), b: f(1, 2) }));');
  });

  it('leaves other calls named doc alone', () => {
    expect(stripDocCalls('doc(x); obj.doc(a, b);')).toBe('doc(x); obj.doc(a, b);');
  });
});
