/**
 * What counts as an http(s) URL, once for the whole package. Imports nothing, so the webhooks entry can use it
 * without the client.
 */

export function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}
