import { describe, expect, test } from 'vitest';
import { hideQueryCredentials, hideUrl, hideUrlCredentials } from '../../src/cli/log-url.js';

describe('URLs in a log line', () => {
  test.each([
    ['?api_key=k1&limit=2', '?api_key=[redacted]&limit=2'],
    ['?access%5Ftoken=k1', '?access%5Ftoken=[redacted]'],
    ['?user%5Bpassword%5D=k1&page=3', '?user%5Bpassword%5D=[redacted]&page=3'],
    ['?name=token&key=', '?name=token&key=[redacted]'],
  ])('the query %s is shown as %s', (query, shown) => {
    expect(hideQueryCredentials(query)).toBe(shown);
  });

  test('a URL in text loses its user, password and credential fields, and keeps the rest', () => {
    const text = 'failed: cannot POST to http://u:p%40ss@host:1/a?secret=s&x=1#frag, nor https://h/b?sig=1';

    expect(hideUrlCredentials(text)).toBe(
      'failed: cannot POST to http://[redacted]@host:1/a?secret=[redacted]&x=1#frag, nor https://h/b?sig=1',
    );
  });

  // URL parsers read all of these as http://u:pw@host/hooks: a user and password fetch refuses and quotes as given.
  test.each([
    ['http:u:pw_B2@host:1/hooks'],
    ['http:/u:pw_B2@host:1/hooks'],
    ['http:\\\\u:pw_B2@host:1/hooks'],
    ['HTTP://u:pw_B2@host:1/hooks'],
    ['http://u:pw_\tB2@host:1/hooks'],
    ['http://u:pw_\nB2@host:1/hooks'],
  ])('the URL %j is shown as the parser reads it, without its user and password, alone and quoted in an error', (given) => {
    const shown = 'http://[redacted]@host:1/hooks';
    const error = `Request cannot be constructed from a URL that includes credentials: ${given}`;

    expect(hideUrl(given)).toBe(shown);
    expect(hideUrlCredentials(error, given)).toBe(`Request cannot be constructed from a URL that includes credentials: ${shown}`);
    expect(hideUrlCredentials(`failed: ${given.replace(/[\t\n]/g, '')} and more`)).toBe(`failed: ${shown} and more`);
  });
});
