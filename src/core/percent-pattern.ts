/**
 * A secret as URL encoders may write it: each character as is or percent-encoded, whichever each encoder chose,
 * hex digits in either case. One pattern per secret, instead of a list of encoders that is never complete.
 */

/** `text` as a pattern that matches it literally. */
export const literalPattern = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** One hex digit in either case: `c` matches `[cC]`. */
const hexDigit = (digit: string): string => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);
const percent = (code: number, width: number): string => Array.from(code.toString(16).padStart(width, '0'), hexDigit).join('');

/**
 * The ways one character may be written, each unambiguous from its first characters but `%` itself: its UTF-8
 * bytes, its Latin-1 byte (`é` is `%E9` in a Latin-1 header), `escape()`'s `%uXXXX` past U+00FF, `+` for a space,
 * and the character itself, last.
 */
function characterPattern(character: string): string {
  const code = character.codePointAt(0)!;
  const ways = [Array.from(new TextEncoder().encode(character), (byte) => `%${percent(byte, 2)}`).join('')];
  if (code >= 0x80 && code <= 0xff) ways.push(`%${percent(code, 2)}`);
  if (code > 0xff) ways.push(Array.from(character, (unit) => `%u${percent(unit.charCodeAt(0), 4)}`).join(''));
  if (character === ' ') ways.push('\\+');
  ways.push(literalPattern(character));
  return `(?:${ways.join('|')})`;
}

/** What a secret's percent-encoded forms are searched with, built once per secret. */
export interface PercentPatterns {
  /** The whole secret, any character encoded or not. */
  readonly whole: RegExp;
  /** The longest head of the secret a text ends with, a trailing escape cut in half included. */
  readonly head: RegExp;
  /** How far from the end of a text the head can start: the longest encoding of the whole secret. */
  readonly reach: number;
}

export function percentPatterns(secret: string): PercentPatterns {
  const characters = Array.from(secret, characterPattern);
  // Nested optional groups: each further character is tried once, in order, so matching stays linear.
  const rest = characters.slice(1).reduceRight((inner, character) => `(?:${character}${inner})?`, '');
  return {
    whole: new RegExp(characters.join(''), 'g'),
    head: new RegExp(`${characters[0] ?? ''}${rest}(?:%u?[0-9A-Fa-f]{0,3}){0,4}$`),
    reach: 12 * secret.length + 24,
  };
}
