/**
 * Removes secrets (the API key, a saved integration key, a password) from anything that may be shown: error
 * bodies and messages, log lines. The service may echo what it was sent, so an error body is not safe as is.
 */

export const REDACTED = '[redacted]';

/** Field names whose string values are credentials: `api_key`, `apiKey`, `password`, `access_token`, `client_secret`. */
const CREDENTIAL_NAME = 'api[-_]?key|password|secret|client[-_]?secret|(?:access|refresh)[-_]?token|token';
const CREDENTIAL_FIELD = new RegExp(`^(?:${CREDENTIAL_NAME})$`, 'i');
/**
 * A credential field's value in text that is no parsed JSON (a body cut at its limit, a truncated JSON, a form):
 * a quoted string (JSON's double quotes, or a Python repr's single ones), its closing quote cut off too, or a
 * form field's value. One pass, no recursion, whatever the depth.
 */
const CREDENTIAL_IN_TEXT = new RegExp(
  `((["'])(?:${CREDENTIAL_NAME})\\2\\s*:\\s*)(["'])(?:\\\\[\\s\\S]?|(?!\\3)[^\\\\])*\\3?|((?:^|[&?;\\s])(?:${CREDENTIAL_NAME})=)[^&\\s]*`,
  'gi',
);

/** A field holding a signed URL, whose query is its signature: the rest is kept, to say where it pointed. */
const SIGNED_URL_FIELD = /^download[-_]?url$/i;

/** Secrets shorter than this are not searched for: replacing every "a" would mangle text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

export function usableSecrets(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
}

/** Each secret's forms, computed once: a client redacts with the same few secrets all its life. Bounded. */
const FORMS = new Map<string, readonly string[]>();

/**
 * The characters JSON encoders write as `\uXXXX`, in either case of hex digits: Go's `<>&` (and U+2028, U+2029),
 * everything past ASCII (Python's ensure_ascii, PHP), both, and .NET's both with `'"+` and backtick.
 */
const U_ESCAPED = [/[<>&\u2028\u2029]/, /[^\0-\x7f]/, /[<>&]|[^\0-\x7f]/, /[<>&'"+`]|[^\0-\x7f]/];

/** HTML escapers agree on `&<>` and differ on quotes: Python's html.escape, Go's, PHP's, lodash's, or none. */
const HTML_QUOTES = [
  ['&quot;', '&#x27;'],
  ['&#34;', '&#39;'],
  ['&quot;', '&#039;'],
  ['&quot;', '&#39;'],
  ['"', "'"],
] as const;

/** What URL encoders keep, and how they write a space: encodeURIComponent, form encoding, RFC 3986 (Python, Go). */
const URL_KEPT = [
  [/[\w.!~*'()-]/, '%20'],
  [/[\w.*-]/, '+'],
  [/[\w.~-]/, '%20'],
] as const;

/** `secret` in JSON with the characters in `set` as `\uXXXX` (one per UTF-16 unit), the others as JSON.stringify writes them. */
function jsonWith(secret: string, set: RegExp, digits: 'toLowerCase' | 'toUpperCase'): string {
  const unicode = (c: string) => Array.from(c, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')[digits]()}`).join('');
  return Array.from(secret, (c) => (set.test(c) ? unicode(c) : JSON.stringify(c).slice(1, -1))).join('');
}

/** Base64's URL-safe alphabet. */
const urlSafe = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

/**
 * The forms a service may echo a secret in, longest first (so that a form inside another, or its padding, is not
 * left behind): as is, JSON-escaped, HTML-escaped; its bytes URL-encoded, in base64 (both alphabets, alone or
 * within) and hex. Exported for tests.
 */
export function secretForms(secret: string): readonly string[] {
  const known = FORMS.get(secret);
  if (known) return known;
  const json = [JSON.stringify(secret).slice(1, -1)];
  for (const set of U_ESCAPED) {
    for (const digits of ['toLowerCase', 'toUpperCase'] as const) json.push(jsonWith(secret, set, digits));
  }
  // PHP and some others escape `/` in JSON as `\/`.
  const out = new Set([secret, ...json, ...json.map((form) => form.replaceAll('/', '\\/'))]);
  for (const [quot, apos] of HTML_QUOTES) {
    const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': quot, "'": apos };
    out.add(secret.replace(/[&<>"']/g, (c) => entities[c] ?? c));
  }
  const utf8 = new TextEncoder().encode(secret);
  // `X-API-Key` carries a character up to U+00FF as its one Latin-1 byte (`é` is 0xE9), a JSON body as UTF-8.
  const latin1 = /^[\0-\xff]*$/.test(secret) && utf8.length !== secret.length;
  for (const bytes of latin1 ? [utf8, Uint8Array.from(secret, (c) => c.charCodeAt(0))] : [utf8]) addByteForms(bytes, out);
  if (FORMS.size >= 64) FORMS.clear();
  const found = [...out].sort((a, b) => b.length - a.length);
  FORMS.set(secret, found);
  return found;
}

/** The forms of a secret's bytes: URL-encoded, base64 and hex. */
function addByteForms(bytes: Uint8Array, out: Set<string>): void {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  for (const [kept, space] of URL_KEPT) {
    const percent = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    const encoded = Array.from(binary, (c) => (c === ' ' ? space : c < '\x80' && kept.test(c) ? c : percent(c))).join('');
    // Percent-encoding may use either case of hex digits (.NET writes `%2f`).
    out.add(encoded).add(encoded.replace(/%[0-9A-F]{2}/g, (digits) => digits.toLowerCase()));
  }
  const base64 = btoa(binary);
  for (const form of [base64, base64.replace(/=+$/, '')]) out.add(form).add(urlSafe(form));
  // Inside a longer base64 value (HTTP Basic's `user:key`) the secret's characters depend on how many bytes come
  // before it, modulo 3: for each, the characters its bytes alone decide (character i holds bits 6i to 6i+5).
  for (const before of [0, 1, 2]) {
    const shifted = btoa('\0'.repeat(before) + binary).slice(Math.ceil((8 * before) / 6), Math.floor((8 * (before + bytes.length)) / 6));
    if (shifted.length >= MIN_SECRET_LENGTH) out.add(shifted).add(urlSafe(shifted));
  }
  const hexForm = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  out.add(hexForm).add(hexForm.toUpperCase());
}

/**
 * Also replaces a secret cut short at the end of the text (a body cut by a limit), which still says most of it,
 * and the value of a field named for a credential, in JSON or form text.
 */
export function redactText(text: string, secrets: readonly string[], replacement = REDACTED): string {
  const forms = secrets.flatMap(secretForms);
  const hide = (_match: string, name: string | undefined, _nameQuote: string, quote: string, form: string): string =>
    name !== undefined ? `${name}${quote}${replacement}${quote}` : `${form}${replacement}`;
  let out = text.replace(CREDENTIAL_IN_TEXT, hide);
  for (const form of forms) out = out.replaceAll(form, replacement);
  // The longest head of any form the text ends with, only where the text has its first characters: forms that
  // share a beginning (`%C3%A9%27` and `%C3%A9'`) must not let one's short head hide the other's long one.
  let cut = out.length;
  for (const form of forms) {
    const head = form.slice(0, MIN_SECRET_LENGTH);
    for (let at = out.indexOf(head, out.length - form.length + 1); at !== -1 && at < cut; at = out.indexOf(head, at + 1)) {
      if (form.startsWith(out.slice(at))) cut = at;
    }
  }
  return cut < out.length ? out.slice(0, cut) + replacement : out;
}

/** Redacts before and after the cut, so that no cut leaves part of a secret behind. */
export function redactAndCut(text: string, secrets: readonly string[], limit: number): string {
  return redactText(redactText(text, secrets).slice(0, limit), secrets);
}

/** Keys are redacted too (a body may use a secret as a property name); depth is bounded against a hostile body. */
export function redact<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 64) return REDACTED as T;
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets, depth + 1)) as T;
  // A field named for a credential is hidden whatever its value: the SDK cannot know every key a service echoes
  // (an integration's key in a list). fromEntries keeps a `__proto__` key as data, never a prototype.
  const entries = Object.entries(value).map(([key, item]) => [redactText(key, secrets), redactField(key, item, secrets, depth)]);
  return Object.fromEntries(entries) as T;
}

function redactField(key: string, item: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof item !== 'string') return redact(item, secrets, depth + 1);
  if (CREDENTIAL_FIELD.test(key)) return REDACTED;
  const text = redactText(item, secrets);
  return SIGNED_URL_FIELD.test(key) ? withoutQuery(text) : text;
}

/** A signed URL as errors and logs show it: origin and path, the query (its signature) hidden. */
export function withoutQuery(url: string): string {
  if (!URL.canParse(url)) return REDACTED;
  const { origin, pathname, search } = new URL(url);
  return `${origin}${pathname}${search ? '?[query hidden]' : ''}`;
}

const CAUSE_FIELDS = ['code', 'errno', 'syscall', 'address', 'port'] as const;

/** A copy of an error fit to be our `cause` (name, redacted message, network fields, causes): a fetch error may quote its request. */
export function safeCause(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof error !== 'object' || error === null) return redact(error, secrets);
  if (depth > 3) return undefined;
  try {
    const source = error as { name?: unknown; message?: unknown; cause?: unknown; errors?: unknown } & Record<string, unknown>;
    const copy = new Error(redactText(String(source.message ?? ''), secrets)) as Error & Record<string, unknown>;
    copy.name = typeof source.name === 'string' ? source.name : 'Error';
    copy.stack = `${copy.name}: ${copy.message}`;
    for (const field of CAUSE_FIELDS) {
      const value = source[field];
      if (typeof value === 'string' || typeof value === 'number') copy[field] = redact(value, secrets);
    }
    if (source.cause !== undefined) copy.cause = safeCause(source.cause, secrets, depth + 1);
    if (Array.isArray(source.errors)) copy['errors'] = source.errors.slice(0, 8).map((inner) => safeCause(inner, secrets, depth + 1));
    return copy;
  } catch {
    // A value whose reading throws (a revoked Proxy, a throwing getter) leaves nothing safe to copy.
    return undefined;
  }
}

/** What a message calls a thrown value: its error's name, else its type. Never throws, whatever was thrown. */
export function thrownName(error: unknown): string {
  try {
    if (error instanceof Error && typeof error.name === 'string') return error.name;
  } catch {
    // A revoked Proxy throws even on `instanceof`: its type is all there is to say.
  }
  return typeof error;
}
