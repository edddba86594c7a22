/**
 * The public resource types are generated from the schemas (scripts/gen-types.ts). These fail when the
 * committed file is stale, and pin down how the generator turns each kind of schema into a type.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { anyObject, doc, looseObject, openString, stringOrNumber } from '../../src/core/schema.js';
import { OUTPUT, generateTypes } from '../../scripts/gen-types.js';

describe(OUTPUT, () => {
  it('is what the schemas generate', () => {
    const committed = readFileSync(new URL(`../../${OUTPUT}`, import.meta.url), 'utf8');
    expect(committed, `${OUTPUT} is out of date: run \`npm run gen:types\``).toBe(generateTypes());
  });
});

describe('the generator', () => {
  const status = openString(['on', "it's"]);

  it('writes fields, optional and nullable values, arrays, open strings and loose objects', () => {
    const schema = looseObject({
      id: doc(stringOrNumber(), 'The id.'),
      state: doc(status, 'The state.'),
      mode: doc(openString(['a', 'b']), 'An unnamed open string.'),
      note: z.optional(doc(z.nullable(z.string()), 'A note.')),
      count: doc(z.number(), 'A count.'),
      flag: z.optional(doc(z.boolean(), 'A flag.')),
      raw: z.optional(doc(z.unknown(), 'Anything.')),
      settings: doc(anyObject(), 'Free-form.'),
      tags: doc(z.array(z.string()), 'Tags.'),
      'odd-key': doc(z.string(), 'Quoted.'),
    });
    const text = generateTypes([
      { name: 'Status', schema: status, doc: 'The known states.' },
      { name: 'Thing', schema, doc: 'A thing.' },
    ]);
    expect(text).toContain("/** The known states. */\nexport type Status = 'on' | 'it\\'s';");
    expect(text).toContain(
      [
        '/** A thing. */',
        'export interface Thing {',
        '  /** The id. */',
        '  id: string | number;',
        '  /** The state. */',
        '  state: Status | (string & {});',
        '  /** An unnamed open string. */',
        "  mode: 'a' | 'b' | (string & {});",
        '  /** A note. */',
        '  note?: string | null | undefined;',
        '  /** A count. */',
        '  count: number;',
        '  /** A flag. */',
        '  flag?: boolean | undefined;',
        '  /** Anything. */',
        '  raw?: unknown;',
        '  /** Free-form. */',
        '  settings: Record<string, unknown>;',
        '  /** Tags. */',
        '  tags: string[];',
        '  /** Quoted. */',
        "  'odd-key': string;",
      ].join('\n'),
    );
    expect(text).toMatch(/ {2}\[key: string\]: unknown;\n\}\n$/);
  });

  it('gives a closed object no index signature', () => {
    const text = generateTypes([{ name: 'Closed', schema: z.object({ a: doc(z.string(), 'A.') }), doc: 'Closed.' }]);
    expect(text).not.toContain('[key: string]');
  });

  it('refuses a field without a description', () => {
    expect(() => generateTypes([{ name: 'T', schema: looseObject({ a: z.string() }), doc: 'T.' }])).toThrow(
      'T.a has no description: wrap its schema in doc()',
    );
  });

  it('refuses a zod type it does not know, rather than mistype it', () => {
    const schema = looseObject({ a: doc(z.union([z.string(), z.number()]), 'A.') });
    expect(() => generateTypes([{ name: 'T', schema, doc: 'T.' }])).toThrow('does not know the zod type "union"');
  });
});
