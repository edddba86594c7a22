/**
 * Removes secrets (the API key, a saved integration key, a password) from anything that may be shown: error
 * bodies and messages, log lines. The service may echo what it was sent, so an error body is not safe as is.
 */

export const REDACTED = '[redacted]';

/** Field names whose string values are credentials: `api_key`, `apiKey`, `password`, `access_token`, `client_secret`. */
const CREDENTIAL_FIELD = /^(?:api[-_]?key|password|secret|client[-_]?secret|(?:access|refresh)[-_]?token|token)$/i;

/** A field holding a signed URL, whose query is its signature: the rest is kept, to say where it pointed. */
const SIGNED_URL_FIELD = /^download[-_]?url$/i;

/** Secrets shorter than this are not searched for: replacing every "a" would mangle text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

export function usableSecrets(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
}

/** Each secret's forms, computed once: a client redacts with the same few secrets all its life. Bounded. */
const FORMS = new Map<string, readonly string[]>();

/** Base64's URL-safe alphabet. */
const urlSafe = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

/** The forms a service may echo a secret in: as is, JSON- and URL-escaped, base64 (both alphabets, alone or within), hex. */
function forms(secret: string): readonly string[] {
  const known = FORMS.get(secret);
  if (known) return known;
  const json = JSON.stringify(secret).slice(1, -1);
  // PHP and some others escape `/` in JSON as `\/`.
  const out = new Set([secret, json, json.replaceAll('/', '\\/')]);
  try {
    for (const encoded of [encodeURIComponent(secret), new URLSearchParams([['', secret]]).toString().slice(1)]) {
      // Percent-encoding may use either case of hex digits (.NET writes `%2f`).
      out.add(encoded).add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    }
  } catch {
    // A lone surrogate cannot be URL-encoded, so no URL carries it in that form.
  }
  const bytes = new TextEncoder().encode(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  // Padded forms first, so that the padding goes too.
  for (const form of [base64, base64.replace(/=+$/, '')]) out.add(form).add(urlSafe(form));
  // Inside a longer base64 value (HTTP Basic's `user:key`) the secret's characters depend on how many bytes come
  // before it, modulo 3: for each, the characters its bytes alone decide (character i holds bits 6i to 6i+5).
  for (const before of [0, 1, 2]) {
    const shifted = btoa('\0'.repeat(before) + binary).slice(Math.ceil((8 * before) / 6), Math.floor((8 * (before + bytes.length)) / 6));
    if (shifted.length >= MIN_SECRET_LENGTH) out.add(shifted).add(urlSafe(shifted));
  }
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  if (FORMS.size >= 64) FORMS.clear();
  const found = [...out.add(hex).add(hex.toUpperCase())];
  FORMS.set(secret, found);
  return found;
}

/** Also replaces a secret cut short at the end of the text (a body cut by a limit), which still says most of it. */
export function redactText(text: string, secrets: readonly string[], replacement = REDACTED): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      out = out.replaceAll(form, replacement);
      // The longest head of `form` the text ends with: only where the text has its first characters.
      const head = form.slice(0, MIN_SECRET_LENGTH);
      for (let at = out.indexOf(head, out.length - form.length + 1); at !== -1; at = out.indexOf(head, at + 1)) {
        if (form.startsWith(out.slice(at))) {
          out = out.slice(0, at) + replacement;
          break;
        }
      }
    }
  }
  return out;
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
