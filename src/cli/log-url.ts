/**
 * URLs as a log line shows them: a client may put its key in a query (`?api_key=…`) and a webhook URL may carry
 * a user and password, so those are hidden by redaction's one rule for a credential's name.
 */
import { isCredentialName, REDACTED } from '../core/redact.js';

/** A URL in text: a scheme, `://`, then anything to a space, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>]+/gi;
/** The user and password before a host; `\` counts as `/`, as URL parsers read it in http(s) URLs. */
const USER_INFO = /^([a-z][a-z\d+.-]*:\/\/)[^/\\?#]*@/i;

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

/** Each URL in the text with its user and password, and its credential query fields, hidden. */
export function hideUrlCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => {
    const hash = url.indexOf('#');
    const beforeHash = hash === -1 ? url : url.slice(0, hash);
    const query = beforeHash.indexOf('?');
    const head = (query === -1 ? beforeHash : beforeHash.slice(0, query)).replace(USER_INFO, `$1${REDACTED}@`);
    return head + (query === -1 ? '' : hideQueryCredentials(beforeHash.slice(query))) + (hash === -1 ? '' : url.slice(hash));
  });
}
