/**
 * Text from the service (an error's message, a build's status or logs) made safe to print on a terminal:
 * control characters and the Unicode ones that reorder or break lines are shown escaped, not obeyed.
 */

// C0 and C1 controls and DEL (tab is kept), the line and paragraph separators, and the bidirectional overrides.
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with each character that would move the cursor, clear the screen or start a new line escaped (`\u001b`). */
export function printable(text: string): string {
  return text.replace(UNSAFE, (char) => (char === '\t' ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
