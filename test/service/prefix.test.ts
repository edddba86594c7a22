import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { normaliseBaseUrl } from '../../src/service/prefix.js';

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
