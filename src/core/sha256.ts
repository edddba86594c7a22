/** SHA-256 as lower-case hex, on Web Crypto (every runtime the SDK runs in). A leaf: it imports nothing. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // A copy: TypeScript 5.7+ accepts only ArrayBuffer-backed bytes in Web Crypto.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
