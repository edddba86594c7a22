/**
 * The signature presets at the public API: each through `createWebhookHandler`, where a delivery that fails
 * is answered 401 without running the handler; Standard Webhooks against the `standardwebhooks` package.
 */
import { inspect } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  hmacSha256,
  signWebhook,
  standardWebhooks,
  ValidationError,
  WfaError,
  type WebhookSignaturePreset,
} from '../../src/webhooks/index.js';

const HMAC_SECRET = 'hmac-secret-4f1d9c2b7a';
// Standard Webhooks' own example secret: `whsec_` and 24 bytes in base64.
const SW_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SW_KEY_BASE64 = SW_SECRET.slice('whsec_'.length);
const OTHER_SW_SECRET = 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCEh';
const body = createWebhookBody({ workflow_id: 'wf_42', data: { download_url: 'https://files.example.com/wf_42.zip' } });

/** Posts `payload` with `headers` to a handler verified by `verify`; says how it answered and whether the handler ran. */
async function deliver(verify: WebhookSignaturePreset, headers: Record<string, string>, payload: string = body) {
  const handled = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({ verify, on: { 'build.completed': handled }, onError });
  const response = await handler(
    new Request('https://example.com/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    }),
  );
  return { status: response.status, ran: handled.mock.calls.length > 0, onError };
}

/** The body with one character changed: what an attacker who swapped the download URL sends. */
const tampered = body.replace('wf_42.zip', 'wf_43.zip');

/** Fakes only `Date`, from now to the end of the test: Web Crypto and the handler's timers stay real. */
function clockAt(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
  onTestFinished(() => void vi.useRealTimers());
}

describe.each([
  { name: 'hex', options: { encoding: 'hex' as const }, header: 'x-signature' },
  { name: 'base64', options: { encoding: 'base64' as const }, header: 'x-signature' },
  { name: 'hex after a prefix (GitHub style)', options: { prefix: 'sha256=' }, header: 'x-hub-signature-256' },
])('hmacSha256, $name', ({ options, header }) => {
  const verify = hmacSha256({ secret: HMAC_SECRET, header, ...options });

  it('accepts a delivery it signed, and runs the handler', async () => {
    const headers = await signWebhook(verify, body);
    expect(Object.keys(headers)).toEqual([header]);
    expect(await deliver(verify, headers)).toMatchObject({ status: 200, ran: true });
  });

  it('answers 401 to a tampered body, a wrong secret, a missing or a malformed header, without running the handler', async () => {
    const headers = await signWebhook(verify, body);
    const value = headers[header] ?? '';
    const wrongSecret = await signWebhook(hmacSha256({ secret: `${HMAC_SECRET}x`, header, ...options }), body);
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['tampered body', headers, tampered],
      ['wrong secret', wrongSecret],
      ['missing header', {}],
      ['signature in another header', { 'x-other': value }],
      ['empty header', { [header]: '' }],
      ['truncated signature', { [header]: value.slice(0, -4) }],
      ['not the encoding', { [header]: `${value.slice(0, -2)}!!` }],
      ['prefix only', { [header]: options.prefix ?? 'sha256=' }],
    ];
    for (const [what, sent, payload] of cases) {
      const result = await deliver(verify, sent, payload);
      expect({ what, status: result.status, ran: result.ran }).toEqual({ what, status: 401, ran: false });
      // A forged delivery is not an error of the receiver: nothing is reported.
      expect(result.onError).not.toHaveBeenCalled();
    }
  });
});

describe('hmacSha256 details', () => {
  it('accepts upper-case hex and surrounding spaces, and signs with exactly the bytes given', async () => {
    const verify = hmacSha256({ secret: new TextEncoder().encode(HMAC_SECRET), header: 'X-Signature' });
    const { 'x-signature': signature = '' } = await signWebhook(verify, new TextEncoder().encode(body));
    // The same key as the string secret's UTF-8 bytes, and the digest of node:crypto.
    const { createHmac } = await import('node:crypto');
    expect(signature).toBe(createHmac('sha256', HMAC_SECRET).update(body).digest('hex'));
    expect(await deliver(verify, { 'x-signature': ` ${signature.toUpperCase()} ` })).toMatchObject({ status: 200, ran: true });
  });
});

describe('standardWebhooks', () => {
  const verify = standardWebhooks({ secret: SW_SECRET });

  it('accepts a delivery it signed: webhook-id, webhook-timestamp (seconds) and a v1 signature', async () => {
    const headers = await signWebhook(verify, body, { id: 'msg_1' });
    expect(headers).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': expect.stringMatching(/^\d{10}$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(await deliver(verify, headers)).toMatchObject({ status: 200, ran: true });
  });

  it('gives each delivery a new random id unless told one', async () => {
    const [first, second] = await Promise.all([signWebhook(verify, body), signWebhook(verify, body)]);
    expect(first['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(first['webhook-id']).not.toBe(second['webhook-id']);
  });

  it('answers 401 to a tampered body, id or timestamp, a wrong secret, missing or malformed headers', async () => {
    const headers = await signWebhook(verify, body, { id: 'msg_1' });
    const signature = headers['webhook-signature'] ?? '';
    const wrongSecret = await signWebhook(standardWebhooks({ secret: OTHER_SW_SECRET }), body, { id: 'msg_1' });
    const { 'webhook-id': _id, ...noId } = headers;
    const { 'webhook-timestamp': _timestamp, ...noTimestamp } = headers;
    const { 'webhook-signature': _signature, ...noSignature } = headers;
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['tampered body', headers, tampered],
      ['another id', { ...headers, 'webhook-id': 'msg_2' }],
      ['another timestamp', { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) }],
      ['wrong secret', wrongSecret],
      ['no webhook-id', noId],
      ['no webhook-timestamp', noTimestamp],
      ['no webhook-signature', noSignature],
      ['timestamp not a number', { ...headers, 'webhook-timestamp': `${headers['webhook-timestamp']}.5` }],
      ['timestamp in milliseconds', { ...headers, 'webhook-timestamp': `${headers['webhook-timestamp']}000` }],
      ['no version', { ...headers, 'webhook-signature': signature.slice(3) }],
      ['another version', { ...headers, 'webhook-signature': signature.replace('v1,', 'v2,') }],
      ['asymmetric version', { ...headers, 'webhook-signature': signature.replace('v1,', 'v1a,') }],
      ['not base64', { ...headers, 'webhook-signature': `${signature.slice(0, -2)}*=` }],
      ['truncated', { ...headers, 'webhook-signature': signature.slice(0, 20) }],
    ];
    for (const [what, sent, payload] of cases) {
      const result = await deliver(verify, sent, payload);
      expect({ what, status: result.status, ran: result.ran }).toEqual({ what, status: 401, ran: false });
      expect(result.onError).not.toHaveBeenCalled();
    }
  });

  it('accepts any valid signature of a space-separated list, as while a secret is rotated', async () => {
    const headers = await signWebhook(verify, body, { id: 'msg_1' });
    const old = await signWebhook(standardWebhooks({ secret: OTHER_SW_SECRET }), body, {
      id: 'msg_1',
      timestamp: new Date(Number(headers['webhook-timestamp']) * 1000),
    });
    const list = `${old['webhook-signature']} v2,abcd ${headers['webhook-signature']}`;
    expect(await deliver(verify, { ...headers, 'webhook-signature': list })).toMatchObject({ status: 200, ran: true });
  });

  it('refuses a timestamp more than 5 minutes old or ahead, and accepts one at the bound', async () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    clockAt(now);
    const at = async (offsetSeconds: number) => {
      const headers = await signWebhook(verify, body, { timestamp: new Date(now + offsetSeconds * 1000) });
      return (await deliver(verify, headers)).status;
    };
    expect(await at(-300)).toBe(200);
    expect(await at(300)).toBe(200);
    expect(await at(-301)).toBe(401);
    expect(await at(301)).toBe(401);
    expect(await at(-24 * 3600)).toBe(401);
  });

  it('takes its tolerance from toleranceSeconds', async () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    clockAt(now);
    const strict = standardWebhooks({ secret: SW_SECRET, toleranceSeconds: 10 });
    const tenOld = await signWebhook(strict, body, { timestamp: new Date(now - 10_000) });
    const elevenOld = await signWebhook(strict, body, { timestamp: new Date(now - 11_000) });
    expect((await deliver(strict, tenOld)).status).toBe(200);
    expect((await deliver(strict, elevenOld)).status).toBe(401);
  });

  it('toleranceSeconds: 0 accepts a delivery signed in the current second, and refuses one a second away', async () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0) + 700; // mid-second: the timestamp has whole seconds only
    clockAt(now);
    const exact = standardWebhooks({ secret: SW_SECRET, toleranceSeconds: 0 });
    expect((await deliver(exact, await signWebhook(exact, body, { timestamp: new Date(now) }))).status).toBe(200);
    expect((await deliver(exact, await signWebhook(exact, body, { timestamp: new Date(now - 1_000) }))).status).toBe(401);
    expect((await deliver(exact, await signWebhook(exact, body, { timestamp: new Date(now + 1_000) }))).status).toBe(401);
  });

  it('checks the first 10 signatures of the list, as documented: a valid one 10th is accepted, 11th is not', async () => {
    const headers = await signWebhook(verify, body);
    const others = Array.from({ length: 10 }, (_, i) => `v1,${btoa(String(i).padStart(32, '0'))}`);
    const at = (position: number) =>
      [...others.slice(0, position - 1), headers['webhook-signature'], ...others.slice(position - 1)].join(' ');
    expect((await deliver(verify, { ...headers, 'webhook-signature': at(10) })).status).toBe(200);
    expect((await deliver(verify, { ...headers, 'webhook-signature': at(11) })).status).toBe(401);
  });

  it('takes the secret with or without whsec_, or as the key bytes', async () => {
    const headers = await signWebhook(verify, body);
    const bytes = Uint8Array.from(atob(SW_KEY_BASE64), (char) => char.charCodeAt(0));
    for (const secret of [SW_KEY_BASE64, bytes]) {
      expect((await deliver(standardWebhooks({ secret }), headers)).status).toBe(200);
    }
  });
});

describe('standardWebhooks interoperates with the standardwebhooks package', () => {
  const library = new Webhook(SW_SECRET);
  const verify = standardWebhooks({ secret: SW_SECRET });

  it('the package verifies what signWebhook signs, and refuses it once tampered', async () => {
    const headers = await signWebhook(verify, body, { id: 'msg_interop' });
    expect(library.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => library.verify(tampered, headers)).toThrow('No matching signature found');
  });

  it('the preset verifies what the package signs, and refuses it once tampered', async () => {
    const timestamp = new Date();
    const headers = {
      'webhook-id': 'msg_from_package',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': library.sign('msg_from_package', timestamp, body),
    };
    expect(await deliver(verify, headers)).toMatchObject({ status: 200, ran: true });
    expect(await deliver(verify, headers, tampered)).toMatchObject({ status: 401, ran: false });
  });

  it('both refuse a stale delivery', async () => {
    const old = new Date(Date.now() - 10 * 60_000);
    const headers = await signWebhook(verify, body, { id: 'msg_old', timestamp: old });
    expect(() => library.verify(body, headers)).toThrow('Message timestamp too old');
    expect((await deliver(verify, headers)).status).toBe(401);
  });
});

describe('secrets stay out of sight', () => {
  const hmacSecretHex = Buffer.from(HMAC_SECRET).toString('hex');
  const renderings = (value: unknown) =>
    [inspect(value, { showHidden: true, depth: 10 }), JSON.stringify(value) ?? '', String(value)].join('\n');

  it('inspecting a preset shows its scheme, not its secret in any encoding', async () => {
    const hmac = hmacSha256({ secret: HMAC_SECRET, header: 'x-signature' });
    const sw = standardWebhooks({ secret: SW_SECRET });
    await signWebhook(hmac, body); // the key is imported by now
    await signWebhook(sw, body);
    expect(hmac.scheme).toBe('hmac-sha256');
    expect(sw.scheme).toBe('standard-webhooks');
    for (const text of [renderings(hmac), renderings(sw)]) {
      for (const secret of [HMAC_SECRET, hmacSecretHex, SW_KEY_BASE64, Buffer.from(SW_KEY_BASE64, 'base64').toString('hex')]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('a bad option is a ValidationError naming the option, never quoting the secret', () => {
    const attempts: Array<[() => unknown, string]> = [
      [() => hmacSha256({ secret: '', header: 'x-signature' }), 'secret'],
      [() => hmacSha256({ secret: HMAC_SECRET, header: 'x signature' }), 'header'],
      [() => hmacSha256({ secret: HMAC_SECRET, header: 'x-signature', encoding: 'base32' as 'hex' }), 'encoding'],
      [() => standardWebhooks({ secret: `whsec_${HMAC_SECRET}!` }), 'secret'],
      [() => standardWebhooks({ secret: 'whsec_' }), 'secret'],
      [() => standardWebhooks({ secret: SW_SECRET, toleranceSeconds: -1 }), 'toleranceSeconds'],
      [() => standardWebhooks({ secret: SW_SECRET, toleranceSeconds: Number.NaN }), 'toleranceSeconds'],
    ];
    for (const [attempt, field] of attempts) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ValidationError);
      expect((caught as ValidationError).field).toBe(field);
      expect(renderings(caught)).not.toContain(HMAC_SECRET);
    }
  });

  it('signWebhook refuses a function that is not a preset, and a timestamp that is not a Date', async () => {
    await expect(signWebhook((async () => true) as unknown as WebhookSignaturePreset, body)).rejects.toThrow(WfaError);
    const verify = standardWebhooks({ secret: SW_SECRET });
    await expect(signWebhook(verify, body, { timestamp: 1_700_000_000 as unknown as Date })).rejects.toThrow(
      'Invalid signWebhook options: timestamp: must be a valid Date',
    );
  });
});
