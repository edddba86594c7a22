/** Where a redirect may lead a call's request, followed by hand on every transport: the one rule for both. */
import { pathOf } from './api-error.js';
import { apiError } from './call-failure.js';
import { ConnectionError } from './errors.js';
import { redactText } from './redact.js';
import { underRoot } from './target.js';
import { climbs, hasCredentials, requestKey } from './url.js';

/** One request of the call: redirects may change all three. */
export interface Outgoing {
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
}

/** What a call knows when a redirect arrives. */
export interface RedirectScope {
  /** The service root (origin plus base path): the key is sent nowhere else. */
  readonly root: string;
  readonly secrets: readonly string[];
  /** Every URL the call sent, as `requestKey` writes it (the prefix fallback's first URL included): none is sent again. */
  readonly sent: ReadonlySet<string>;
}

const MAX_REDIRECTS = 5;

/** The next request of a redirect. Only within the service root (or, for a foreign call, its origin), so the key never leaves it. */
export function redirected(
  request: Outgoing,
  received: { readonly status: number; readonly headers: Headers; readonly text: string },
  hops: number,
  { root, secrets, sent }: RedirectScope,
): Outgoing {
  const { status } = received;
  const { url, method } = request;
  if (status === 0) {
    const shownUrl = redactText(url, secrets);
    throw new ConnectionError(`${method} ${shownUrl} was redirected; browsers hide redirects from scripts, so it was not followed`);
  }
  const refuse = (message: string, headers = received.headers) => apiError(secrets, request, { ...received, headers }, undefined, message);
  const location = received.headers.get('location');
  const next = location !== null && URL.canParse(location, url) ? new URL(location, url) : undefined;
  if (!next) throw refuse('Redirect without a usable Location header');
  if (hops >= MAX_REDIRECTS) throw refuse(`More than ${MAX_REDIRECTS} redirects`);
  if (next.origin !== new URL(url).origin) {
    // Its host is not quoted: a service may echo the key into it, lower-cased by the URL parser past redaction.
    throw refuse('Redirect to another origin not followed, so the API key stays with the service');
  }
  if (hasCredentials(next)) {
    // node:http would send Basic auth from it, and fetch refuses it: neither, and the Location is not quoted.
    const headers = new Headers(received.headers);
    headers.set('location', '[redacted]');
    throw refuse('Redirect to a URL with user:password@ not followed', headers);
  }
  // A POST sent again may act twice; a GET sent again loops.
  if (sent.has(requestKey(next))) throw refuse('Redirect to a URL already sent not followed, so it is not sent twice');
  // The Location as sent: the URL parser has removed its dot segments from `next` already.
  if (underRoot(url, root) !== undefined && (underRoot(next.href, root) === undefined || climbs(location!.split(/[?#]/)[0]!))) {
    throw refuse(`Redirect outside the service's base path (${pathOf(root) || '/'}) not followed, so the API key stays with the service`);
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && method === 'POST');
  return toGet ? { method: 'GET', url: next.href, body: undefined } : { method, url: next.href, body: request.body };
}
