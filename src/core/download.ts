/**
 * Downloads from a `download_url`: a fetch with no key and none of the client's headers (the URL is the
 * credential), redirects followed anywhere, each wait for data bounded, resumed with `Range` after a dropped
 * connection, the length checked. The only other caller of `fetch` besides `http.ts`.
 */
import { redact, redactText, thrownName, usableSecrets, withoutQuery } from './redact.js';
import { AbortError, ApiError, ConnectionError, ResponseValidationError, TimeoutError, ValidationError, type Issue } from './errors.js';
import { ERROR_BODY_BYTES, readText } from './body.js';
import type { LevelLogger } from './logger.js';
import type { FetchLike } from './options.js';
import { now, runPhase, sleepWithin, type PhaseResult } from './timing.js';
import { BASE_BACKOFF_MS, MAX_BACKOFF_MS, MAX_RETRIES, networkErrorCodes } from './retry.js';

/**
 * How far a download has got, given to `onProgress` after each chunk.
 *
 * @example
 * ```ts
 * const onProgress = ({ bytes, total }: DownloadProgress) => console.log(total ? `${Math.round((100 * bytes) / total)}%` : `${bytes} bytes`);
 * ```
 */
export interface DownloadProgress {
  /** Bytes received so far (after a restart, counted again from 0). */
  readonly bytes: number;
  /** The artifact's size, when the host said it (`Content-Length` or `Content-Range`). */
  readonly total: number | undefined;
}

/**
 * Options of `builds.download` and `builds.downloadToFile`.
 *
 * @example
 * ```ts
 * await client.builds.downloadToFile(build, 'build.zip', { maxBytes: 500 * 1024 * 1024, signal: AbortSignal.timeout(600_000) });
 * ```
 */
export interface DownloadOptions {
  /** Aborts the download (and the build read, if one is needed); it rejects or errors with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Called after each chunk. An observer: if it throws, rejects or hangs, the download goes on (and logs a warning). */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** The most bytes accepted; a larger artifact fails with `ResponseValidationError`, before reading when its size is declared. */
  maxBytes?: number | undefined;
  /** The longest wait for the response or for the next chunk, in ms; a stall counts as a dropped connection. Default: the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** The whole download's time, in ms, its build reads included; past it, `TimeoutError` with `reason: 'deadline'`. Default: none. */
  deadlineMs?: number | undefined;
  /** Retries (a resume or a new request) in a row without a new byte received, 0 to 10. Default: the client's `maxRetries`. */
  maxRetries?: number | undefined;
}

export interface TransferSpec {
  url: string;
  fetch: FetchLike | undefined;
  /** A fresh URL for an expired one (403, 404, 410): asked once per download. */
  refresh: (() => Promise<string>) | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  /** On {@link now}'s clock; `Infinity` for none. */
  deadline: number;
  deadlineMs: number | undefined;
  maxRetries: number;
  maxBytes: number | undefined;
  onProgress: ((progress: DownloadProgress) => void) | undefined;
  log: LevelLogger;
  /** A file can start over when a resume gets the whole artifact; a stream whose bytes were read cannot. */
  restartable: boolean;
}

export type Step = { chunk: Uint8Array } | { restart: true } | { done: true };

const EXPIRED = new Set([403, 404, 410]);
const RETRIED = (status: number) => status === 408 || status === 429 || status >= 500;
const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

/** Checks a download's options before anything is sent. */
export function checkDownloadOptions(options: DownloadOptions | undefined | null): void {
  if (options == null) return;
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.push({ path: [path], message, code: 'invalid_value' });
  if (typeof options !== 'object')
    throw new ValidationError('download options', [{ path: [], message: 'must be an object', code: 'invalid_type' }]);
  const { signal, onProgress, maxBytes, timeoutMs, deadlineMs, maxRetries } = options;
  if (signal !== undefined && !(typeof signal === 'object' && typeof signal?.aborted === 'boolean'))
    bad('signal', 'must be an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function') bad('onProgress', 'must be a function');
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) bad('maxBytes', 'must be a whole number of bytes >= 0');
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['deadlineMs', deadlineMs],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) bad(name, 'must be a number of milliseconds > 0');
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0 && maxRetries <= MAX_RETRIES)) {
    bad('maxRetries', `must be a whole number from 0 to ${MAX_RETRIES}`);
  }
  if (issues.length) throw new ValidationError('download options', issues);
}

/** A signed URL's query, and each of its longer values, which a host's error may quote apart. */
function querySecrets(url: string): string[] {
  if (!URL.canParse(url)) return usableSecrets([url]);
  const { search, searchParams } = new URL(url);
  return usableSecrets([search.slice(1), ...[...searchParams.values()].filter((value) => value.length >= 8)]);
}

/** One download: connections made, resumed and checked on demand; `next()` gives the next step. */
export class Transfer {
  readonly #spec: TransferSpec;
  #url: string;
  #refreshed = false;
  #conn: AbortController | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Bytes of the artifact delivered so far. */
  #received = 0;
  #total: number | undefined;
  /** Bytes of a whole-artifact answer to a resume, already delivered, to drop (streams only). */
  #skip = 0;
  /** What `If-Range` sends: the first answer's strong ETag, or its Last-Modified. */
  #validator: string | undefined;
  /** Only a strong ETag proves a whole-artifact answer to a resume is the same artifact. */
  #etag: string | undefined;
  /** The first answer's ETag, weak or strong, without `W/`: a 206 must carry the same. */
  #tag: string | undefined;
  #ranges = false;
  #fails = 0;
  /** The most bytes ever received, so a restart's bytes are not counted as progress. */
  #best = 0;
  #restart = false;
  #lastError: unknown;

  constructor(spec: TransferSpec) {
    this.#spec = spec;
    this.#url = spec.url;
  }

  get received(): number {
    return this.#received;
  }

  /** Connects, so that a refused download (an error status, a build without a URL) rejects the call itself. */
  async open(): Promise<void> {
    while (!this.#reader) await this.#connect();
  }

  async next(): Promise<Step> {
    for (;;) {
      if (this.#restart) {
        this.#restart = false;
        return { restart: true };
      }
      if (!this.#reader) {
        await this.#connect();
        continue;
      }
      const reader = this.#reader;
      const result = await this.#phase(() => reader.read());
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
      let chunk = value;
      if (this.#skip > 0) {
        const dropped = Math.min(this.#skip, chunk.byteLength);
        this.#skip -= dropped;
        chunk = chunk.subarray(dropped);
        if (chunk.byteLength === 0) continue;
      }
      this.#progress();
      return { chunk };
    }
  }

  /** Closes the connection; safe to call at any time. */
  cancel(reason?: unknown): void {
    this.#conn?.abort(reason);
    this.#close();
  }

  #close(): void {
    this.#reader = undefined;
    this.#conn = undefined;
  }

  #shown(): string {
    return withoutQuery(this.#url);
  }

  /** One bounded wait: for a response or a chunk, cut by the caller's signal, the stall timeout and the deadline. */
  #phase<T>(work: () => Promise<T>): Promise<PhaseResult<T>> {
    const { signal, timeoutMs, deadline } = this.#spec;
    return runPhase(work, { signal, deadline: Math.min(now() + timeoutMs, deadline) });
  }

  /** Turns an ending other than data into the SDK's error, or into a retry when one is allowed. */
  async #dropped(result: Exclude<PhaseResult<unknown>, { type: 'done' }>): Promise<void> {
    this.cancel();
    const { signal, deadline, deadlineMs, timeoutMs, maxRetries } = this.#spec;
    const shown = this.#shown();
    if (result.type === 'aborted') throw new AbortError(`Downloading ${shown} was aborted by its signal`, { cause: result.reason });
    if (result.type === 'deadline' && now() >= deadline) {
      throw new TimeoutError(`Downloading ${shown} ran past its deadline (${deadlineMs} ms)`, deadlineMs ?? 0, 'deadline');
    }
    if (result.type === 'failed' && !isNetworkError(result.error)) throw result.error;
    this.#lastError = result.type === 'deadline' ? 'stall' : result.error;
    this.#fails += 1;
    const canResume = this.#received === 0 || this.#ranges || this.#spec.restartable;
    if (this.#fails > maxRetries || !canResume) {
      const at = `after ${this.#received}${this.#total === undefined ? '' : ` of ${this.#total}`} bytes`;
      const why = canResume ? `${maxRetries} retries without progress` : 'the host does not accept ranges, so it cannot resume';
      if (this.#lastError instanceof RetriedStatus) throw this.#lastError.error;
      if (this.#lastError === 'stall')
        throw new TimeoutError(`Downloading ${shown}: no data for ${timeoutMs} ms ${at} (${why})`, timeoutMs);
      const codes = networkErrorCodes(this.#lastError);
      const raw = this.#lastError instanceof Error ? this.#lastError.message : String(this.#lastError);
      const detail = codes.length ? codes.join(', ') : hideUrl(raw, this.#url);
      // Not the raw error as `cause`: fetch's messages (and their causes) can quote the signed URL.
      const cause = Object.assign(new Error(detail), codes.length ? { code: codes[0] } : {});
      throw new ConnectionError(`The connection failed while downloading ${shown} ${at}: ${detail} (${why})`, { cause });
    }
    this.#spec.log.log('warn', `download of ${shown} interrupted after ${this.#received} bytes; retry ${this.#fails}`);
    const wait = this.#fails === 1 ? 0 : Math.min(BASE_BACKOFF_MS * 2 ** (this.#fails - 2), MAX_BACKOFF_MS);
    const slept = await sleepWithin(wait, { signal, deadline });
    if (typeof slept === 'object') throw new AbortError(`Downloading ${shown} was aborted by its signal`, { cause: slept.aborted });
    if (slept === 'deadline') {
      throw new TimeoutError(`Downloading ${shown} ran past its deadline (${deadlineMs} ms)`, deadlineMs ?? 0, 'deadline');
    }
  }

  async #connect(): Promise<void> {
    const conn = new AbortController();
    this.#conn = conn;
    // Nothing of the client's: no key, no `headers`, no appInfo. `identity`, so byte offsets are the file's.
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'identity' };
    if (this.#received > 0 && !this.#ranges) {
      // Only a file gets here (`#dropped` ends a stream): it starts over.
      this.#restart = true;
      this.#received = 0;
    }
    const resuming = this.#received > 0;
    if (resuming) {
      headers.range = `bytes=${this.#received}-`;
      if (this.#validator) headers['if-range'] = this.#validator;
    }
    const url = this.#url;
    const fetchImpl = this.#spec.fetch;
    // `follow`: nothing secret is sent, so a redirect to any host (a CDN, a bucket) is followed as is.
    const init: RequestInit = { method: 'GET', headers, signal: conn.signal, redirect: 'follow' };
    const result = await this.#phase(() => (fetchImpl ? fetchImpl(url, init) : fetch(url, init)));
    if (result.type !== 'done') {
      await this.#dropped(result);
      return;
    }
    const response = result.value;
    const { status } = response;
    if (status === 200 || status === 206) {
      this.#accept(response, resuming);
      return;
    }
    const body = await readText(response, ERROR_BODY_BYTES, true).catch(() => undefined);
    if (EXPIRED.has(status) && this.#spec.refresh && !this.#refreshed) {
      this.#refreshed = true;
      this.#close();
      this.#spec.log.log('info', `download URL answered ${status}; reading the build again for a fresh one`);
      this.#url = await this.#spec.refresh();
      return;
    }
    // The host may echo the signed URL (S3 quotes the signature it was given): redacted like a secret.
    const secrets = querySecrets(this.#url);
    const error = ApiError.from({
      status,
      headers: redact(Object.fromEntries(response.headers), secrets),
      method: 'GET',
      url: this.#shown(),
      body: redact(parseBody(body), secrets),
    });
    if (RETRIED(status)) {
      await this.#dropped({ type: 'failed', error: new RetriedStatus(error) });
      return;
    }
    this.#close();
    throw error;
  }

  #accept(response: Response, resuming: boolean): void {
    const { headers, status } = response;
    const encoded = (headers.get('content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity';
    const etag = headers.get('etag');
    const strong = etag && !etag.startsWith('W/') ? etag : undefined;
    // Weakly compared: a weak ETag cannot go in If-Range, but a different one still means another artifact.
    const tag = etag?.replace(/^W\//, '');
    const validator = strong ?? headers.get('last-modified') ?? undefined;
    const changed = () => {
      this.cancel();
      return this.#invalid('changed while it was downloaded (a resume got a different artifact); download it again', 'changed');
    };
    if (status === 206) {
      const match = CONTENT_RANGE.exec(headers.get('content-range') ?? '');
      if (!resuming || !match || Number(match[1]) !== this.#received) {
        this.cancel();
        throw this.#invalid(
          `answered a range request with the wrong range (${headers.get('content-range') ?? 'no Content-Range'})`,
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
        throw changed();
      // The total the first answer declared is kept: a 206 of unknown total (`*`) does not forget it.
      this.#total ??= total;
      this.#validator ??= validator;
      this.#ranges = true;
    } else {
      const length = Number(headers.get('content-length') ?? NaN);
      const total = encoded || !Number.isSafeInteger(length) ? undefined : length;
      this.#ranges = !encoded && (headers.get('accept-ranges') ?? '').toLowerCase().includes('bytes');
      if (resuming && !this.#spec.restartable) {
        // A stream cannot take back what it gave: it skips ahead only if a strong ETag says the artifact is the same.
        const same =
          strong !== undefined && strong === this.#etag && (total === undefined || this.#total === undefined || total === this.#total);
        if (!same) throw changed();
        this.#skip = this.#received;
        this.#received = 0;
        this.#total ??= total;
      } else {
        // The first answer, or a file starting over with the whole artifact.
        if (resuming) this.#restart = true;
        this.#received = 0;
        this.#total = total;
        this.#validator = validator;
        this.#etag = strong;
        this.#tag = tag;
      }
    }
    if (this.#total !== undefined) this.#checkSize(this.#total);
    this.#reader = response.body?.getReader() ?? new Response(new Uint8Array(0)).body!.getReader();
  }

  #checkSize(bytes: number): void {
    const { maxBytes } = this.#spec;
    if (maxBytes !== undefined && bytes > maxBytes) {
      this.cancel();
      throw this.#invalid(`is larger than maxBytes (${maxBytes} bytes)`, 'too_big');
    }
  }

  #mismatch(): ResponseValidationError {
    this.cancel();
    return this.#invalid(`ended after ${this.#received} bytes, but the host declared ${this.#total}`, 'length_mismatch');
  }

  #invalid(message: string, code: string): ResponseValidationError {
    return new ResponseValidationError({
      body: undefined,
      issues: [{ path: [], message, code }],
      method: 'GET',
      url: this.#shown(),
      what: 'artifact',
    });
  }

  #progress(): void {
    const { onProgress, log } = this.#spec;
    if (!onProgress || this.#skip > 0) return;
    const report = (error: unknown) => log.log('warn', `onProgress of a download failed (${thrownName(error)}); the download goes on`);
    try {
      const result: unknown = onProgress({ bytes: this.#received, total: this.#total });
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        (result as PromiseLike<unknown>).then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}

/** A retryable status, carried like a dropped connection. */
class RetriedStatus extends Error {
  constructor(readonly error: ApiError) {
    super(error.message, { cause: error });
  }
}

/** A platform's error text without any URL in it, nor the download URL's query, raw or percent-encoded. */
function hideUrl(text: string, url: string): string {
  const shown = text.replace(/[a-z][a-z\d+.-]*(:\/\/|%3A%2F%2F)\S*/gi, '[URL hidden]');
  return redactText(shown, querySecrets(url), '[query hidden]');
}

/** Fetch rejects a network failure with a TypeError; a body that breaks errors with whatever the platform chose. */
function isNetworkError(error: unknown): boolean {
  return !(error instanceof ResponseValidationError || error instanceof AbortError || error instanceof ValidationError);
}

function parseBody(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
      cancel(reason) {
        transfer.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
