/**
 * Text from the service (an error's message, a build's status or logs, a download URL, JSON output) made safe
 * to print on a terminal: control and format characters are shown escaped, not obeyed.
 */

/**
 * What a terminal does not show as itself: C0 and C1 controls and DEL, format characters (bidirectional
 * overrides, zero-width and soft hyphen: they reorder or hide text), the line and paragraph separators, what
 * Unicode says to render as nothing (Hangul fillers, variation selectors, the grapheme joiner), the braille
 * blank, private-use characters and noncharacters (no font agrees on them), U+FFFD (bytes that were not
 * UTF-8) and lone surrogates.
 */
export const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\p{Co}\p{Noncharacter_Code_Point}\uFFFD\p{Cs}]/u;
const UNSAFE = new RegExp(UNSEEN.source, 'gu');

/**
 * `text` with each character that would move the cursor, clear the screen, reorder, hide or break the text
 * escaped as `\u001b` (one per UTF-16 unit: also valid inside a JSON string).
 */
export function printable(text: string): string {
  // A tab is kept: it moves the cursor only as far as text would.
  return text.replace(UNSAFE, (char) => (char === '\t' ? char : escaped(char)));
}

function escaped(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
