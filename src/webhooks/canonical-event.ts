/**
 * An event's one text however it was serialised: keys sorted, no spaces, each number's exact value from the
 * digits as sent. A parsed number is a double, in which 2^53 and 2^53 + 1 are one: a key on it would make two
 * events one delivery, and the second would never run.
 */

/** A JSON string (its escapes kept), or a number; the text has parsed as JSON, so digits outside strings are numbers. */
const TOKEN = /("[^"\\]*(?:\\.[^"\\]*)*")|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A number's exact value as `<digits>e<exponent>`, without leading or trailing zeros: `1.0`, `10e-1` and `1` are `1e0`. */
function exactNumber(token: string): string {
  const [, sign, whole, fraction = '', exponent = 0] = NUMBER.exec(token)!;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  return significant ? `${sign}${significant}e${BigInt(exponent) + BigInt(digits.length - significant.length - fraction.length)}` : '0';
}

/**
 * Each number becomes the string `"n<exact value>"` and each string `"s<itself>"`, so that the two never meet,
 * then the JSON is parsed and written back with every object's keys sorted.
 */
export function canonicalEvent(text: string): string {
  const tagged = text.replace(TOKEN, (token, string: string | undefined) => (string ? `"s${string.slice(1)}` : `"n${exactNumber(token)}"`));
  return JSON.stringify(JSON.parse(tagged), (_, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
