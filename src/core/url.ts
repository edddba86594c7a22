/** What counts as an http(s) URL, once for the whole package; imports nothing, so the webhooks entry can use it. */
export function isHttpUrl(text: string): boolean {
  // Parsed once (`URL.canParse` then `new URL` parsed it twice); `URL.parse` is not in Node 20.
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** True when a URL carries `user:password@`: fetch refuses it, and an error quoting it would show the password. */
export function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}
