/**
 * Credential-named fields and headers (issue 35's fourth look): whatever the name's prefix, encoding or nesting,
 * whatever the value's type, and in whatever layout the service writes it (JSON, cut JSON, a form, XML), its
 * value is in no rendering of the error: a 400's `ApiError` and a 200's `ResponseValidationError`, both transports.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { count, renderings, secretHits } from './summary.js';

const TOK = 'tok_LEAKMEtokenvalue77';
const SHOWN = TOK.slice(4, 14);
const NUMBER = 98765432109876;
const NAMES = [
  'user_password',
  'db_secret',
  'bearer_token',
  'x-access-token',
  'userPassword',
  'clientSecret',
  'refreshToken',
  'private_key',
  'session_token',
  'auth.token',
];
const PAD = 'x'.repeat(66_000);

const BODIES: [name: string, body: string][] = [
  ['a percent-encoded `_` in a form name', `access%5Ftoken=${TOK}&error=bad`],
  ['a percent-encoded letter in a form name', `%74oken=${TOK}&error=bad`],
  ['a percent-encoded upper-case letter in a form name', `%54OKEN=${TOK}&error=bad`],
  ...NAMES.map((name): [string, string] => [`JSON ${name}`, JSON.stringify({ error: 'bad', [name]: TOK })]),
  ...NAMES.map((name): [string, string] => [`form ${name}`, `error=bad&${name}=${TOK}`]),
  ...NAMES.map((name): [string, string] => [`cut JSON ${name}`, `{"${name}":"${TOK}","error":"bad","pad":"${PAD}"}`]),
  ['a bracketed JSON key', JSON.stringify({ 'user[password]': TOK, error: 'bad' })],
  ['a bracketed form key', `user[password]=${TOK}&error=bad`],
  ['a bracketed form key, brackets encoded', `user%5Bpassword%5D=${TOK}&error=bad`],
  ['an XML element', `<error><token>${TOK}</token></error>`],
  ['an XML password element', `<error><password>${TOK}</password></error>`],
  ['an XML api_key element', `<error><api_key>${TOK}</api_key></error>`],
  ['an XML attribute', `<error token="${TOK}">bad</error>`],
  ['an object under a credential name', JSON.stringify({ error: 'bad', token: { value: TOK } })],
  ['a list under a credential name', JSON.stringify({ error: 'bad', password: [TOK] })],
  ['an object under a credential name, cut', `{"error":"bad","token":{"value":"${TOK}","n":[1]},"pad":"${PAD}"}`],
  ['a list under a credential name, cut', `{"error":"bad","password":["${TOK}"],"pad":"${PAD}"}`],
  ['an escaped name in cut JSON', `{"\\u0074oken":"${TOK}","error":"bad","pad":"${PAD}"}`],
  ['an escaped upper-case name in invalid JSON', `{"\\u0054OKEN":"${TOK}",`],
];

const HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-access-token', 'x-session-token'];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => server.close());

const client = () => new Client({ baseUrl: server.url, apiKey: 'wfa_live_namesKey_7Tq2', apiPrefix: '/v1', maxRetries: 0 });

function expectHidden(
  error: unknown,
  expectName: string,
  shown: string,
  expect: (v: unknown) => { toEqual: (x: unknown) => void; toBe: (x: unknown) => void },
) {
  const texts = renderings(error);
  count('secretSearches', texts.length);
  count('secretsFound', secretHits(texts, [shown]));
  expect(WfaError.is(error) ? error.name : String(error)).toBe(expectName);
  expect(texts.filter((t) => t.includes(shown))).toEqual([]);
}

describe('a credential-named field is hidden whatever its name, encoding, nesting or value', () => {
  for (const [name, body] of BODIES) {
    it(`${name}: a 400's ApiError`, async ({ expect }) => {
      server.otherwise({ kind: 'raw', status: 400, body, headers: { 'content-type': 'text/plain' } });
      const error = await client()
        .request({ method: 'GET', path: '/echo' })
        .catch((e: unknown) => e);
      expectHidden(error, 'BadRequestError', SHOWN, expect);
    });
    it(`${name}: a 200's ResponseValidationError`, async ({ expect }) => {
      server.otherwise({ kind: 'raw', status: 200, body, headers: { 'content-type': 'application/json' } });
      const error = await client()
        .workflows.get('wf_1')
        .catch((e: unknown) => e);
      expectHidden(error, 'ResponseValidationError', SHOWN, expect);
    });
  }

  it('a number under a credential name', async ({ expect }) => {
    server.otherwise({ kind: 'json', status: 400, body: { error: 'bad', pin_token: NUMBER, password: NUMBER } });
    const error = await client()
      .request({ method: 'GET', path: '/echo' })
      .catch((e: unknown) => e);
    expectHidden(error, 'BadRequestError', String(NUMBER), expect);
    expect((error as { body: unknown }).body).toEqual({ error: 'bad', pin_token: '[redacted]', password: '[redacted]' });
  });

  it('ordinary fields stay: tokens_used, max_tokens, a body without secrets', async ({ expect }) => {
    const body = { error: { message: 'quota', code: 'quota' }, tokens_used: 12, max_tokens: 4096, token_count: 3, keys: ['a'] };
    server.otherwise({ kind: 'json', status: 400, body });
    const error = await client()
      .request({ method: 'GET', path: '/echo' })
      .catch((e: unknown) => e);
    expect((error as { body: unknown }).body).toEqual(body);
    expect((error as Error).message).toContain('quota');
  });
});

describe('credential-named response headers are hidden in the error', () => {
  for (const header of HEADERS)
    it(header, async ({ expect }) => {
      server.otherwise({
        kind: 'raw',
        status: 400,
        body: '{"error":"bad"}',
        headers: { 'content-type': 'application/json', [header]: `Bearer ${TOK}`, 'x-request-id': 'req_1' },
      });
      const error = await client()
        .request({ method: 'GET', path: '/echo' })
        .catch((e: unknown) => e);
      expectHidden(error, 'BadRequestError', SHOWN, expect);
      expect((error as { headers: Record<string, string> }).headers[header]).toBe('[redacted]');
      expect((error as { requestId: string }).requestId).toBe('req_1');
    });
});
