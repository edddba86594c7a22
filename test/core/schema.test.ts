import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import * as z from 'zod/mini';
import { checkInput, httpUrl, idSegment, looseObject, openString, snakeCaseId, toIssues } from '../../src/core/schema.js';

describe('looseObject', () => {
  const schema = looseObject({ id: z.string(), n: z.optional(z.number()) });

  it('keeps fields it does not know', () => {
    expect(schema.parse({ id: 'a', extra: { deep: [1] }, n: 2 })).toEqual({ id: 'a', extra: { deep: [1] }, n: 2 });
  });

  it('still checks the fields it knows', () => {
    const result = schema.safeParse({ id: 1 }, { reportInput: true });
    expect(result.success).toBe(false);
    expect(toIssues(result.error!)).toEqual([{ path: ['id'], message: 'must be a string', code: 'invalid_type' }]);
  });

  it('says a missing field is required', () => {
    const result = schema.safeParse({}, { reportInput: true });
    expect(toIssues(result.error!)[0]?.message).toBe('is required');
  });

  it('does not let a __proto__ key change the result prototype', () => {
    const parsed = schema.parse(JSON.parse('{"id":"a","__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('field checks', () => {
  it('openString accepts any string', () => {
    expect(openString<'a'>().parse('never-seen')).toBe('never-seen');
  });

  it('httpUrl accepts http(s) URLs only', () => {
    expect(httpUrl().safeParse('https://x.test/a').success).toBe(true);
    expect(httpUrl().safeParse('http://127.0.0.1:4010').success).toBe(true);
    expect(httpUrl().safeParse('ftp://x.test').success).toBe(false);
    expect(httpUrl().safeParse('not a url').success).toBe(false);
  });

  it('snakeCaseId accepts lower case with underscores', () => {
    expect(snakeCaseId().safeParse('send_message').success).toBe(true);
    expect(snakeCaseId().safeParse('google_sheets2').success).toBe(true);
    for (const bad of ['Slack', 'send-message', '_x', '2x', '', 'a b']) expect(snakeCaseId().safeParse(bad).success).toBe(false);
  });
});

describe('checkInput', () => {
  it('returns the parsed value', () => {
    expect(checkInput(looseObject({ a: z.string() }), { a: 'x', b: 1 }, 'input')).toEqual({ a: 'x', b: 1 });
  });

  it('throws ValidationError naming each field, never quoting a value', () => {
    const schema = looseObject({ secret: z.string().check(z.minLength(50, 'is too short')) });
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
    expect(idSegment('a/b?c#d', 'id')).toBe('a%2Fb%3Fc%23d');
    expect(idSegment('%2F', 'id')).toBe('%252F');
    expect(idSegment('ünï', 'id')).toBe('%C3%BCn%C3%AF');
    expect(idSegment(42, 'id')).toBe('42');
  });

  it.each(['', '  ', '.', '..', null, undefined, {}])('refuses %j', (id) => {
    expect(() => idSegment(id, 'workflow id')).toThrow(ValidationError);
  });
});

describe('idSegment and lone surrogates', () => {
  it('refuses an id no URL can carry', () => {
    expect(() => idSegment('wf_\ud800', 'workflow id')).toThrow(/not well-formed Unicode/);
  });
});
