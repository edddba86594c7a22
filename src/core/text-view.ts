/**
 * A text as secrets are searched for in it: the characters a form may carry anywhere dropped, and percent escapes
 * decoded, as any URL encoder may write them, each unit of the view mapped back to the text.
 */
import { IGNORED } from './secret-forms.js';

/** The view of a text, and where each of its units came from. */
export interface TextView {
  readonly text: string;
  /** Where the text's characters for the view's unit `i` start (`start(i)`) and end (`end(i)`). */
  readonly start: (i: number) => number;
  readonly end: (i: number) => number;
}

/** A text as its own view. */
export const sameAs = (text: string): TextView => ({ text, start: (i) => i, end: (i) => i + 1 });

const IGNORED_ALL = new RegExp(IGNORED.source, 'g');
/** `escape()`'s `%uXXXX` (1); the bytes of one UTF-8 character (2); a byte (3), hex in any case. */
const ESCAPE =
  /%u([0-9a-f]{4})|(%(?:[0-7][0-9a-f]|[cd][0-9a-f]%[89ab][0-9a-f]|e[0-9a-f](?:%[89ab][0-9a-f]){2}|f[0-4](?:%[89ab][0-9a-f]){3}))|%([0-9a-f]{2})/iy;
/** An escape cut short at the end (`%`, `%u00`, or a UTF-8 character's bytes but its last, `%E2%82`), as a cut leaves it. */
const CUT = /(?:%[cd][0-9a-f]|%e[0-9a-f](?:%[89ab][0-9a-f])?|%f[0-4](?:%[89ab][0-9a-f]){0,2})?(?:%(?:u[0-9a-f]{0,3}|[0-9a-f]?))?$/i;

/** The escape at `at`: what it decodes to and its length; none for a `%` that begins no escape. */
function escapeAt(text: string, at: number): [string, number] | undefined {
  ESCAPE.lastIndex = at;
  const [, unit, character, byte] = ESCAPE.exec(text) ?? [];
  if (unit) return [String.fromCharCode(Number.parseInt(unit, 16)), 6];
  try {
    if (character) return [decodeURIComponent(character), character.length];
  } catch {
    // An overlong form or a surrogate: no UTF-8 character, so its first byte alone, as the bytes below.
  }
  // A byte that begins no UTF-8 character is its Latin-1 character (`%E9` is `é` in a Latin-1 header).
  const hex = byte ?? character?.slice(1, 3);
  return hex ? [String.fromCharCode(Number.parseInt(hex, 16)), 3] : undefined;
}

/** What a match of a rewriting pattern becomes: its units in the view and the length it takes; none: kept as is. */
type Rewrite = (match: RegExpExecArray) => [units: string, length: number] | undefined;

/** `text` with each match of the global `pattern` rewritten as `rewrite` answers, each unit mapped back. */
function rewritten(text: string, pattern: RegExp, rewrite: Rewrite): TextView {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return sameAs(text);
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let out = '';
  let plain = 0;
  const copy = (to: number) => {
    for (let at = plain; at < to; at++) {
      starts[out.length + at - plain] = at;
      ends[out.length + at - plain] = at + 1;
    }
    out += text.slice(plain, to);
  };
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [units, length] = rewrite(match) ?? [];
    if (units === undefined || length === undefined) continue;
    copy(match.index);
    starts.fill(match.index, out.length, out.length + units.length);
    ends.fill(match.index + length, out.length, out.length + units.length);
    out += units;
    plain = pattern.lastIndex = match.index + length;
  }
  copy(text.length);
  return { text: out, start: (i) => starts[i]!, end: (i) => ends[i]! };
}

/** `inner`, a view of `outer`'s text, as a view of the text `outer` is a view of. */
const through = (outer: TextView, inner: TextView): TextView => ({
  text: inner.text,
  start: (i) => outer.start(inner.start(i)),
  end: (i) => outer.end(inner.end(i) - 1),
});

/**
 * `text` without the characters a form may carry anywhere (IGNORED), its percent escapes decoded (a `%` that begins
 * no escape stays), and without an escape cut short at its end, so that a secret's head before it ends the view.
 */
export function viewOf(whole: string): TextView {
  const stripped = rewritten(whole.slice(0, whole.length - CUT.exec(whole.slice(-14))![0].length), IGNORED_ALL, () => ['', 1]);
  return through(
    stripped,
    rewritten(stripped.text, /%/g, (match) => escapeAt(match.input, match.index)),
  );
}

/** `text` with each run of whitespace as one space, so that a copy is found however a service wrapped or tabbed it. */
export const spacesFolded = (text: string): TextView => rewritten(text, /\s+/g, ([run]) => (run === ' ' ? undefined : [' ', run.length]));
