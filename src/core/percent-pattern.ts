/**
 * A secret as URL encoders may write it: each character as is or percent-encoded, whichever each encoder chose,
 * hex digits in either case. Matched character by character: one pattern for a whole long secret (a JWT of a
 * few thousand characters) is more than a regular expression engine compiles.
 */

/** `text` as a pattern that matches it literally. */
export const literalPattern = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** One hex digit in either case: `c` matches `[cC]`. */
const hexDigit = (digit: string): string => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);
const percent = (code: number, width: number): string => Array.from(code.toString(16).padStart(width, '0'), hexDigit).join('');

/**
 * The ways one character may be written, each a sticky pattern: its UTF-8 bytes, its Latin-1 byte (`é` is `%E9`
 * in a Latin-1 header), `escape()`'s `%uXXXX` past U+00FF, `+` for a space, and the character itself.
 */
function characterWays(character: string): RegExp[] {
  const code = character.codePointAt(0)!;
  const ways = [Array.from(new TextEncoder().encode(character), (byte) => `%${percent(byte, 2)}`).join('')];
  if (code >= 0x80 && code <= 0xff) ways.push(`%${percent(code, 2)}`);
  if (code > 0xff) ways.push(Array.from(character, (unit) => `%u${percent(unit.charCodeAt(0), 4)}`).join(''));
  if (character === ' ') ways.push('\\+');
  ways.push(literalPattern(character));
  return ways.map((way) => new RegExp(way, 'y'));
}

/** What may end a text after a secret's head: an escape cut short (`%`, `%4`, `%u00`), as a cut leaves it. */
const CUT_ESCAPE = /(?:%u?[0-9A-Fa-f]{0,3}){0,4}$/y;
/** The longest such end: four cut escapes of `%uXXX`. */
const CUT_ESCAPE_REACH = 24;

/** What a secret's percent-encoded forms are searched with, built once per secret. */
export interface PercentPatterns {
  /** `text` with every whole copy of the secret, any character encoded or not, replaced. */
  replaceIn(text: string, replacement: string): string;
  /** Where the longest head of the secret that `text` ends with starts, a trailing escape cut in half included; -1 if none. */
  headStart(text: string): number;
}

export function percentPatterns(secret: string): PercentPatterns {
  const characters = Array.from(secret, characterWays);
  const first = new RegExp((characters[0] ?? []).map((way) => way.source).join('|'), 'g');
  // Where a copy starting at `start` can stand after each character: a set, because `%` may be `%25` or itself.
  // `onStep` is asked after each character; it ends the walk by answering true.
  const walk = (text: string, start: number, onStep: (ends: Set<number>, matched: number) => boolean): Set<number> => {
    let ends = new Set([start]);
    for (let i = 0; i < characters.length && ends.size > 0; i++) {
      const next = new Set<number>();
      for (const at of ends) {
        for (const way of characters[i]!) {
          way.lastIndex = at;
          if (way.test(text)) next.add(way.lastIndex);
        }
      }
      ends = next;
      if (ends.size > 0 && onStep(ends, i + 1)) break;
    }
    return ends;
  };
  const starts = function* (text: string, from: number) {
    first.lastIndex = from;
    for (let found = first.exec(text); found; found = first.exec(text)) {
      yield found.index;
      first.lastIndex = found.index + 1;
    }
  };
  return {
    replaceIn(text, replacement) {
      let out = '';
      let kept = 0;
      for (const start of starts(text, 0)) {
        if (start < kept) continue;
        const ends = walk(text, start, () => false);
        if (ends.size === 0) continue;
        out += text.slice(kept, start) + replacement;
        kept = Math.max(...ends);
      }
      return kept === 0 ? text : out + text.slice(kept);
    },
    headStart(text) {
      // The longest encoding of the whole secret, and a cut escape after it.
      const reach = 12 * characters.length + CUT_ESCAPE_REACH;
      const endsAtCut = (at: number) => {
        if (text.length - at > CUT_ESCAPE_REACH) return false;
        CUT_ESCAPE.lastIndex = at;
        return CUT_ESCAPE.test(text);
      };
      // The earliest start is the longest head.
      for (const start of starts(text, Math.max(0, text.length - reach))) {
        let found = false;
        walk(text, start, (ends) => (found = [...ends].some(endsAtCut)));
        if (found) return start;
      }
      return -1;
    },
  };
}
