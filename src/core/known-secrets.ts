/**
 * The known secrets (the API key, a saved integration key, a password) found in a text in every form a service may
 * echo them in (secret-forms.ts), in the text and in its view (text-view.ts), each search linear in the text.
 */
import { type Needle, needleOf, scan } from './needle.js';
import { formsOf, MIN_SECRET_LENGTH } from './secret-forms.js';
import { viewOf } from './text-view.js';

/** What a secret is searched for as. */
interface Search {
  /** Its forms as text, longest first. */
  readonly forms: readonly string[];
  /** The forms, and the forms as a text's view shows them (text-view.ts), 4 characters or more: what is searched for. */
  readonly needles: readonly Needle[];
  /** A secret with whitespace in it, matching any run of whitespace there, trimmed: a service may wrap, tab or trim it. */
  readonly spaced: RegExp | undefined;
}
/** Each secret's search, built once: a client redacts with the same few secrets all its life. Bounded. */
const SEARCHES = new Map<string, Search>();

function searchFor(secret: string): Search {
  let search = SEARCHES.get(secret);
  if (!search) {
    if (SEARCHES.size >= 64) SEARCHES.clear();
    const forms = formsOf(secret);
    const texts = new Set(forms.flatMap((form) => [form, viewOf(form).text]));
    const needles = [...texts].filter((needle) => needle.length >= MIN_SECRET_LENGTH).map(needleOf);
    search = { forms, needles, spaced: /\s/.test(secret) ? looseLiteral([secret]) : undefined };
    SEARCHES.set(secret, search);
  }
  return search;
}

/**
 * The forms a service may echo a secret in as text (secret-forms.ts), longest first. Exported for tests.
 */
export const secretForms = (secret: string): readonly string[] => searchFor(secret).forms;

/**
 * `text` with every copy of a secret's forms replaced, in the text and in its view (text-view.ts), and the longest
 * head of one that the text ends with (an escape cut short after it too), 4 characters of the text or more; a
 * secret with whitespace first. Each search is linear in the text, whatever the secret (needle.ts).
 */
export function hideSecrets(text: string, secrets: readonly string[], replacement: string): string {
  if (secrets.length === 0) return text;
  const searches = secrets.map(searchFor);
  let out = text;
  for (const { spaced } of searches) if (spaced) out = out.replace(spaced, replacement);
  return hideKnown(out, searches, replacement);
}

function hideKnown(text: string, searches: readonly Search[], replacement: string): string {
  const view = viewOf(text);
  const found: [number, number][] = [];
  for (const { needles } of searches) {
    for (const needle of needles) {
      const length = needle.text.length;
      // As is too, where the view differs: a `%` just before a copy would join its first characters to an escape.
      if (view.text !== text) scan(text, needle, (start) => found.push([start, start + length]));
      const head = scan(view.text, needle, (start) => found.push([view.start(start), view.end(start + length - 1)]));
      const start = head > 0 ? view.start(view.text.length - head) : text.length;
      if (text.length - start >= MIN_SECRET_LENGTH) found.push([start, text.length]);
    }
  }
  return replaced(text, found, replacement);
}

/** `text` with each range found replaced, overlapping ranges as one. */
function replaced(text: string, found: [number, number][], replacement: string): string {
  if (found.length === 0) return text;
  found.sort((a, b) => a[0] - b[0]);
  let out = '';
  let kept = 0;
  let [start, end] = found[0]!;
  for (const [from, to] of found) {
    if (from < end) end = Math.max(end, to);
    else {
      out += text.slice(kept, start) + replacement;
      [kept, start, end] = [end, from, to];
    }
  }
  return out + text.slice(kept, start) + replacement + text.slice(end);
}

/** `text` as a pattern that matches it literally. */
const literalPattern = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * Texts, trimmed, as one pattern matching them literally, except that a run of whitespace matches any run of
 * whitespace; none when no text is long enough once trimmed (an empty or all-blank pattern would match everywhere).
 */
export function looseLiteral(texts: readonly string[]): RegExp | undefined {
  const kept = texts.map((text) => text.trim()).filter((text) => text.length >= MIN_SECRET_LENGTH);
  return kept.length > 0 ? new RegExp(kept.map((text) => text.split(/\s+/).map(literalPattern).join('\\s+')).join('|'), 'g') : undefined;
}
