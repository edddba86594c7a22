/**
 * The known secrets (the API key, a saved integration key, a password) found in a text in every form a service may
 * echo them in (secret-forms.ts), in the text and in its view (text-view.ts), each search linear in the text.
 */
import { type Needle, needleOf, scan } from './needle.js';
import { formsOf, MIN_SECRET_LENGTH } from './secret-forms.js';
import { sameAs, spacesFolded, type TextView, viewOf } from './text-view.js';

/** What a secret is searched for as. */
interface Search {
  /** Its forms as text, longest first. */
  readonly forms: readonly string[];
  /** The forms, and the forms as a text's view shows them (text-view.ts), 4 characters or more: what is searched for. */
  readonly needles: readonly Needle[];
  /** A secret with whitespace in it, trimmed, its runs of whitespace folded: a service may wrap, tab or trim it. */
  readonly spaced: readonly Needle[];
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
    search = { forms, needles, spaced: /\s/.test(secret) ? foldedNeedles([secret]) : [] };
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
  const out = hideFolded(
    text,
    searches.flatMap(({ spaced }) => spaced),
    replacement,
  );
  const view = viewOf(out);
  const found: [number, number][] = [];
  for (const { needles } of searches) {
    for (const needle of needles) {
      // As is too, where the view differs: a `%` just before a copy would join its first characters to an escape.
      if (view.text !== out) findIn(out, sameAs(out), needle, found);
      const head = findIn(view.text, view, needle, found);
      const start = head > 0 ? view.start(view.text.length - head) : out.length;
      if (out.length - start >= MIN_SECRET_LENGTH) found.push([start, out.length]);
    }
  }
  return replaced(out, found, replacement);
}

/** Texts as needles for `hideFolded`: trimmed, runs of whitespace folded; none that is too short once trimmed. */
export const foldedNeedles = (texts: readonly string[]): Needle[] =>
  texts
    .map((text) => spacesFolded(text.trim()).text)
    .filter((text) => text.length >= MIN_SECRET_LENGTH)
    .map(needleOf);

/** `text` with each copy of the needles replaced, a run of whitespace in one matching any run of whitespace. */
export function hideFolded(text: string, needles: readonly Needle[], replacement: string): string {
  if (needles.length === 0) return text;
  const view = spacesFolded(text);
  const found: [number, number][] = [];
  for (const needle of needles) findIn(view.text, view, needle, found);
  return replaced(text, found, replacement);
}

/** Adds where `needle` is in `view`'s text, as ranges of the text, to `found`; answers the head it ends with. */
function findIn(text: string, view: TextView, needle: Needle, found: [number, number][]): number {
  return scan(text, needle, (start) => found.push([view.start(start), view.end(start + needle.text.length - 1)]));
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
