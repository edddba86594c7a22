/**
 * The text forms a secret may be echoed in (JSON, HTML, base64, hex): what redact.ts searches for as text, in a
 * text whose percent escapes are decoded and whose IGNORED characters are dropped (text-view.ts).
 */

/** Characters that show as nothing (zero-width spaces and joiners, a BOM, a soft hyphen): any form may carry them anywhere. */
export const IGNORED = /[\u00ad\u200b-\u200d\u2060\ufeff]/;

/** Secrets shorter than this are not searched for: replacing every "a" would mangle text and hide nothing. */
export const MIN_SECRET_LENGTH = 4;

/**
 * The characters JSON encoders write as `\uXXXX`, in either case of hex digits: Go's `<>&` (and U+2028, U+2029),
 * everything past ASCII (Python's ensure_ascii, PHP), both, and .NET's both with `'"+` and backtick.
 */
const U_ESCAPED = [/[<>&\u2028\u2029]/, /[^\0-\x7f]/, /[<>&]|[^\0-\x7f]/, /[<>&'"+`]|[^\0-\x7f]/];

/**
 * HTML escapers agree on `&<>` and differ on quotes (Python's html.escape, Go's, PHP's, lodash's, or none): every
 * pair of the ways each quote is written, not only the pairs known escapers choose.
 */
const HTML_QUOTES = ['&quot;', '&#34;', '"'].flatMap((quot) => ['&#x27;', '&#39;', '&#039;', "'"].map((apos) => [quot, apos] as const));

/** `secret` in JSON with the characters in `set` as `\uXXXX` (one per UTF-16 unit), the others as JSON.stringify writes them. */
function jsonWith(secret: string, set: RegExp, digits: 'toLowerCase' | 'toUpperCase'): string {
  const unicode = (c: string) => Array.from(c, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')[digits]()}`).join('');
  return Array.from(secret, (c) => (set.test(c) ? unicode(c) : JSON.stringify(c).slice(1, -1))).join('');
}

/** Base64's URL-safe alphabet. */
const urlSafe = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

export function formsOf(secret: string): readonly string[] {
  const json = [JSON.stringify(secret).slice(1, -1)];
  for (const set of U_ESCAPED) {
    for (const digits of ['toLowerCase', 'toUpperCase'] as const) json.push(jsonWith(secret, set, digits));
  }
  // PHP and some others escape `/` in JSON as `\/`.
  const out = new Set([secret, ...json, ...json.map((form) => form.replaceAll('/', '\\/'))]);
  // A form's `+` for a space (`application/x-www-form-urlencoded`); its percent escapes are decoded before a search.
  if (secret.includes(' ')) out.add(secret.replaceAll(' ', '+'));
  for (const [quot, apos] of HTML_QUOTES) {
    const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': quot, "'": apos };
    out.add(secret.replace(/[&<>"']/g, (c) => entities[c] ?? c));
  }
  const utf8 = new TextEncoder().encode(secret);
  // `X-API-Key` carries a character up to U+00FF as its one Latin-1 byte (`é` is 0xE9), a JSON body as UTF-8.
  const latin1 = /^[\0-\xff]*$/.test(secret) && utf8.length !== secret.length;
  for (const bytes of latin1 ? [utf8, Uint8Array.from(secret, (c) => c.charCodeAt(0))] : [utf8]) addByteForms(bytes, out);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The forms of a secret's bytes: base64 and hex. */
function addByteForms(bytes: Uint8Array, out: Set<string>): void {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  for (const form of [base64, base64.replace(/=+$/, '')]) out.add(form).add(urlSafe(form));
  // Inside a longer base64 value (HTTP Basic's `user:key`) the secret's characters depend on how many bytes come
  // before it, modulo 3: for each, the characters its bytes alone decide (character i holds bits 6i to 6i+5).
  for (const before of [0, 1, 2]) {
    const shifted = btoa('\0'.repeat(before) + binary).slice(Math.ceil((8 * before) / 6), Math.floor((8 * (before + bytes.length)) / 6));
    if (shifted.length >= MIN_SECRET_LENGTH) out.add(shifted).add(urlSafe(shifted));
  }
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'));
  // Hex as is and with colons between bytes (`61:62:63`, as fingerprints are written), in either case.
  for (const form of [hex.join(''), hex.join(':')]) out.add(form).add(form.toUpperCase());
}
