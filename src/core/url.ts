/** What counts as an http(s) URL, a path that climbs and one request's URL, once for the whole package; imports nothing, so the webhooks entry can use it. */
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

/**
 * Whether a path has a `.` or `..` segment once `%2E`, `%2F` and `%5C` (any case) are decoded and it is split
 * on `/` and `\` (which URLs read as `/`): a URL parser resolves `%2e%2e`, and servers and gateways that decode
 * `%2F`/`%5C` before normalising (nginx, IIS) resolve `..%2f` too. The one rule for request paths, ids and redirects.
 */
export function climbs(path: string): boolean {
  const decoded = path.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
  return /(?:^|[/\\])\.{1,2}(?:[/\\]|$)/.test(decoded);
}

/**
 * A URL as the request it makes: no fragment, no empty `?`, each percent escape of an unreserved character decoded
 * and the others in upper case (RFC 3986, 6.2.2): two spellings of one request are one text.
 */
export function requestKey(url: URL): string {
  const target = `${url.pathname}${url.search.length > 1 ? url.search : ''}`.replace(/%[\da-f]{2}/gi, (encoded) => {
    const character = String.fromCharCode(Number.parseInt(encoded.slice(1), 16));
    return /[\w.~-]/.test(character) ? character : encoded.toUpperCase();
  });
  return `${url.origin}${target}`;
}
