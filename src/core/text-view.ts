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

/** `text` from `from` to `to`, each character's start (and end) recorded from `into` on: a run the view copies as is. */
function copied(text: string, from: number, to: number, into: number, starts: Int32Array, ends?: Int32Array): string {
  for (let at = from; at < to; at++) starts[into + at - from] = at;
  if (ends) for (let at = from; at < to; at++) ends[into + at - from] = at + 1;
  return text.slice(from, to);
}

/** `text` with its percent escapes decoded; a `%` that begins no escape stays. */
function decode(text: string): TextView {
  if (!text.includes('%')) return { text, start: (i) => i, end: (i) => i + 1 };
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let out = '';
  let plain = 0;
  for (let at = text.indexOf('%'); at !== -1; at = text.indexOf('%', at + 1)) {
    const [units, length] = escapeAt(text, at) ?? [];
    if (units === undefined || length === undefined) continue;
    out += copied(text, plain, at, out.length, starts, ends);
    starts.fill(at, out.length, out.length + units.length);
    ends.fill(at + length, out.length, out.length + units.length);
    out += units;
    plain = at + length;
    at = plain - 1;
  }
  out += copied(text, plain, text.length, out.length, starts, ends);
  return { text: out, start: (i) => starts[i]!, end: (i) => ends[i]! };
}

/**
 * `text` without the characters a form may carry anywhere (IGNORED), its percent escapes decoded, and without an
 * escape cut short at its end, so that a secret's head before such an escape ends the view.
 */
export function viewOf(whole: string): TextView {
  const text = whole.slice(0, whole.length - CUT.exec(whole.slice(-14))![0].length);
  if (!IGNORED.test(text)) return decode(text);
  // Where each character kept comes from.
  const kept = new Int32Array(text.length);
  let stripped = '';
  let from = 0;
  for (const { index } of text.matchAll(IGNORED_ALL)) {
    stripped += copied(text, from, index, stripped.length, kept);
    from = index + 1;
  }
  stripped += copied(text, from, text.length, stripped.length, kept);
  const inner = decode(stripped);
  return { text: inner.text, start: (i) => kept[inner.start(i)]!, end: (i) => kept[inner.end(i) - 1]! + 1 };
}

/** `text` with each run of whitespace as one space, so that a copy is found however a service wrapped or tabbed it. */
export function spacesFolded(text: string): TextView {
  if (!/\s\s|[^\S ]/.test(text)) return { text, start: (i) => i, end: (i) => i + 1 };
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let out = '';
  let from = 0;
  for (const { index, 0: run } of text.matchAll(/\s+/g)) {
    out += copied(text, from, index, out.length, starts, ends);
    [starts[out.length], ends[out.length]] = [index, index + run.length];
    out += ' ';
    from = index + run.length;
  }
  out += copied(text, from, text.length, out.length, starts, ends);
  return { text: out, start: (i) => starts[i]!, end: (i) => ends[i]! };
}
