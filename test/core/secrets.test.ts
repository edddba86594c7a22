import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { isCredentialName, REDACTED, redact, redactAndCut, redactText, safeCause, usableSecrets } from '../../src/core/redact.js';
import { secretForms } from '../../src/core/known-secrets.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';
import { BASE_URL, useService } from '../helpers/service.js';
import { captureLogger } from '../helpers/logger.js';

const server = useService();
const API_KEY = 'wfa_sk_live_0123456789';
const SAVED_KEY = 'shpat_third_party_9876543210';
const PASSWORD = 'correct-horse-battery';
const { lines, logger } = captureLogger();
const client = () => new Client({ baseUrl: BASE_URL, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 1, logger, logLevel: 'debug' });

/** Every way an error can be shown, cause chain included. */
function renderings(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as Error;
    out.push(
      String(err),
      err.message ?? '',
      err.stack ?? '',
      JSON.stringify(err) ?? '',
      inspect(err, { depth: Infinity, showHidden: true }),
    );
  }
  return out;
}

function expectNoSecret(error: unknown) {
  expect(error).toBeInstanceOf(WfaError);
  for (const text of [...renderings(error), ...lines]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(SAVED_KEY);
    expect(text).not.toContain(PASSWORD);
  }
}

const echo =
  (status: number) =>
  async ({ request }: { request: Request }) =>
    HttpResponse.json(
      {
        message: `rejected ${request.headers.get('x-api-key')} with ${await request.text()}`,
        echoed: { key: request.headers.get('x-api-key'), [request.headers.get('x-api-key') ?? 'none']: 1 },
      },
      { status },
    );

describe('secrets never appear in errors, their causes, or log lines', () => {
  it.each([400, 401, 403, 404, 422, 429, 500])('an error body echoing the API key (%i)', async (status) => {
    lines.length = 0;
    server.use(http.get(`${BASE_URL}/v1/workflows/wf_1`, echo(status)));
    const error = await client()
      .workflows.get('wf_1', { maxRetries: 0 })
      .catch((e: unknown) => e);
    expectNoSecret(error);
    expect(String(error)).toContain('[redacted]');
  });

  it('an error body echoing a saved integration key', async () => {
    lines.length = 0;
    server.use(http.post(`${BASE_URL}/v1/integrations`, echo(400)));
    const error = await client()
      .integrations.save({ platform: 'shopify', api_key: SAVED_KEY })
      .catch((e: unknown) => e);
    expectNoSecret(error);
  });

  it('a success body that echoes a saved key but fails validation', async () => {
    lines.length = 0;
    server.use(http.post(`${BASE_URL}/v1/integrations`, () => HttpResponse.json({ id: { bad: SAVED_KEY }, api_key: SAVED_KEY })));
    const error = await client()
      .integrations.save({ platform: 'shopify', api_key: SAVED_KEY })
      .catch((e: unknown) => e);
    expectNoSecret(error);
  });

  it('invalid input holding a saved key', async () => {
    const error = await client()
      // @ts-expect-error: platform is missing
      .integrations.save({ api_key: SAVED_KEY, label: 5 })
      .catch((e: unknown) => e);
    expectNoSecret(error);
  });

  it('a failed login echoing the password', async () => {
    lines.length = 0;
    server.use(http.post(`${BASE_URL}/v1/auth`, echo(401)));
    const error = await Client.login({ baseUrl: BASE_URL, email: 'a@b.test', password: PASSWORD, maxRetries: 0 }).catch((e: unknown) => e);
    expectNoSecret(error);
  });

  it('a login answer with no recognisable key hides the body', async () => {
    server.use(http.post(`${BASE_URL}/v1/auth`, () => HttpResponse.json({ secret_thing: API_KEY })));
    const error = await client()
      .auth.issueKey({ email: 'a@b.test', password: PASSWORD })
      .catch((e: unknown) => e);
    expectNoSecret(error);
  });

  it('an error body echoing the API key and the password in base64 and hex', async () => {
    lines.length = 0;
    const encoded = (text: string) => {
      const bytes = Buffer.from(text);
      return `${bytes.toString('base64')} ${bytes.toString('base64url')} ${bytes.toString('hex')} ${bytes.toString('hex').toUpperCase()}`;
    };
    server.use(
      http.get(`${BASE_URL}/v1/workflows/wf_1`, ({ request }) =>
        HttpResponse.json({ message: `rejected ${encoded(request.headers.get('x-api-key') ?? '')}` }, { status: 400 }),
      ),
      http.post(`${BASE_URL}/v1/auth`, async ({ request }) =>
        HttpResponse.json({ message: `bad ${encoded(((await request.json()) as { password: string }).password)}` }, { status: 401 }),
      ),
    );
    const errors = [
      await client()
        .workflows.get('wf_1', { maxRetries: 0 })
        .catch((e: unknown) => e),
      await Client.login({ baseUrl: BASE_URL, email: 'a@b.test', password: PASSWORD, maxRetries: 0 }).catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(WfaError);
      for (const text of [...renderings(error), ...lines]) {
        for (const form of [API_KEY, PASSWORD].flatMap((secret) => encoded(secret).split(' '))) expect(text).not.toContain(form);
      }
    }
  });

  it('a connection failure and a retry log line', async () => {
    lines.length = 0;
    let n = 0;
    const fetch = async () => {
      if (n++ === 0) return new Response('busy', { status: 503 });
      throw new TypeError(`fetch failed for ${API_KEY}`);
    };
    fakeClockInThisTest();
    const settled = await settle(
      new Client({ baseUrl: BASE_URL, apiKey: API_KEY, apiPrefix: '/v1', fetch, logger, logLevel: 'debug' }).workflows.get('wf_1'),
    );
    expect(settled.ok).toBe(false);
    const error = (settled as { error: unknown }).error;
    expect(lines.some((l) => l.includes('retry 1'))).toBe(true);
    expect((error as Error).message).not.toContain(API_KEY);
  });
});

describe('redact', () => {
  it('replaces secrets in strings, keys and nested values, copying only objects', () => {
    const out = redact({ a: 'x S3CR3T y', list: ['S3CR3T'], S3CR3T: 1, n: 2 }, ['S3CR3T']);
    expect(out).toEqual({ a: 'x [redacted] y', list: ['[redacted]'], '[redacted]': 1, n: 2 });
  });

  it('keeps a __proto__ key as data', () => {
    const out = redact(JSON.parse('{"__proto__":{"x":"SECRET"}}'), ['SECRET']) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
  });

  it('a blank credential value or secret hides nothing else: no pattern that matches every space', () => {
    expect(redact({ token: '        ', error: 'a b  c' }, ['    '])).toEqual({ token: '[redacted]', error: 'a b  c' });
    expect(redactText('password="        " error="a b c"', [])).toBe('password="[redacted]" error="a b c"');
  });

  it('a number equal to a secret is that secret; a number under a credential name hides its copies', () => {
    expect(redact({ key_id: 73019284561730, n: 12 }, ['73019284561730'])).toEqual({ key_id: '[redacted]', n: 12 });
    expect(redact({ token: 987654321012, error: 'token 987654321012 expired' }, [])).toEqual({
      token: '[redacted]',
      error: 'token [redacted] expired',
    });
  });

  it('only secrets long enough to search for are used', () => {
    expect(usableSecrets(['a', undefined, 'long_enough'])).toEqual(['long_enough']);
  });
});

describe('redactText', () => {
  const secret = 'pa"ss\\w rd/+é';
  it.each([
    ['as sent', secret],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(secret)],
    ['form-encoded', new URLSearchParams([['', secret]]).toString().slice(1)],
    ['base64-encoded', Buffer.from(secret).toString('base64')],
    ['base64-encoded without padding', Buffer.from(secret).toString('base64').replace(/=+$/, '')],
    ['base64url-encoded', Buffer.from(secret).toString('base64url')],
    [
      'base64url-encoded with padding',
      Buffer.from(secret)
        .toString('base64url')
        .padEnd(Math.ceil(Buffer.byteLength(secret) / 3) * 4, '='),
    ],
    ['hex-encoded', Buffer.from(secret).toString('hex')],
    ['hex-encoded in upper case', Buffer.from(secret).toString('hex').toUpperCase()],
    ['with \\u escapes past ASCII, as Python writes JSON', JSON.stringify(secret).slice(1, -1).replace('é', '\\u00e9')],
    ['with \\u escapes in upper case, as .NET writes JSON', 'pa\\u0022ss\\\\w rd/\\u002B\\u00E9'],
    ['with \\/ and \\u escapes, as PHP writes JSON', JSON.stringify(secret).slice(1, -1).replace('/', '\\/').replace('é', '\\u00e9')],
    ['HTML-escaped (&quot;)', secret.replace('"', '&quot;')],
    ['HTML-escaped (&#34;)', secret.replace('"', '&#34;')],
  ])('removes a secret %s', (_, form) => {
    expect(redactText(`before ${form} after`, [secret])).toBe('before [redacted] after');
  });

  const marked = `Ab&cd<ef>gh'ij`;
  it.each([
    ['as Go writes JSON', "Ab\\u0026cd\\u003cef\\u003egh'ij"],
    ['as .NET writes JSON', 'Ab\\u0026cd\\u003Cef\\u003Egh\\u0027ij'],
    ['as Python escapes HTML', 'Ab&amp;cd&lt;ef&gt;gh&#x27;ij'],
    ['as Go escapes HTML', 'Ab&amp;cd&lt;ef&gt;gh&#39;ij'],
    ['as PHP escapes HTML', 'Ab&amp;cd&lt;ef&gt;gh&#039;ij'],
  ])("removes a secret with <>&' %s", (_, form) => {
    expect(redactText(`before ${form} after`, [marked])).toBe('before [redacted] after');
  });

  // `X-API-Key` carries `é` as the one byte 0xE9 (Latin-1), a JSON body as 0xC3 0xA9 (UTF-8): both are echoed.
  it.each(['latin1', 'utf8'] as const)('removes the %s bytes of a secret, base64-, hex- and percent-encoded', (encoding) => {
    const key = 'wfa_live_\u00e9t\u00e9_0123';
    const bytes = Buffer.from(key, encoding);
    const percent = [...bytes]
      .map((b) => (b < 0x80 && /\w/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16)}`))
      .join('');
    const basic = Buffer.concat([Buffer.from('user:'), bytes]).toString('base64');
    for (const form of [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex').toUpperCase(),
      percent,
      percent.replace(/%../g, (digits) => digits.toUpperCase()),
    ])
      expect(redactText(`before ${form} after`, [key])).toBe('before [redacted] after');
    // Kept: the characters that hold "user:" and, at the end, the last bits of the key with the padding.
    expect(redactText(basic, [key])).toMatch(new RegExp(`^${basic.slice(0, 7)}\\[redacted\\].?=*$`));
  });

  it('a secret of letters, digits and `_` has no escaped forms: itself, base64 and hex, longest first', () => {
    const key = 'wfa_live_0123';
    const bytes = Buffer.from(key);
    const forms = secretForms(key);
    // Itself, hex in two cases with and without colons, base64 padded and not, and the three runs of characters it
    // decides inside a longer base64.
    expect(forms).toHaveLength(10);
    expect(forms).toEqual(
      expect.arrayContaining([
        key,
        bytes.toString('hex'),
        bytes.toString('hex').toUpperCase(),
        bytes.toString('hex').replace(/(..)(?!$)/g, '$1:'),
        bytes.toString('base64'),
        bytes.toString('base64url'),
      ]),
    );
    expect(forms.map((form) => form.length)).toEqual(forms.map((form) => form.length).sort((a, b) => b - a));
  });

  it('removes a secret as hex with colons between its bytes, in either case', () => {
    const key = 'wfa_live_0123';
    const colons = Buffer.from(key)
      .toString('hex')
      .replace(/(..)(?!$)/g, '$1:');
    expect(redactText(`fp ${colons} / ${colons.toUpperCase()}.`, [key])).toBe('fp [redacted] / [redacted].');
  });

  it.each(['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'])(
    'removes a secret with %j inserted anywhere inside it, in any of its forms',
    (mark) => {
      const key = 'wfa_live_0123';
      for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key).replace('_', '%5F')]) {
        for (let at = 1; at + 2 < form.length; at += 3) {
          const marked = `${form.slice(0, at)}${mark}${form.slice(at, at + 2)}${mark}${form.slice(at + 2)}`;
          expect(redactText(`a ${marked} b`, [key])).toBe('a [redacted] b');
        }
      }
    },
  );

  // HTTP Basic and similar: base64 of a longer value holding the secret (`shop:<key>`). Unless the bytes before it
  // are a multiple of 3, its base64 is not the secret's own; what decodes from the remaining text must not hold it.
  it('removes a secret inside a longer base64 or base64url value, whatever the bytes around it', () => {
    const recoverable = (text: string, secret: Buffer) =>
      text
        .split(REDACTED)
        .some((part) =>
          [0, 1, 2, 3].some((skip) => Buffer.from(part.slice(skip).replaceAll('-', '+').replaceAll('_', '/'), 'base64').includes(secret)),
        );
    const around = fc.string({ unit: fc.constantFrom('a', ':', 'é', '😀', '\n', '\u0000', 'ÿ'), maxLength: 8 });
    fc.assert(
      fc.property(
        around,
        fc.string({ unit: 'grapheme', minLength: 8, maxLength: 24 }),
        around,
        fc.boolean(),
        (before, secret, after, url) => {
          const encoded = Buffer.from(before + secret + after).toString(url ? 'base64url' : 'base64');
          const out = redactText(`Basic ${encoded}`, [secret]);
          expect(out).toContain(REDACTED);
          expect(recoverable(out, Buffer.from(secret))).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a base64 value holding a secret keeps its characters that are not the secret's alone", () => {
    const secret = 'shpat_0123456789abcdef';
    const basic = Buffer.from(`shop:${secret}`).toString('base64');
    const out = redactText(`Basic ${basic}`, [secret]);
    // Five bytes before: characters 0-6 hold "shop:" (the last of them two bits of the key too); 7 on, the key alone.
    expect(out).toBe(`Basic ${basic.slice(0, 7)}[redacted]`);
  });

  it('removes the head of a secret that a text ends with, from 4 characters on', () => {
    expect(redactText('echo: pa"ss\\w', [secret])).toBe('echo: [redacted]');
    expect(redactText('echo: pa"s', [secret])).toBe('echo: [redacted]');
    expect(redactText('echo: pa"', [secret])).toBe('echo: pa"');
  });

  it('removes the longest head a text ends with, when forms share their beginning', () => {
    // URL-encoded `%C3%A9'%C3%A9%20x` and form-encoded `%C3%A9%27%C3%A9+x`: the second's head `%C3%` ends this text too.
    expect(redactText(`echo: ${encodeURIComponent("é'é x").slice(0, 11)}`, ["é'é x"])).toBe('echo: [redacted]');
  });

  it('removes a percent-encoded head that ends inside an escape, however the characters before it were written', () => {
    // `é` as `%C3%A9`, cut after `%C3%A`; the characters before it encoded or not, in any case of hex digits.
    expect(redactText('echo: wfa%5flive_cl%C3%A', ['wfa_live_clé_0123'])).toBe('echo: [redacted]');
    expect(redactText('echo: %77%66%61%5F%6c', ['wfa_live_clé_0123'])).toBe('echo: [redacted]');
    expect(redactText('echo: wf%', ['wfa_live_clé_0123'])).toBe('echo: wf%');
  });

  it('hides a credential field in text once: redacting the result again changes nothing', () => {
    const once = redactText('error=bad,token=tok_value_0123 (credentials[token]=tok_other_4567)', []);
    expect(once).toBe('error=bad,token=[redacted] (credentials[token]=[redacted])');
    expect(redactText(once, [])).toBe(once);
  });

  it('redactAndCut removes a secret before cutting, so no part of it is left at the cut', () => {
    expect(redactAndCut(`${'x'.repeat(10)}${secret}tail`, [secret], 14)).toBe(`${'x'.repeat(10)}[red`);
    expect(redactAndCut(`${'x'.repeat(10)}${secret}`.slice(0, 16), [secret], 100)).toBe(`${'x'.repeat(10)}[redacted]`);
  });
});

describe('safeCause', () => {
  it('keeps name, network fields and causes, with secrets removed', () => {
    const raw = new TypeError(`fetch failed for ${API_KEY}`, {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED', port: 1, request: { headers: { 'x-api-key': API_KEY } } }),
    });
    const copy = safeCause(raw, [API_KEY]) as Error & { cause: Error & { code: string; port: number; request?: unknown } };
    expect(copy.name).toBe('TypeError');
    expect(copy.message).toBe('fetch failed for [redacted]');
    expect(copy.cause).toMatchObject({ code: 'ECONNREFUSED', port: 1 });
    expect(copy.cause.request).toBeUndefined();
    expect(inspect(copy, { depth: Infinity })).not.toContain(API_KEY);
  });
});

describe('redactText: fields named for a credential in text that is no parsed JSON', () => {
  it.each([
    ['a JSON string', '{"token":"t_1","m":"x"}', '{"token":"[redacted]","m":"x"}'],
    ['one cut inside its value', '{"error":{"access_token" : "at_1', '{"error":{"access_token" : "[redacted]"'],
    ['one cut after an escape', '{"password":"p\\', '{"password":"[redacted]"'],
    ['an escaped quote inside', '[{"client_secret":"a\\"b","n":1}]', '[{"client_secret":"[redacted]","n":1}]'],
    ['form fields', 'token=t_1&error=bad&api_key=k_2', 'token=[redacted]&error=bad&api_key=[redacted]'],
    ["a Python repr's single quotes", "{'password': 'it\\'s', 'n': 1}", "{'password': '[redacted]', 'n': 1}"],
    [
      'a prefixed name in any case style',
      'user_password=a db-secret=b clientSecret=c auth.token=d',
      'user_password=[redacted] db-secret=[redacted] clientSecret=[redacted] auth.token=[redacted]',
    ],
    ['a cursor named like a credential (hidden: harmless)', 'page_token=c', 'page_token=[redacted]'],
    ['a name percent-encoded', 'access%5Ftoken=a&%74oken=b&%54OKEN=c', 'access%5Ftoken=[redacted]&%74oken=[redacted]&%54OKEN=[redacted]'],
    ['a name JSON-escaped', '{"\\u0074oken":"a","n":1}', '{"\\u0074oken":"[redacted]","n":1}'],
    ['a bracketed name', 'user[password]=a&user%5Bpassword%5D=b', 'user[password]=[redacted]&user%5Bpassword%5D=[redacted]'],
    ['XML elements and attributes', '<e token="a"><api_key>b</api_key>ok</e>', '<e token="[redacted]"><api_key>[redacted]</api_key>ok</e>'],
    ['a structure under a credential name, to its end', '{"token":{"v":"a]}","w":[1]},"n":1}', '{"token":[redacted],"n":1}'],
    ['a structure cut before its end', '{"password":["a","b', '{"password":[redacted]'],
    ['a number', '{"pin_token":12345,"n":1}', '{"pin_token":[redacted],"n":1}'],
    ['`key` alone', '?key=AIza0123&monkey=1', '?key=[redacted]&monkey=1'],
    ['a query inside a URL', '?next=%2Fa%3Fpassword%3Dp1%26b%3D1', '?next=%2Fa%3Fpassword%3D[redacted]'],
    ['a body serialised twice', '"{\\"token\\":\\"tok_1\\",\\"m\\":\\"x\\"}"', '"{\\"token\\":\\"[redacted]\\",\\"m\\":\\"x\\"}"'],
    ['a prefixed name serialised twice', '{\\"x_token\\": \\"tok_1\\"}', '{\\"x_token\\": \\"[redacted]\\"}'],
    [
      'an escaped quote inside a value serialised twice',
      '{\\"password\\":\\"a\\\\\\"b\\",\\"n\\":1}',
      '{\\"password\\":\\"[redacted]\\",\\"n\\":1}',
    ],
    ['a name after an escape', '"line\\ntoken=t_1"', '"line\\ntoken=[redacted]"'],
    [
      'an Authorization header of any common scheme',
      'authorization: Token t1, authorization: Digest d1',
      'authorization: Token [redacted], authorization: Digest [redacted]',
    ],
  ])('%s (redacting it again changes nothing)', (_, text, shown) => {
    expect(redactText(text, [])).toBe(shown);
    expect(redactText(shown, [])).toBe(shown);
  });

  it('leaves names that only contain a credential word, not as their last word, alone', () => {
    const text = '{"tokens":"a","secretary":"b","tokens_used":12,"token_type":"bearer"} max_tokens=5&next_token_id=d';
    expect(redactText(text, [])).toBe(text);
  });

  it('in a parsed body, hides a credential-named field whatever its value, and copies of what it held', () => {
    const body = { token: { value: 'tok_held_0123' }, password: ['pw_held_4567'], n: 1, note: 'was tok_held_0123' };
    expect(redact(body, [])).toEqual({ token: '[redacted]', password: '[redacted]', n: 1, note: 'was [redacted]' });
  });
});

describe('isCredentialName: the one rule', () => {
  it.each([
    'token',
    'user_password',
    'x-access-token',
    'userPassword',
    'clientSecret',
    'private_key',
    'set-cookie',
    'proxy-authorization',
    'x-api-key',
    'credentials',
    'user[password]',
    'key',
  ])('%s is a credential name', (name) => expect(isCredentialName(name)).toBe(true));
  it.each(['tokens_used', 'token_type', 'max_tokens', 'secretary', 'keys', 'monkey', 'public_key_id', 'x-request-id'])(
    '%s is not',
    (name) => expect(isCredentialName(name)).toBe(false),
  );
});
