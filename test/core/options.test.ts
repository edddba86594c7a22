import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { readEnv } from '../../src/core/options.js';
import { checkRequestOptions } from '../../src/core/settings.js';

describe('readEnv', () => {
  it('reads a set variable, trimmed', () => {
    vi.stubEnv('WFA_TEST_VAR', '  value ');
    expect(readEnv('WFA_TEST_VAR')).toBe('value');
  });

  it('treats empty as unset', () => {
    vi.stubEnv('WFA_TEST_VAR', '');
    expect(readEnv('WFA_TEST_VAR')).toBeUndefined();
  });

  it('returns undefined where there is no process (browsers)', () => {
    vi.stubGlobal('process', undefined);
    try {
      expect(readEnv('WFA_API_KEY')).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('checkRequestOptions', () => {
  it('accepts what the types say', () => {
    expect(() =>
      checkRequestOptions({ signal: new AbortController().signal, timeoutMs: 10, maxRetries: 0, headers: { 'x-a': 'b' } }),
    ).not.toThrow();
  });

  it.each([
    ['a signal that is not one', { signal: 'soon' }, 'signal'],
    ['a negative timeout', { timeoutMs: -1 }, 'timeoutMs'],
    ['a fractional retry count', { maxRetries: 1.5 }, 'maxRetries'],
    ['a header value with a line break', { headers: { 'x-a': 'b\r\nx-evil: 1' } }, 'headers.x-a'],
    ['a header value past U+00FF', { headers: { 'x-a': '€' } }, 'headers.x-a'],
    ['a header name with a space', { headers: { 'x a': 'b' } }, 'headers.x a'],
  ])('refuses %s, naming it', (_, options, field) => {
    try {
      checkRequestOptions(options as never);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).field).toBe(field);
      expect((e as Error).message).not.toContain('x-evil');
    }
  });
});
