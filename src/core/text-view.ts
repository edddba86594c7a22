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
const UTF8 = new TextDecoder();

/** The byte of the escape `%XX` at `at`, or -1. */
function byteAt(text: string, at: number): number {
  if (text[at] !== '%' || at + 3 > text.length) return -1;
  const hex = text.slice(at + 1, at + 3);
  return /^[0-9a-f]{2}$/i.test(hex) ? Number.parseInt(hex, 16) : -1;
}

/** The bytes of one UTF-8 character whose first byte is `lead`, or 1 for a byte no UTF-8 character starts with. */
const utf8Length = (lead: number): number =>
  lead >= 0xf0 && lead < 0xf5 ? 4 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 1;

/** The escape at `at` (`%` there): its units and length, or none when it is no escape. */
function escapeAt(text: string, at: number): [string, number] | undefined {
  if (/^%u[0-9a-f]{4}$/i.test(text.slice(at, at + 6))) return [String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16)), 6];
  const lead = byteAt(text, at);
  if (lead === -1) return undefined;
  const bytes = [lead];
  const length = utf8Length(lead);
  for (let next = byteAt(text, at + 3); bytes.length < length && next >= 0x80 && next < 0xc0; next = byteAt(text, at + 3 * bytes.length))
    bytes.push(next);
  // A whole UTF-8 character, else the byte alone as Latin-1 (`%E9` is `é` in a Latin-1 header).
  return bytes.length === length ? [UTF8.decode(Uint8Array.from(bytes)), 3 * length] : [String.fromCharCode(lead), 3];
}

/** The last index in the ascending `list` whose value is at most `value`, or -1. */
function lastAtMost(list: readonly number[], value: number): number {
  let [low, high] = [0, list.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (list[middle]! <= value) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}

/**
 * `text` with percent escapes decoded: `%XX` bytes as UTF-8 where they are a whole UTF-8 character, else each as
 * its Latin-1 character; `%uXXXX` as `escape()` writes a UTF-16 unit; hex in any case. An escape cut short at the
 * end (`%`, `%C3%A`) is left as is, so that a secret's head before it is still the end of the view but for it.
 */
function decode(text: string): TextView {
  let out = '';
  // Each decoded unit: where it is in the view, and the escape it came from.
  const units: number[] = [];
  const froms: number[] = [];
  const tos: number[] = [];
  let plain = 0;
  for (let at = text.indexOf('%'); at !== -1; at = text.indexOf('%', at + 1)) {
    const decoded = escapeAt(text, at);
    if (!decoded) continue;
    out += text.slice(plain, at);
    for (let unit = 0; unit < decoded[0].length; unit++) {
      units.push(out.length + unit);
      froms.push(at);
      tos.push(at + decoded[1]);
    }
    out += decoded[0];
    plain = at + decoded[1];
    at = plain - 1;
  }
  if (units.length === 0) return { text, start: (i) => i, end: (i) => i + 1 };
  out += text.slice(plain);
  // A unit between escapes is the text's, as far after the last escape before it as it is in the view.
  const source = (i: number, edge: number[]) => {
    const j = lastAtMost(units, i);
    return j === -1 ? i : units[j] === i ? edge[j]! : tos[j]! + (i - units[j]! - 1);
  };
  return {
    text: out,
    start: (i) => source(i, froms),
    end: (i) => (units[lastAtMost(units, i)] === i ? source(i, tos) : source(i, froms) + 1),
  };
}

/**
 * Where an escape cut short at the end of `text` starts (`%`, `%u00`, or a UTF-8 character's bytes but its last,
 * `%C3`), as a body cut by a limit leaves it; else the text's length.
 */
function cutEscape(text: string): number {
  const end = /((?:%[0-9a-f]{2}){0,3})(%(?:u[0-9a-f]{0,3}|[0-9a-f]?))?$/i.exec(text.slice(-14))!;
  const at = text.length - end[0].length;
  // The last byte that begins a UTF-8 character: cut if fewer bytes follow it than the character has.
  for (let byte = end[1]!.length - 3; byte >= 0; byte -= 3) {
    const lead = Number.parseInt(end[1]!.slice(byte + 1, byte + 3), 16);
    if (lead < 0x80 || lead >= 0xc0)
      return utf8Length(lead) > (end[1]!.length - byte) / 3 ? at + byte : end[2] ? text.length - end[2].length : text.length;
  }
  return end[2] ? text.length - end[2].length : text.length;
}

/**
 * `text` without the characters a form may carry anywhere (IGNORED), then decoded, but for an escape cut short at
 * its end: the view ends where it starts, so that a secret's head before it ends the view.
 */
export function viewOf(text: string): TextView {
  const stripped = text.replace(IGNORED_ALL, '');
  const inner = decode(stripped.slice(0, cutEscape(stripped)));
  if (inner.text.length === text.length) return inner;
  // Each dropped character, as the index in the stripped text it came before.
  const dropped: number[] = [];
  for (const match of text.matchAll(IGNORED_ALL)) dropped.push(match.index - dropped.length);
  const back = (i: number) => i + lastAtMost(dropped, i) + 1;
  return { text: inner.text, start: (i) => back(inner.start(i)), end: (i) => back(inner.end(i) - 1) + 1 };
}
