import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import {
  checkInput,
  httpUrl,
  idSegment,
  looseObject,
  nullableNumber,
  nullableString,
  openString,
  optional,
  positiveInt,
  refine,
  safeParse,
  snakeCaseId,
  string,
  stringOrNumber,
  toIssues,
  type Schema,
} from '../../src/core/schema.js';

/** The parsed value, or zod's error thrown. */
function parse<T>(schema: Schema<T>, value: unknown): T {
  const result = safeParse(schema, value);
  if (!result.success) throw result.error;
  return result.data;
}

describe('objects on Node', () => {
  it("use zod's compiled object parser", () => {
    expect(looseObject({})._zod.traits.has('$ZodObjectJIT')).toBe(true);
  });
});

// Where code generation is refused (browsers keep zod/mini's parser), zod checks field by field: same results.
describe.each([
  ['compiled', false],
  ['checked field by field', true],
])('looseObject, %s', (_, jitless) => {
  z.config({ jitless });
  const schema = looseObject({ id: string(), n: optional(nullableNumber()) });
  z.config({ jitless: false });

  it('keeps fields it does not know', () => {
    expect(parse(schema, { id: 'a', extra: { deep: [1] }, n: 2 })).toEqual({ id: 'a', extra: { deep: [1] }, n: 2 });
  });

  it('still checks the fields it knows', () => {
    const result = safeParse(schema, { id: 1 });
    expect(result.success).toBe(false);
    expect(toIssues(result.error!)).toEqual([{ path: ['id'], message: 'must be a string', code: 'invalid_type' }]);
  });

  it('says a missing field is required', () => {
    const result = safeParse(schema, {});
    expect(toIssues(result.error!)[0]?.message).toBe('is required');
  });

  it('does not let a __proto__ key change the result prototype', () => {
    const parsed = parse(schema, JSON.parse('{"id":"a","__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('field checks', () => {
  it('openString accepts any string', () => {
    expect(parse(openString<'a'>(), 'never-seen')).toBe('never-seen');
  });

  it('httpUrl accepts http(s) URLs only', () => {
    expect(safeParse(httpUrl(), 'https://x.test/a').success).toBe(true);
    expect(safeParse(httpUrl(), 'http://127.0.0.1:4010').success).toBe(true);
    expect(safeParse(httpUrl(), 'ftp://x.test').success).toBe(false);
    expect(safeParse(httpUrl(), 'not a url').success).toBe(false);
  });

  it('snakeCaseId accepts lower case with underscores', () => {
    expect(safeParse(snakeCaseId('send_message'), 'send_message').success).toBe(true);
    expect(safeParse(snakeCaseId('send_message'), 'google_sheets2').success).toBe(true);
    for (const bad of ['Slack', 'send-message', '_x', '2x', '', 'a b'])
      expect(safeParse(snakeCaseId('send_message'), bad).success).toBe(false);
  });
});

describe('types checked without a zod class of their own', () => {
  it.each([
    ['positiveInt', positiveInt(), [1, 50], [0, -1, 1.5, '2', Number.NaN, null], 'must be a whole number greater than 0'],
    ['nullableNumber', nullableNumber(), [0, 42.5, null], [Number.NaN, Infinity, '5', undefined], 'must be a number or null'],
    ['nullableString', nullableString(), ['', 'x', null], [0, false, {}, undefined], 'must be a string or null'],
    ['stringOrNumber', stringOrNumber(), ['a', 7], [null, true, [], undefined], 'must be a string or a number'],
  ] as const)('%s accepts what it names and refuses the rest, saying what it expects', (_, schema, good, bad, message) => {
    for (const value of good) expect(safeParse(schema, value).success).toBe(true);
    for (const value of bad) {
      const result = safeParse(schema, value);
      expect(result.success).toBe(false);
      expect(toIssues(result.error!)).toEqual([{ path: [], message, code: 'custom' }]);
    }
  });
});

describe('checkInput', () => {
  it('returns the parsed value', () => {
    expect(checkInput(looseObject({ a: string() }), { a: 'x', b: 1 }, 'input')).toEqual({ a: 'x', b: 1 });
  });

  it('throws ValidationError naming each field, never quoting a value', () => {
    const schema = looseObject({ secret: string().check(refine((value: string) => value.length >= 50, 'is too short')) });
    const error = (() => {
      try {
        checkInput(schema, { secret: 'hunter2-value' }, 'input to x');
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.message).toBe('Invalid input to x: secret: is too short');
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });
});

describe('idSegment', () => {
  it('encodes every character that could change the endpoint', () => {
    expect(idSegment('a b;c=d&e', 'id')).toBe('a%20b%3Bc%3Dd%26e');
    expect(idSegment('%2F', 'id')).toBe('%252F');
    expect(idSegment('ünï', 'id')).toBe('%C3%BCn%C3%AF');
    expect(idSegment(42, 'id')).toBe('42');
  });

  it.each(['', '  ', '.', '..', '%2E.', '../x', 'a/b', 'a\\b', 'a?b', 'a#b', null, undefined, {}])('refuses %j', (id) => {
    expect(() => idSegment(id, 'workflow id')).toThrow(ValidationError);
  });
});

describe('idSegment and lone surrogates', () => {
  it('refuses an id no URL can carry', () => {
    expect(() => idSegment('wf_\ud800', 'workflow id')).toThrow(/not valid Unicode/);
  });
});
