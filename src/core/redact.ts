/**
 * Removes secrets (the API key, a saved integration key, a password) from anything that may be shown: error
 * bodies and messages, log lines. The service may echo what it was sent, so an error body is not safe as is.
 */

import { foldedNeedles, hideFolded, hideSecrets } from './known-secrets.js';
import type { Needle } from './needle.js';
import { MIN_SECRET_LENGTH } from './secret-forms.js';

export const REDACTED = '[redacted]';

/**
 * The one rule for a credential's name: a name ending in one of these words, in any case, after any prefix
 * (`user_password`, `clientSecret`, `x-access-token`, `user[password]`, `auth.token`), or `key` alone.
 * In text, each letter may be percent-encoded or JSON-escaped (`%74oken`, `\u0074oken`).
 */
const CREDENTIAL_WORD = 'password|passwd|pwd|secret|token|authorization|cookie|credentials?|(?:api|private|secret|access)[-_.]?key';
/** A letter as is, `%74` or `\u0074`, either case: the `i` flag covers the letter and the hex digits, not 0x54 for 0x74. */
const anyForm = (letter: string): string => {
  const code = letter.charCodeAt(0);
  return `(?:${letter}|(?:%|\\\\u00)[${code >> 4}${(code >> 4) - 2}]${(code & 15).toString(16)})`;
};
/** The rule's words in text, and a name's closing bracket (`user[password]`, `user%5Bpassword%5D`). */
const WORD_IN_TEXT = `(?:${CREDENTIAL_WORD.replace(/[a-z]/g, anyForm)})(?:\\]|%5d)?`;
/** Characters of a name before its credential word: word characters, `.-[`, `%` escapes, `\` escapes. */
const NAME_PART = '[\\w.%\\\\[-]';
const CREDENTIAL_FIELD = new RegExp(`^(?:[^]*(?:${CREDENTIAL_WORD})\\]?|key)$`, 'i');

/** Whether a field or header of this name holds a credential (the rule above), so that its value is hidden. */
export const isCredentialName = (name: string): boolean => CREDENTIAL_FIELD.test(name);

/**
 * What a caller sent under credential names, in headers or the query (`Authorization: Bearer …`,
 * `X-Gateway-Token`, `?access_token=`): secrets too, without an auth scheme.
 */
export function credentialValuesSent(fields: Iterable<[string, string]>): string[] {
  const values: string[] = [];
  for (const [name, value] of fields) if (isCredentialName(name)) values.push(value.replace(/^(?:bearer|basic|token|digest)\s+/i, ''));
  return values;
}

/**
 * A credential field's value in text that is no parsed JSON (a body cut at its limit, a truncated JSON, a form, a
 * log line, XML): the name, starting after no name character or `/` (not a closing tag), quoted or not, its quotes
 * JSON-escaped too (a body serialised twice: `{\"token\":\"…\"}`); `:`, `=`, `=>`, `>` (an XML element) or
 * `%3A`/`%3D` (a query inside a URL); then an HTTP auth scheme maybe, and a quoted string (its closing quote cut off
 * too), a `{` or `[` (a structure, hidden to its end), or what comes before a space or one of `&,;)<>}"'`.
 * Groups: `before` all before the value, `quote` its quote, `value` the value, `opening` a structure's opening.
 */
const CREDENTIAL_IN_TEXT = new RegExp(
  `(?<before>(?<![\\w.%\\\\[\\]/-])(?<nameQuote>\\\\?["']|)(?:${NAME_PART}*${WORD_IN_TEXT}|key)\\k<nameQuote>\\s*(?::|=>?|>|%3[ad])\\s*(?:(?:bearer|basic|token|digest)\\s+)?)` +
    `(?:(?<quote>["'])(?<value>(?:\\\\[\\s\\S]?|(?!\\k<quote>)[^\\\\])*)\\k<quote>?|(?<opening>[[{])` +
    // Serialised twice: `\\\"` inside is an escaped quote (`\\` then `\"`), the first `\"` alone closes.
    `|(?<quote2>\\\\["'])(?<value2>(?:\\\\\\\\\\\\[\\s\\S]|(?!\\k<quote2>)\\\\[\\s\\S]|[^\\\\])*)\\k<quote2>?` +
    `|(?<bare>[^\\s&,;)<>}"']*))`,
  'gi',
);
/** Values of credential fields shorter than this are not hidden elsewhere too: they would mangle ordinary words. */
const MIN_COPY_LENGTH = 8;
/** At most this many values (the longest) are hidden elsewhere, so that a hostile body cannot make one huge pattern. */
const MAX_COPIES = 32;

/** A field holding a signed URL, whose query is its signature: the rest is kept, to say where it pointed. */
const SIGNED_URL_FIELD = /^download[-_]?url$/i;

/** The secrets long enough to search for, each once. */
export function usableSecrets(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((s, i): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH && secrets.indexOf(s) === i);
}

/**
 * Also replaces a secret cut short at the end of the text (a body cut by a limit), which still says most of it,
 * and the value of a field named for a credential, in JSON or form text, and every copy of that value.
 */
export function redactText(text: string, secrets: readonly string[], replacement = REDACTED): string {
  return hide(text, secrets, copyNeedles(credentialCopies(text)), replacement);
}

/**
 * The known secrets first, then the copies, then the credential-name rule: the rule hides a value only to its first
 * separator, so it must not run first and leave the rest of a secret holding a space (or `;`) unfound.
 */
function hide(text: string, secrets: readonly string[], copies: readonly Needle[], replacement: string): string {
  const out = hideSecrets(text, secrets, replacement);
  return hideFields(hideFolded(out, copies, replacement), replacement);
}

/** Each credential field's value in text replaced, a structure's (`{…}`, `[…]`) to its end. One pass, whatever the depth. */
function hideFields(text: string, replacement: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(CREDENTIAL_IN_TEXT)) {
    if (match.index < from) continue;
    const { before = '', quote = match.groups?.quote2 ?? '', opening } = match.groups ?? {};
    out += `${text.slice(from, match.index)}${before}${quote}${replacement}${quote}`;
    from = match.index + match[0].length;
    if (opening) from = structureEnd(text, from - 1);
  }
  return out + text.slice(from);
}

/** Where the structure opening at `start` ends: after its matching bracket, strings skipped, or the text's end if cut. */
function structureEnd(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const c = text[at];
    if (c === '"') {
      while (++at < text.length && text[at] !== '"') if (text[at] === '\\') at++;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return at + 1;
  }
  return text.length;
}

/** A string (group 1; a key when group 2 is its colon) or a number (group 3) in a structure in text (a cut JSON's `"token":{"value":"…"}`). */
const STRUCTURE_VALUE = /"((?:[^"\\]|\\.)*)"(\s*:)?|(\d{8,})/g;

/** The structure a credential name's match opens, as text, to its end. */
function structureText(text: string, match: RegExpMatchArray): string {
  const start = match.index! + match[0].length - 1;
  return text.slice(start, structureEnd(text, start));
}

/**
 * The values of credential fields in a parsed body or a text, at any depth, to hide their copies elsewhere. With a
 * stack of its own, not recursion: a value past the depth `redact` shows is still hidden where it is copied higher up.
 */
function credentialValues(root: unknown): Set<string> {
  const out = new Set<string>();
  const seen = new Set<object>();
  const stack: [unknown, boolean][] = [[root, false]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, named] = next;
    if (typeof value === 'string') {
      if (named) out.add(value);
      for (const match of value.matchAll(CREDENTIAL_IN_TEXT)) {
        const { value: quoted, value2, opening, bare } = match.groups ?? {};
        if (opening === undefined) out.add(quoted ?? value2 ?? bare ?? '');
        else
          for (const [, text, colon, number] of structureText(value, match).matchAll(STRUCTURE_VALUE))
            if (!colon) out.add(text ?? number ?? '');
      }
    } else if (typeof value === 'number') {
      if (named) out.add(String(value));
    } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      const list = Array.isArray(value);
      for (const [key, item] of Object.entries(value)) stack.push([item, named || (!list && isCredentialName(key))]);
    }
  }
  return out;
}

/** The values of credential fields long enough to be hidden wherever else they are copied, longest first. */
export const credentialCopies = (value: unknown): string[] =>
  [...credentialValues(value)].filter((copy) => copy.length >= MIN_COPY_LENGTH).sort((a, b) => b.length - a.length);

/** The copies searched for: the longest, each a needle whose runs of whitespace match any run of whitespace. */
const copyNeedles = (copies: string[]): Needle[] => foldedNeedles(copies.slice(0, MAX_COPIES));

/** Redacts before and after the cut, so that no cut leaves part of a secret behind. */
export function redactAndCut(text: string, secrets: readonly string[], limit: number): string {
  return redactText(redactText(text, secrets).slice(0, limit), secrets);
}

/**
 * Keys are redacted too (a body may use a secret as a property name); depth is bounded against a hostile body.
 * A credential field's value is hidden wherever else the body copies it.
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
  return redactWith(value, secrets, copyNeedles(credentialCopies(value)), 0);
}

function redactWith<T>(value: T, secrets: readonly string[], copies: readonly Needle[], depth: number): T {
  if (typeof value === 'string') return hide(value, secrets, copies, REDACTED) as T;
  // A number equal to a secret or a copy (a numeric key echoed as a JSON number) is that secret.
  if (typeof value === 'number') return (hide(String(value), secrets, copies, REDACTED) === String(value) ? value : REDACTED) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 64) return REDACTED as T;
  if (Array.isArray(value)) return value.map((item) => redactWith(item, secrets, copies, depth + 1)) as T;
  // A field named for a credential is hidden whatever its value: the SDK cannot know every key a service echoes
  // (an integration's key in a list). fromEntries keeps a `__proto__` key as data, never a prototype.
  const entries = Object.entries(value).map(([key, item]) => [
    hide(key, secrets, copies, REDACTED),
    redactField(key, item, secrets, copies, depth),
  ]);
  return Object.fromEntries(entries) as T;
}

function redactField(key: string, item: unknown, secrets: readonly string[], copies: readonly Needle[], depth: number): unknown {
  if (isCredentialName(key)) return REDACTED;
  if (typeof item !== 'string') return redactWith(item, secrets, copies, depth + 1);
  const text = hide(item, secrets, copies, REDACTED);
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
    copy.name = typeof source.name === 'string' ? redactText(source.name, secrets) : 'Error';
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

/**
 * What a message calls a thrown value: its error's name (secrets removed, as from a message), else its type.
 * Never throws, whatever was thrown.
 */
export function thrownName(error: unknown, secrets: readonly string[] = []): string {
  try {
    if (error instanceof Error && typeof error.name === 'string') return redactText(error.name, secrets);
  } catch {
    // A revoked Proxy throws even on `instanceof`: its type is all there is to say.
  }
  return typeof error;
}
