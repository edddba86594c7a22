/** What the property tests of the hand-written fast checks (`resources/workflows.ts`) share. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Schema, safeParse } from '../../src/core/schema.js';

/** Every field of a workflow's create input, as the dotted paths of {@link oneValueReplaced} (one action). */
export const CREATE_INPUT_PATHS = [
  'name',
  'platform',
  'trigger',
  'trigger.type',
  'trigger.url',
  'actions',
  'actions.0',
  'actions.0.app',
  'actions.0.action',
  'actions.0.config',
] as const;

/** `valid` with the value at one of `paths` (dotted, at any depth) replaced by one of `values`. */
export function oneValueReplaced(valid: object, paths: readonly string[], values: fc.Arbitrary<unknown>) {
  return fc.tuple(fc.constantFrom(...paths), values).map(([path, value]) => {
    const copy = structuredClone(valid) as Record<string, unknown>;
    const keys = path.split('.');
    let at = copy;
    for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
    at[keys.at(-1)!] = value;
    return copy;
  });
}

/** A fast check may refuse more than its schema (zod then names the field), never less. */
export function itAgreesWithSchema(plain: (value: unknown) => boolean, schema: Schema, cases: fc.Arbitrary<unknown>): void {
  it('never passes a value the schema refuses', () => {
    fc.assert(
      fc.property(cases, (value) => {
        if (plain(value)) expect(safeParse(schema, value).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('passes what the schema accepts, for these cases (so the fast path is the usual one)', () => {
    fc.assert(
      fc.property(cases, (value) => {
        if (safeParse(schema, value).success) expect(plain(value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
}
