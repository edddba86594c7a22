/**
 * A text searched for in time linear in the text searched, whatever it is (Knuth-Morris-Pratt): `indexOf` is not,
 * on a periodic one (`abab…` in `abab…x`), where it compares the whole needle again at every other character.
 */

/** A text to search for, with its table of fallbacks: how long a head of it is still matched after a mismatch. */
export interface Needle {
  readonly text: string;
  readonly fallback: Int32Array;
}

/** `text` as a needle (not empty): its fallbacks computed once, for every text it is searched in. */
export function needleOf(text: string): Needle {
  const fallback = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = fallback[k - 1]!;
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    fallback[i] = k;
  }
  return { text, fallback };
}

/**
 * Calls `found` with where each copy of the needle in `text` starts, copies not overlapping, and answers the length
 * of the longest head of the needle that the text ends with after the last copy.
 */
export function scan(text: string, { text: needle, fallback }: Needle, found: (start: number) => void): number {
  const first = needle[0] ?? '';
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    // Matching nothing yet: `indexOf` skips to where the needle's first character is, natively.
    if (k === 0) i = text.indexOf(first, i);
    if (i === -1) break;
    const c = text.charCodeAt(i);
    while (k > 0 && c !== needle.charCodeAt(k)) k = fallback[k - 1]!;
    if (c === needle.charCodeAt(k)) k++;
    if (k === needle.length) {
      found(i + 1 - k);
      k = 0;
    }
  }
  return k;
}
