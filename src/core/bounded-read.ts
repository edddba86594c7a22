/** Reading a body's chunks within a size bound, and joining them: one way for a response and a webhook delivery. */

/**
 * Reads `next` to its end, or until past `limit` bytes: then `cut`, with the first `limit` bytes when `head`
 * is asked for. Throws what `next` throws.
 */
export async function readBounded(
  next: () => Promise<{ done?: boolean | undefined; value?: Uint8Array | undefined }>,
  limit: number,
  head?: boolean,
): Promise<{ bytes: Uint8Array | undefined; cut: boolean }> {
  // Kept as bytes and joined once: a body that turns out too large costs no string.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await next();
    if (done) return { bytes: joined(chunks, size), cut: false };
    size += value!.byteLength;
    if (size > limit) {
      if (!head) return { bytes: undefined, cut: true };
      chunks.push(value!.subarray(0, value!.byteLength - (size - limit)));
      return { bytes: joined(chunks, limit), cut: true };
    }
    chunks.push(value!);
  }
}

/** `size` bytes of chunks as one array; one chunk as it is. */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
