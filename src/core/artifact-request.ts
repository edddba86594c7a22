/**
 * The download's requests, on the wire: the one call to `fetch` (the function a transport replaces), and what
 * a download host's error becomes, its signed URL never quoted.
 */
import { ERROR_BODY_BYTES } from './body.js';
import { AbortError, ApiError, ResponseValidationError, ValidationError } from './errors.js';
import type { FetchLike } from './options.js';
import { redact, redactText, usableSecrets, withoutQuery } from './redact.js';
import type { TransportRequest, TransportResponse } from './transport.js';

/** The download's one request: redirects followed to any host (nothing secret is sent). A transport swaps in here. */
export async function fetchArtifact(fetchImpl: FetchLike | undefined, request: TransportRequest): Promise<TransportResponse> {
  const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal, redirect: 'follow' };
  const response = await (fetchImpl ? fetchImpl(request.url, init) : fetch(request.url, init));
  return { status: response.status, headers: response.headers, body: response.body && chunksOf(response.body) };
}

/** A Web stream as an async iterable, which not every browser's `ReadableStream` is. */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
}

/** A signed URL's query, and each of its longer values, which a host's error may quote apart. */
function querySecrets(url: string): string[] {
  if (!URL.canParse(url)) return usableSecrets([url]);
  const { search, searchParams } = new URL(url);
  return usableSecrets([search.slice(1), ...[...searchParams.values()].filter((value) => value.length >= 8)]);
}

/** A platform's error text without any URL in it, nor the download URL's query, raw or percent-encoded. */
export function hideUrl(text: string, url: string): string {
  const shown = text.replace(/[a-z][a-z\d+.-]*(:\/\/|%3A%2F%2F)\S*/gi, '[URL hidden]');
  return redactText(shown, querySecrets(url), '[query hidden]');
}

/** An error response's head, enough for any message (the rest is never read), parsed when it is JSON. */
async function errorBody(body: AsyncIterable<Uint8Array> | null): Promise<unknown> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body ?? []) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length >= ERROR_BODY_BYTES) break;
  }
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text.slice(0, ERROR_BODY_BYTES);
  }
}

/** A download host's error status as an `ApiError`, the signed URL redacted like a secret (S3 echoes the signature). */
export async function hostError(response: TransportResponse, url: string): Promise<ApiError> {
  const secrets = querySecrets(url);
  const body = await errorBody(response.body).catch(() => undefined);
  const headers = redact(Object.fromEntries(response.headers), secrets);
  return ApiError.from({ status: response.status, headers, method: 'GET', url: withoutQuery(url), body: redact(body, secrets) });
}

/** Fetch rejects a network failure with a TypeError; a body that breaks errors with whatever the platform chose. */
export function isNetworkError(error: unknown): boolean {
  return !(error instanceof ResponseValidationError || error instanceof AbortError || error instanceof ValidationError);
}
