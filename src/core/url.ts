/**
 * What counts as an http(s) URL, once for the whole package: the input checks, `baseUrl`, the webhook parser and
 * the mock service all ask the same question. Imports nothing, so the webhooks entry can use it without the client.
 */

/** True when `text` parses as an absolute URL whose scheme is `http` or `https`. */
export function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}
