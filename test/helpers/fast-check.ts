/** Mutations of a valid input, for property tests of its checks. */
import fc from 'fast-check';

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
