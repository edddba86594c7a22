/**
 * One rule for a key, whatever its source: the apiKey option, a key function, the key `Client.login` is issued
 * and `WFA_API_KEY`. The same table runs through each; errors name the rule and the source, never the key.
 */
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { ApiKeyError, Client } from '../../src/index.js';
import { createMockService, DEFAULT_MOCK_USER } from '../../src/testing/index.js';

const LINE_BREAK = 'holds a line break (CR or LF), which a header value cannot carry';
const CONTROL = 'holds a control character, which a header value cannot carry';
const WIDE = 'holds a character past U+00FF, which a header value cannot carry';
const EMPTY = 'is empty or not a string';

// [what, key as given, the key sent (after trimming) or the rule it breaks]
const KEYS: [string, string, { sent: string } | { rule: string }][] = [
  ['a plain key', 'wfa_live_SECRETplain0123', { sent: 'wfa_live_SECRETplain0123' }],
  ['spaces inside', 'wfa live SECRET inner 0123', { sent: 'wfa live SECRET inner 0123' }],
  ['a tab inside', 'wfa\tSECRETtab0123', { sent: 'wfa\tSECRETtab0123' }],
  ['whitespace around (trimmed)', '  wfa_SECRETpadded0123 \n', { sent: 'wfa_SECRETpadded0123' }],
  ['Latin-1 (up to U+00FF)', 'wfa_SECRETlatin_é_0123', { sent: 'wfa_SECRETlatin_é_0123' }],
  ['an empty string', '', { rule: EMPTY }],
  ['whitespace only', ' \t\n ', { rule: EMPTY }],
  ['an LF inside', 'wfa_SECRETline\nbreak0123', { rule: LINE_BREAK }],
  ['a CR inside', 'wfa_SECRETcarriage\rreturn0123', { rule: LINE_BREAK }],
  ['a CRLF and a header after it', 'wfa_SECRETsplit\r\nx-evil: 1', { rule: LINE_BREAK }],
  ['a BEL', 'wfa_SECRETbell\x07_0123', { rule: CONTROL }],
  ['a DEL', 'wfa_SECRETdel\x7f_0123', { rule: CONTROL }],
  ['Cyrillic', 'wfa_SECRETключ_0123', { rule: WIDE }],
  ['an emoji', 'wfa_SECRETemoji_😀', { rule: WIDE }],
];

const SOURCES = {
  option: { label: 'the apiKey option', client: (key: string, base: Base) => new Client({ ...base, apiKey: key }) },
  function: { label: 'the apiKey function', client: (key: string, base: Base) => new Client({ ...base, apiKey: async () => key }) },
  env: {
    label: 'WFA_API_KEY',
    client: (key: string, base: Base) => {
      vi.stubEnv('WFA_API_KEY', key);
      return new Client(base);
    },
  },
  login: { label: 'the key issuing response', client: (_key: string, base: Base) => Client.login({ ...base, ...DEFAULT_MOCK_USER }) },
} as const;

type Base = { baseUrl: string; fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>; maxRetries: number };

/** The mock service knows the key as sent; its key issuing answers with the key as given. */
function setup(given: string, sent: string | undefined) {
  const service = createMockService({ users: sent ? [{ email: 'table@example.com', password: 'pw', apiKey: sent }] : [] });
  const seen: string[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    seen.push(path);
    if (path === '/v1/auth') return Response.json({ api_key: given });
    return service.handle(request);
  };
  return { seen, base: { baseUrl: 'https://svc.test', fetch, maxRetries: 0 } };
}

describe.each(Object.entries(SOURCES))('a key from %s', (_name, source) => {
  it.each(KEYS)('%s', async (_what, given, expected) => {
    const { seen, base } = setup(given, 'sent' in expected ? expected.sent : undefined);
    const outcome = await (async () => (await source.client(given, base)).orders.list())().then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    );
    if ('sent' in expected) {
      // The mock answers 401 to any key but the one it knows: the key arrived exactly, trimmed.
      expect(outcome).toHaveProperty('page');
      expect(seen.at(-1)).toBe('/api/v1/orders');
      return;
    }
    const { error } = outcome as { error: Error };
    expect(ApiKeyError.is(error)).toBe(true);
    // WFA_API_KEY set to blanks is no key at all.
    const message =
      source.label === 'WFA_API_KEY' && expected.rule === EMPTY
        ? /^No API key/
        : `Unusable API key from ${source.label}: it ${expected.rule}`;
    expect(error.message).toMatch(message);
    expect(seen.filter((path) => path !== '/v1/auth')).toEqual([]);
    const shown = `${error.message}\n${inspect(error, { depth: Number.POSITIVE_INFINITY })}\n${JSON.stringify(error)}`;
    expect(shown).not.toContain('SECRET');
  });
});
