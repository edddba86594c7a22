/**
 * One download from a `download_url`, over the client's transport: no key and none of the client's headers (the
 * URL is the credential), each wait for data bounded, resumed with `Range` only where a validator proves the
 * artifact unchanged, the length checked wherever it is known. Loaded on first use; its request is in artifact-request.ts.
 */
import { hideUrl, hostError, isNetworkError, requestArtifact } from './artifact-request.js';
import type { DownloadOptions } from './download-options.js';
import { ApiError, ConnectionError, ResponseValidationError, TimeoutError } from './errors.js';
import { abortedBy, pastDeadline } from './failures.js';
import type { LevelLogger } from './logger.js';
import { observe } from './observe.js';
import { thrownName, withoutQuery } from './redact.js';
import { networkErrorCodes } from './network-errors.js';
import { backoff, retriedByDefault } from './retry.js';
import { AbortSource, now, runPhase, sleepWithin, type PhaseResult } from './timing.js';
import { abortWith, contentEncoded, type Transport, type TransportResponse } from './transport.js';

/** What a transfer needs: the download's options, its URL and the client's defaults filled in. */
export interface TransferSpec extends DownloadOptions {
  url: string;
  /** The client's: a download streams as its calls do (`node:http` on Node, else `fetch`). */
  transport: Transport;
  /** A fresh URL for an expired one (403, 404, 410): asked once per download. */
  refresh: (() => Promise<string>) | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** On {@link now}'s clock; `Infinity` for none. */
  deadline: number;
  log: LevelLogger;
  /** A file can start over when a resume gets the whole artifact; a stream whose bytes were read cannot. */
  restartable: boolean;
  /** The client's API key: never sent to the host, and never shown if its error quotes it anyway. */
  secrets: readonly string[];
}

export type Step = { chunk: Uint8Array } | { restart: true } | { done: true };

const EXPIRED = new Set([403, 404, 410]);
const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

/** One download: connections made, resumed and checked on demand; `next()` gives the next step. */
export class Transfer {
  readonly #spec: TransferSpec;
  #url: string;
  /** Every URL requested, redirects too: their signed queries are hidden from every error. */
  readonly #followed = new Set<string>();
  #refreshed = false;
  #conn: AbortSource | undefined;
  /** The caller's signal aborts `#conn` for its whole life, between reads too (not only in a `next()`); this stops that. */
  #unlink: (() => void) | undefined;
  #body: AsyncIterator<Uint8Array> | undefined;
  /** Bytes of the artifact delivered so far. */
  #received = 0;
  #total: number | undefined;
  /** Bytes of a whole-artifact response to a resume, already delivered, to drop (streams only). */
  #skip = 0;
  /** What `If-Range` sends: the first response's strong ETag, or its Last-Modified. */
  #validator: string | undefined;
  /** Only a strong ETag proves a whole-artifact response to a resume is the same artifact. */
  #etag: string | undefined;
  /** The first response's ETag, weak or strong, without `W/`: a 206 must carry the same. */
  #tag: string | undefined;
  /** Why a dropped connection cannot be resumed with `Range`; `undefined` when it can. */
  #noResume: string | undefined = 'the host does not accept ranges';
  #fails = 0;
  /** The most bytes ever received, so a restart's bytes are not counted as progress. */
  #best = 0;
  #restart = false;

  constructor(spec: TransferSpec) {
    this.#spec = spec;
    this.#url = spec.url;
  }

  /** Connects, so that a refused download (an error status, a build without a URL) rejects the call itself. */
  async open(): Promise<void> {
    while (!this.#body) await this.#connect();
  }

  async next(): Promise<Step> {
    for (;;) {
      if (this.#restart) {
        this.#restart = false;
        return { restart: true };
      }
      const body = this.#body;
      if (!body) {
        await this.#connect();
        continue;
      }
      const result = await this.#phase(() => body.next());
      if (result.type !== 'done') {
        await this.#dropped(result);
        continue;
      }
      const { done, value } = result.value;
      if (done) {
        this.#close();
        if (this.#total !== undefined && this.#received !== this.#total) throw this.#mismatch();
        return { done: true };
      }
      this.#received += value.byteLength;
      if (this.#total !== undefined && this.#received > this.#total) throw this.#mismatch();
      this.#checkSize(this.#received);
      // Only bytes never received before are progress: a host that keeps restarting cannot loop forever.
      if (this.#received > this.#best) {
        this.#best = this.#received;
        this.#fails = 0;
      }
      const dropped = Math.min(this.#skip, value.byteLength);
      this.#skip -= dropped;
      if (dropped === value.byteLength) continue;
      this.#progress();
      return { chunk: value.subarray(dropped) };
    }
  }

  /** Closes the connection; safe to call at any time. */
  cancel(reason?: unknown): void {
    this.#conn?.abort(reason);
    this.#close();
  }

  #close(): void {
    this.#unlink?.();
    this.#unlink = this.#body = this.#conn = undefined;
  }

  /** One bounded wait: for a response or a chunk, cut by the caller's signal, the stall timeout and the deadline. */
  #phase<T>(work: () => Promise<T>): Promise<PhaseResult<T>> {
    const { signal, timeoutMs, deadline } = this.#spec;
    return runPhase(work, { signal, deadline: Math.min(now() + timeoutMs, deadline) });
  }

  #pastDeadline(): TimeoutError {
    const { deadlineMs } = this.#spec;
    return pastDeadline(`Downloading ${withoutQuery(this.#url)}`, deadlineMs ?? 0);
  }

  /** Turns an ending other than data into the SDK's error, or into a retry when one is allowed. */
  async #dropped(result: Exclude<PhaseResult<unknown>, { type: 'done' }>): Promise<void> {
    this.cancel();
    const { signal, deadline, timeoutMs, maxRetries, restartable } = this.#spec;
    const shown = withoutQuery(this.#url);
    const aborted = (cause: unknown) => abortedBy(`Downloading ${shown}`, cause);
    if (result.type === 'aborted') throw aborted(result.reason);
    if (result.type === 'deadline' && now() >= deadline) throw this.#pastDeadline();
    if (result.type === 'failed' && !isNetworkError(result.error)) throw result.error;
    const lastError = result.type === 'deadline' ? 'stall' : result.error;
    this.#fails += 1;
    const canResume = this.#received === 0 || this.#noResume === undefined || restartable;
    if (this.#fails > maxRetries || !canResume) {
      const at = `after ${this.#received}${this.#total === undefined ? '' : ` of ${this.#total}`} bytes`;
      const why = canResume ? `${maxRetries} retries without progress` : `${this.#noResume}, so it cannot resume`;
      if (lastError instanceof ApiError) throw lastError;
      if (lastError === 'stall') throw new TimeoutError(`Downloading ${shown}: no data for ${timeoutMs} ms ${at} (${why})`, timeoutMs);
      const codes = networkErrorCodes(lastError);
      const raw = lastError instanceof Error ? lastError.message : String(lastError);
      const detail = codes.length ? codes.join(', ') : hideUrl(raw, this.#followed);
      // Not the raw error as `cause`: a transport's messages (and their causes) can quote the signed URL.
      const cause = Object.assign(new Error(detail), codes.length ? { code: codes[0] } : {});
      throw new ConnectionError(`The connection failed while downloading ${shown} ${at}: ${detail} (${why})`, { cause });
    }
    this.#spec.log.log('warn', `download of ${shown} interrupted after ${this.#received} bytes; retry ${this.#fails}`);
    const wait = this.#fails === 1 ? 0 : backoff(this.#fails - 2);
    const slept = await sleepWithin(wait, { signal, deadline });
    if (typeof slept === 'object') throw aborted(slept.aborted);
    if (slept === 'deadline') throw this.#pastDeadline();
  }

  async #connect(): Promise<void> {
    const conn = new AbortSource();
    this.#conn = conn;
    this.#unlink = this.#spec.signal && abortWith(conn, this.#spec.signal);
    // Nothing of the client's: no key, no `headers`, no appInfo. `identity`, so byte offsets are the file's.
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'identity' };
    if (this.#received > 0 && this.#noResume !== undefined) {
      // Only a file gets here (`#dropped` ends a stream): it starts over.
      this.#restart = true;
      this.#received = 0;
    }
    const resuming = this.#received > 0;
    if (resuming) headers.range = `bytes=${this.#received}-`;
    if (resuming && this.#validator) headers['if-range'] = this.#validator;
    const request = { method: 'GET', url: this.#url, headers, body: undefined, abort: conn };
    const result = await this.#phase(() => requestArtifact(this.#spec.transport, request, this.#followed));
    if (result.type !== 'done') return this.#dropped(result);
    const { status } = result.value;
    if (status === 200 || status === 206) return this.#accept(result.value, resuming);
    if (EXPIRED.has(status) && this.#spec.refresh && !this.#refreshed) {
      this.#refreshed = true;
      this.cancel();
      this.#spec.log.log('info', `download URL responded ${status}; reading the build again for a fresh one`);
      this.#url = await this.#spec.refresh();
      return;
    }
    const error = await hostError(result.value, this.#url, this.#followed, this.#spec.secrets);
    if (retriedByDefault(status)) return this.#dropped({ type: 'failed', error });
    this.cancel();
    throw error;
  }

  #accept({ headers, status, body }: TransportResponse, resuming: boolean): void {
    const encoded = contentEncoded(headers);
    const etag = headers.get('etag');
    const strong = etag && !etag.startsWith('W/') ? etag : undefined;
    // Weakly compared: a weak ETag cannot go in If-Range, but a different one still means another artifact.
    const tag = etag?.replace(/^W\//, '');
    const validator = strong ?? headers.get('last-modified') ?? undefined;
    if (status === 206) {
      const match = CONTENT_RANGE.exec(headers.get('content-range') ?? '');
      if (!resuming || !match || Number(match[1]) !== this.#received) {
        throw this.#invalid(
          `responded to a range request with the wrong range (${headers.get('content-range') ?? 'no Content-Range'})`,
          'invalid_range',
        );
      }
      // A host that ignores If-Range could send another artifact's tail: never spliced onto this one's head.
      const total = match[3] === '*' ? undefined : Number(match[3]);
      if (
        (this.#validator !== undefined && validator !== this.#validator) ||
        (this.#tag !== undefined && tag !== this.#tag) ||
        (total !== undefined && this.#total !== undefined && total !== this.#total)
      )
        throw this.#changed();
      // The total the first response declared is kept: a 206 of unknown total (`*`) does not forget it.
      this.#total ??= total;
      this.#validator ??= validator;
    } else {
      const length = Number(headers.get('content-length') ?? NaN);
      const total = encoded || !Number.isSafeInteger(length) ? undefined : length;
      if (resuming && !this.#spec.restartable) {
        // A stream cannot take back what it gave: it skips ahead only if a strong ETag says the artifact is the same.
        if (strong === undefined || strong !== this.#etag || (total !== undefined && this.#total !== undefined && total !== this.#total))
          throw this.#changed();
        this.#skip = this.#received;
        this.#total ??= total;
      } else {
        // The first response, or a file starting over with the whole artifact.
        if (resuming) this.#restart = true;
        this.#total = total;
        this.#validator = validator;
        this.#etag = strong;
        this.#tag = tag;
        const ranges = !encoded && (headers.get('accept-ranges') ?? '').toLowerCase().includes('bytes');
        // Without a validator a resume could splice two versions of a changed artifact: a file starts over instead.
        this.#noResume = !ranges
          ? 'the host does not accept ranges'
          : tag === undefined && validator === undefined
            ? 'the host sent no ETag or Last-Modified to check a resume against'
            : undefined;
      }
      this.#received = 0;
    }
    if (this.#total !== undefined) this.#checkSize(this.#total);
    this.#body = body?.[Symbol.asyncIterator]() ?? (async function* () {})();
  }

  #checkSize(bytes: number): void {
    const { maxBytes } = this.#spec;
    if (maxBytes !== undefined && bytes > maxBytes) throw this.#invalid(`is larger than maxBytes (${maxBytes} bytes)`, 'too_big');
  }

  #mismatch(): ResponseValidationError {
    return this.#invalid(`ended after ${this.#received} bytes, but the host declared ${this.#total}`, 'length_mismatch');
  }

  #changed(): ResponseValidationError {
    return this.#invalid('changed while it was downloaded (a resume got a different artifact); download it again', 'changed');
  }

  /** Ends the connection: every caller throws what this returns. */
  #invalid(message: string, code: string): ResponseValidationError {
    this.cancel();
    const issues = [{ path: [], message, code }];
    return new ResponseValidationError({ body: undefined, issues, method: 'GET', url: withoutQuery(this.#url), what: 'artifact' });
  }

  #progress(): void {
    const { onProgress, log } = this.#spec;
    if (!onProgress || this.#skip > 0) return;
    const report = (error: unknown) => log.log('warn', `onProgress of a download failed (${thrownName(error)}); the download goes on`);
    observe(() => onProgress({ bytes: this.#received, total: this.#total }), report);
  }
}

/** The artifact as a Web stream, read from the host only as fast as it is consumed. */
export function transferStream(transfer: Transfer): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const step = await transfer.next();
        if ('done' in step) controller.close();
        else if ('chunk' in step) controller.enqueue(step.chunk);
      },
      cancel: (reason) => transfer.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
