/**
 * The download's request on the wire, over the client's transport, redirects followed by hand where the transport
 * does not; and what a download host's error becomes, its signed URL never quoted.
 */
import { ERROR_BODY_READ, readText } from './body.js';
import { statusError } from './call-failure.js';
import { AbortError, type ApiError, ResponseValidationError, ValidationError } from './errors.js';
import { redactText, usableSecrets, withoutQuery } from './redact.js';
import { letGo, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
import { hasCredentials, isHttpUrl } from './url.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// As many as `fetch` follows.
const MAX_REDIRECTS = 20;

/**
 * The download's one request, redirects followed here to any host (nothing secret is sent), so that each URL
 * gone to is added to `followed` and its signed query can be hidden; a bad one fails as in `fetch`. Only where
 * a browser hides a redirect (status 0) does `fetch` follow it, unseen.
 */
export async function requestArtifact(transport: Transport, request: TransportRequest, followed: Set<string>): Promise<TransportResponse> {
  let url = request.url;
  for (let hops = 0; ; hops++) {
    followed.add(url);
    const response = await transport({ ...request, url });
    if (response.status === 0) return transport({ ...request, url, redirect: 'follow' });
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await letGo(response.body);
    const next = URL.canParse(location, url) ? new URL(location, url) : undefined;
    // A network error, as `fetch` gives for these: retried, then a `ConnectionError` that quotes no URL.
    if (hops >= MAX_REDIRECTS) throw new TypeError('redirect count exceeded');
    if (!next || !isHttpUrl(next.href) || hasCredentials(next))
      throw new TypeError('redirect to a location that is not an http(s) URL without credentials');
    url = next.href;
  }
}

/** A signed URL's query, and each of its longer values, which a host's error may quote apart. */
function querySecrets(url: string): string[] {
  if (!URL.canParse(url)) return usableSecrets([url]);
  const { search, searchParams } = new URL(url);
  return usableSecrets([search.slice(1), ...[...searchParams.values()].filter((value) => value.length >= 8)]);
}

/** A platform's error text without any URL in it, nor the query of any URL gone to, raw or percent-encoded. */
export function hideUrl(text: string, followed: Iterable<string>): string {
  const shown = text.replace(/[a-z][a-z\d+.-]*(:\/\/|%3A%2F%2F)\S*/gi, '[URL hidden]');
  return redactText(shown, [...followed].flatMap(querySecrets), '[query hidden]');
}

/**
 * A download host's error status as an `ApiError` naming `url`, the signed query of every URL gone to redacted
 * like a secret (S3 echoes the signature of the URL it was sent, a redirect's too). Its body is read, redacted and
 * cut as an API error's is.
 */
export async function hostError(
  response: TransportResponse,
  url: string,
  followed: Iterable<string>,
  known: readonly string[],
): Promise<ApiError> {
  const secrets = [...known, ...[...followed].flatMap(querySecrets)];
  const text = (await readText(response, ERROR_BODY_READ, true).catch(() => undefined)) ?? '';
  return statusError(secrets, { method: 'GET', url: withoutQuery(url) }, { status: response.status, headers: response.headers, text });
}

/** Whatever is not the SDK's own refusal: a transport rejects only for a network failure, and a body that breaks errors with whatever the platform chose. */
export function isNetworkError(error: unknown): boolean {
  return !(error instanceof ResponseValidationError || error instanceof AbortError || error instanceof ValidationError);
}
