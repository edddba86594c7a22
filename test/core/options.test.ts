import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { checkRequestOptions, normaliseBaseUrl, readEnv } from '../../src/core/options.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://h.test', 'https://h.test', undefined],
    ['https://h.test/', 'https://h.test', undefined],
    ['https://h.test/v1', 'https://h.test', '/v1'],
    ['https://h.test/v1/', 'https://h.test', '/v1'],
    ['https://h.test/api/v1', 'https://h.test', '/api/v1'],
    ['https://h.test/base/api/v1//', 'https://h.test/base', '/api/v1'],
    ['http://127.0.0.1:4010/svc', 'http://127.0.0.1:4010/svc', undefined],
    [' https://h.test/x ', 'https://h.test/x', undefined],
  ])('%s → root %s, prefix %s', (input, root, prefix) => {
    expect(normaliseBaseUrl(input)).toEqual({ root, prefix });
  });

  it.each([
    ['https://h.test/x?q=1', 'baseUrl: must not contain a query'],
    ['https://h.test/x#f', 'baseUrl: must not contain a fragment'],
    ['https://user:pa55word@h.test/x', 'baseUrl: must not contain user:password@'],
    ['https://:pa55word@h.test', 'baseUrl: must not contain user:password@'],
  ])('refuses %s, which a request URL would drop, naming what and never the password', (input, message) => {
    const error = (() => {
      try {
        normaliseBaseUrl(input);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(ValidationError.is(error)).toBe(true);
    expect(error?.message).toContain(message);
    expect(error?.message).not.toContain('pa55word');
  });

  it('does not mistake a path that merely contains v1 for a prefix', () => {
    expect(normaliseBaseUrl('https://h.test/v10')).toEqual({ root: 'https://h.test/v10', prefix: undefined });
    expect(normaliseBaseUrl('https://h.test/apiv1')).toEqual({ root: 'https://h.test/apiv1', prefix: undefined });
  });
});

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
    expect(() => checkRequestOptions({ signal: new AbortController().signal, timeoutMs: 10, maxRetries: 0, headers: { 'x-a': 'b' } })).not.toThrow();
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
