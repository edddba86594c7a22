/**
 * The boundary to the network: one request out, a status, headers and a body stream back. Retries, redirects,
 * limits and redaction live above it, once, so a second transport changes none of them.
 */

/** One HTTP request, as the core hands it to a transport. Redirects are never followed by the transport. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts the request and any read of its body. */
  signal: AbortSignal;
}

/** What came back. `status` is 0 where a browser hid a redirect from scripts. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The body as it arrives, gzip, deflate and br already undone; `null` when there is none. */
  body: AsyncIterable<Uint8Array> | null;
}

/** Sends one request. Rejects only when no response came (a network failure or an abort). */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
