/**
 * Signature presets for `createWebhookHandler`'s `verify` (HMAC-SHA256 in a header; Standard Webhooks), and
 * `signWebhook`, their signing side for tests and `wfa listen`. Web Crypto only, so every runtime runs them.
 *
 * @module
 */

import { type Issue, ValidationError, WfaError } from '../core/errors.js';

/**
 * A `verify` function made by {@link hmacSha256} or {@link standardWebhooks}: give it to `createWebhookHandler`,
 * or to {@link signWebhook} to sign a test delivery the same way. It holds its secret out of sight: neither
 * inspecting it nor its errors show the secret.
 *
 * @example
 * ```ts
 * const verify: WebhookSignaturePreset = standardWebhooks({ secret: process.env.WEBHOOK_SECRET! });
 * const handler = createWebhookHandler({ verify, on: {} });
 * ```
 */
export interface WebhookSignaturePreset {
  /** Resolves `true` when the delivery carries a valid signature of these exact bytes; never rejects for a bad one. */
  (rawBody: Uint8Array, headers: Headers): Promise<boolean>;
  /** Which scheme it checks. */
  readonly scheme: 'hmac-sha256' | 'standard-webhooks';
}

/**
 * Options of {@link hmacSha256}.
 *
 * @example
 * ```ts
 * const options: HmacSha256Options = { secret: 's3cr3t', header: 'x-hub-signature-256', encoding: 'hex', prefix: 'sha256=' };
 * ```
 */
export interface HmacSha256Options {
  /** The shared secret: a string (its UTF-8 bytes are the key) or the key's bytes. Not empty. */
  secret: string | Uint8Array;
  /** The request header that carries the signature, such as `x-signature`. */
  header: string;
  /** How the signature's 32 bytes are written in the header. Default `'hex'` (either case is accepted). */
  encoding?: 'hex' | 'base64' | undefined;
  /** Text before the signature in the header, such as `sha256=`. Default none. */
  prefix?: string | undefined;
}

/**
 * Options of {@link standardWebhooks}.
 *
 * @example
 * ```ts
 * const options: StandardWebhooksOptions = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', toleranceSeconds: 300 };
 * ```
 */
export interface StandardWebhooksOptions {
  /** The signing secret: `whsec_` and the key's bytes in base64 (the prefix may be left out), or the key's bytes. */
  secret: string | Uint8Array;
  /**
   * How far `webhook-timestamp` may be from this machine's clock, in whole seconds, either way: an older
   * (replayed) or later delivery is refused. 0 accepts only the current second. Default 300 (5 minutes), as
   * the specification says.
   */
  toleranceSeconds?: number | undefined;
}

/**
 * What {@link signWebhook} may be told; the defaults are what a sender would use now.
 *
 * @example
 * ```ts
 * const options: SignWebhookOptions = { timestamp: new Date(Date.now() - 10 * 60_000), id: 'msg_1' };
 * ```
 */
export interface SignWebhookOptions {
  /** The time to sign with (Standard Webhooks). Default now. */
  timestamp?: Date | undefined;
  /** The delivery id (Standard Webhooks' `webhook-id`). Default a random `msg_…`. */
  id?: string | undefined;
}

type Signer = (body: Uint8Array, options: SignWebhookOptions) => Promise<Record<string, string>>;

// Each preset's signer, kept off the function so that inspecting a preset shows no secret and no key.
const signers = new WeakMap<object, Signer>();
const encoder = new TextEncoder();

/**
 * Checks an HMAC-SHA256 signature of the exact body, carried in one header (as hex or base64, after an
 * optional prefix). The comparison is Web Crypto's `verify`, which is constant-time. There is no timestamp
 * in this scheme, so nothing stops a replay: pair it with deduplication, or prefer {@link standardWebhooks}.
 *
 * @example
 * ```ts
 * export const POST = createWebhookHandler({
 *   verify: hmacSha256({ secret: process.env.WEBHOOK_SECRET!, header: 'x-signature', encoding: 'hex' }),
 *   on: { 'build.completed': (event) => console.log(event.data.download_url) },
 * });
 * ```
 */
export function hmacSha256(options: HmacSha256Options): WebhookSignaturePreset {
  const what = 'hmacSha256 options';
  const key = hmacKey(checkSecret(options?.secret, what));
  const header = options.header;
  const encoding = options.encoding ?? 'hex';
  const prefix = options.prefix ?? '';
  const issues: Issue[] = [];
  if (typeof header !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header))
    issues.push(issue('header', 'must be a header name such as "x-signature"'));
  if (encoding !== 'hex' && encoding !== 'base64') issues.push(issue('encoding', 'must be "hex" or "base64"'));
  if (typeof prefix !== 'string') issues.push(issue('prefix', 'must be a string'));
  if (issues.length > 0) throw new ValidationError(what, issues);

  return preset(
    'hmac-sha256',
    async (rawBody, headers) => {
      const value = headers.get(header)?.trim();
      if (!value?.startsWith(prefix)) return false;
      const signature = (encoding === 'hex' ? fromHex : fromBase64)(value.slice(prefix.length));
      return signature !== undefined && crypto.subtle.verify('HMAC', await key(), signature, copy(rawBody));
    },
    async (body) => {
      const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await key(), copy(body)));
      return { [header.toLowerCase()]: prefix + (encoding === 'hex' ? toHex(signature) : toBase64(signature)) };
    },
  );
}

/**
 * Checks a delivery signed as the Standard Webhooks specification says (https://www.standardwebhooks.com):
 * `webhook-id`, `webhook-timestamp` (within `toleranceSeconds` of now) and `webhook-signature`, a
 * space-separated list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, any of the first 10 of which may
 * match (more are ignored, so a long list cannot cost a hash each). The comparison is Web Crypto's
 * constant-time `verify`.
 *
 * @example
 * ```ts
 * export const POST = createWebhookHandler({
 *   verify: standardWebhooks({ secret: process.env.WEBHOOK_SECRET! }), // 'whsec_…'
 *   on: { 'build.completed': (event) => console.log(event.data.download_url) },
 * });
 * ```
 */
export function standardWebhooks(options: StandardWebhooksOptions): WebhookSignaturePreset {
  const what = 'standardWebhooks options';
  let secret = checkSecret(options?.secret, what);
  if (typeof options.secret === 'string') {
    const decoded = fromBase64(options.secret.replace(/^whsec_/, ''));
    // The message never quotes the value: it is the secret.
    if (!decoded?.length) throw new ValidationError(what, [issue('secret', 'must be "whsec_" followed by base64')]);
    secret = decoded;
  }
  const tolerance = options.toleranceSeconds ?? 300;
  if (!(typeof tolerance === 'number' && tolerance >= 0 && Number.isFinite(tolerance)))
    throw new ValidationError(what, [issue('toleranceSeconds', 'must be a number of seconds >= 0')]);
  const key = hmacKey(secret);
  const signed = (id: string, timestamp: string, body: Uint8Array) => concat(encoder.encode(`${id}.${timestamp}.`), body);

  return preset(
    'standard-webhooks',
    async (rawBody, headers) => {
      const id = headers.get('webhook-id');
      const timestamp = headers.get('webhook-timestamp')?.trim() ?? '';
      const list = headers.get('webhook-signature');
      if (!id || !list || !/^\d{1,12}$/.test(timestamp)) return false;
      // In whole seconds, as the timestamp is: with a tolerance of 0, the current second is accepted.
      if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > tolerance) return false;
      const data = signed(id, timestamp, rawBody);
      // A bounded number of entries: a sender rotating secrets sends two or three, not hundreds.
      for (const entry of list.trim().split(/\s+/).slice(0, 10)) {
        const signature = entry.startsWith('v1,') ? fromBase64(entry.slice(3)) : undefined;
        if (signature && (await crypto.subtle.verify('HMAC', await key(), signature, data))) return true;
      }
      return false;
    },
    async (body, { timestamp = new Date(), id = `msg_${toHex(crypto.getRandomValues(new Uint8Array(12)))}` }) => {
      const seconds = String(Math.floor(timestamp.getTime() / 1000));
      const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await key(), signed(id, seconds, body)));
      return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${toBase64(signature)}` };
    },
  );
}

/**
 * Signs a delivery body as a preset checks it, and returns the headers to send with it: for your tests of a
 * handler that verifies, or for a sender of your own. The body must be sent as exactly these bytes.
 *
 * @example
 * ```ts
 * const verify = standardWebhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
 * const body = createWebhookBody({ workflow_id: 'wf_42' });
 * const headers = await signWebhook(verify, body); // { 'webhook-id', 'webhook-timestamp', 'webhook-signature' }
 * const response = await createWebhookHandler({ verify, on: {} })(createWebhookRequest({ workflow_id: 'wf_42' }, { headers }));
 * ```
 */
export async function signWebhook(
  preset: WebhookSignaturePreset,
  body: string | Uint8Array,
  options: SignWebhookOptions = {},
): Promise<Record<string, string>> {
  const sign = signers.get(preset);
  if (!sign) throw new WfaError('signWebhook takes a preset made by hmacSha256() or standardWebhooks()');
  if (options.timestamp !== undefined && !(options.timestamp instanceof Date && Number.isFinite(options.timestamp.getTime())))
    throw new ValidationError('signWebhook options', [issue('timestamp', 'must be a valid Date')]);
  return sign(typeof body === 'string' ? encoder.encode(body) : body, options);
}

function preset(
  scheme: WebhookSignaturePreset['scheme'],
  verify: (rawBody: Uint8Array, headers: Headers) => Promise<boolean>,
  sign: Signer,
) {
  const result = Object.defineProperty(verify, 'scheme', { value: scheme, enumerable: true }) as WebhookSignaturePreset;
  signers.set(result, sign);
  return result;
}

function issue(field: string, message: string): Issue {
  return { path: [field], message, code: 'invalid_value' };
}

function checkSecret(secret: unknown, what: string): Uint8Array<ArrayBuffer> {
  if (typeof secret === 'string' && secret.length > 0) return encoder.encode(secret);
  if (secret instanceof Uint8Array && secret.length > 0) return copy(secret);
  throw new ValidationError(what, [issue('secret', 'must be a non-empty string or Uint8Array')]);
}

/** The key, imported on first use (so that creating a preset stays synchronous), non-extractable. */
function hmacKey(secret: Uint8Array<ArrayBuffer>): () => Promise<CryptoKey> {
  let key: Promise<CryptoKey> | undefined;
  return () => {
    if (!globalThis.crypto?.subtle)
      throw new WfaError('Web Crypto (crypto.subtle) is not available here: a browser gives it only to https pages');
    key ??= crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return key;
  };
}

// Copies into a fresh ArrayBuffer: Web Crypto's types take no SharedArrayBuffer-backed views.
function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fromHex(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) return undefined;
  return new Uint8Array(text.match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? []);
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
