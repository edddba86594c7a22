import { describe, expect, it, vi } from 'vitest';
import { readEnv } from '../../src/core/options.js';

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
