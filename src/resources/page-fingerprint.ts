/** A page's content as one number, so a walk can tell a page it has read before without keeping its items. */

/** The same for the same items in any order; `undefined` for items too deep or cyclic to read (never a repeat). */
export function pageFingerprint(items: readonly unknown[]): number | undefined {
  const keys: string[] = [];
  for (const item of items) {
    const id = (item as Record<string, unknown> | null)?.['id'];
    if (typeof id === 'string' || typeof id === 'number') keys.push(`${typeof id}:${id}`);
    else {
      try {
        keys.push(`json:${JSON.stringify(item)}`);
      } catch {
        return undefined;
      }
    }
  }
  // Sorted: a server that ignores `page` may still shuffle or rotate the same items.
  return hash(`${items.length}:${keys.sort().join('\u0000')}`);
}

/** cyrb53, a 53-bit string hash. */
function hash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
