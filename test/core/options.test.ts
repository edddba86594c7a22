import { describe, expect, it, vi } from 'vitest';
import { normaliseBaseUrl, readEnv } from '../../src/core/options.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://h.test', 'https://h.test', undefined],
    ['https://h.test/', 'https://h.test', undefined],
    ['https://h.test/v1', 'https://h.test', '/v1'],
    ['https://h.test/v1/', 'https://h.test', '/v1'],
    ['https://h.test/api/v1', 'https://h.test', '/api/v1'],
    ['https://h.test/base/api/v1//', 'https://h.test/base', '/api/v1'],
    ['http://127.0.0.1:4010/svc', 'http://127.0.0.1:4010/svc', undefined],
    [' https://h.test/x?q=1#f ', 'https://h.test/x', undefined],
  ])('%s → root %s, prefix %s', (input, root, prefix) => {
    expect(normaliseBaseUrl(input)).toEqual({ root, prefix });
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
