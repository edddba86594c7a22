import { describe, expect, it } from 'vitest';
import { isHttpUrl } from '../../src/core/url.js';

describe('isHttpUrl', () => {
  it.each(['https://example.com', 'http://127.0.0.1:4010/hook?x=1', 'HTTPS://EXAMPLE.COM/a'])('accepts %s', (url) => {
    expect(isHttpUrl(url)).toBe(true);
  });

  it.each(['ftp://example.com', 'javascript:alert(1)', 'mailto:a@b.c', '/relative/path', 'example.com', '', 'http//x'])(
    'refuses %j',
    (url) => {
      expect(isHttpUrl(url)).toBe(false);
    },
  );
});
