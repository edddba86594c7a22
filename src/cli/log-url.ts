/**
 * URLs as a log line shows them: a client may put its key in a query (`?api_key=…`) and a webhook URL may carry
 * a user and password, so those are hidden by redaction's one rule for a credential's name.
 */
import { isCredentialName, REDACTED } from '../core/redact.js';

/**
 * A URL in text: a scheme, `:`, then anything to a space, a quote or an angle bracket. Each is then read by the
 * URL parser, which also takes `http:u:pw@host`, `http:/…` and `http:\\…` as `http://u:pw@host`.
 */
const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:[^\s"'<>]+/gi;
/** What looks like a user and password in a URL the parser refuses (a bad port, say): hidden all the same. */
const USER_INFO = /^([a-z][a-z\d+.-]*:[/\\]*)[^/\\?#]*@/i;

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** A query (`?a=1&token=x`, with its `?`) with the value of each field named for a credential hidden. */
export function hideQueryCredentials(query: string): string {
  return query.replace(/([?&;])([^=&;#]*)=([^&;#]*)/g, (whole, separator: string, name: string) =>
    isCredentialName(decodedName(name)) ? `${separator}${name}=${REDACTED}` : whole,
  );
}

/** The URL as the parser reads it (a tab or line break in it dropped), with its user and password, and its credential query fields, hidden. */
export function hideUrl(url: string): string {
  const read = parsed(url);
  if (read === undefined) return hideUrlCredentials(url);
  const userInfo = read.username === '' && read.password === '' ? '' : `${REDACTED}@`;
  return `${read.protocol}//${userInfo}${read.host}${read.pathname}${hideQueryCredentials(read.search)}${read.hash}`;
}

/**
 * Each URL in the text with its user and password, and its credential query fields, hidden; `given`, a URL the
 * text may quote as it was given (fetch does, a tab or line break in it included), is shown by `hideUrl`.
 */
export function hideUrlCredentials(text: string, given?: string): string {
  const quoted = given === undefined ? text : text.replaceAll(given, hideUrl(given));
  return quoted.replace(URL_IN_TEXT, (url) => {
    const read = parsed(url);
    if (read !== undefined && (read.username !== '' || read.password !== '')) return hideUrl(url);
    const hash = url.indexOf('#');
    const beforeHash = hash === -1 ? url : url.slice(0, hash);
    const query = beforeHash.indexOf('?');
    const head = (query === -1 ? beforeHash : beforeHash.slice(0, query)).replace(USER_INFO, `$1${REDACTED}@`);
    return head + (query === -1 ? '' : hideQueryCredentials(beforeHash.slice(query))) + (hash === -1 ? '' : url.slice(hash));
  });
}
