/**
 * Build artifacts: `GET /downloads/{build_id}.zip`, a body of any size made as it is sent (never held whole),
 * with ranges (206, `ETag`, `If-Range`), URLs that expire, and connections that break mid-body. Fetch-only,
 * like the rest of the service: the HTTP server turns a body that errors into a reset connection.
 */

import { buildStatus } from './builds.js';
import { HttpError } from './responses.js';
import type { Store, StoredBuild } from './store.js';
import type { MockArtifactOptions, MockDownloadRequest } from './types.js';

// The smallest valid ZIP archive: an empty "end of central directory" record.
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
const CHUNK = 64 * 1024;
// One period of the pattern: byte i of an artifact is BLOCK[i % CHUNK], so any range is a few slices.
const BLOCK = /* @__PURE__ */ (() => {
  const block = new Uint8Array(CHUNK);
  for (let i = 0; i < CHUNK; i++) block[i] = (i ^ (i >>> 8)) & 0xff;
  return block;
})();
const MAX_LOGGED = 100;

export function checkArtifactOptions(options: MockArtifactOptions, check: (ok: boolean, message: string) => void): void {
  const { size, expiresAfterMs, resetAfterBytes, resets } = options;
  const count = (value: number | undefined) => value === undefined || (Number.isSafeInteger(value) && value >= 0);
  check(count(size), 'artifacts.size must be an integer >= 0');
  check(expiresAfterMs === undefined || (Number.isFinite(expiresAfterMs) && expiresAfterMs > 0), 'artifacts.expiresAfterMs must be > 0');
  check(count(resetAfterBytes) && count(resets), 'artifacts.resetAfterBytes and artifacts.resets must be integers >= 0');
}

/**
 * The bytes the mock serves for an artifact of `size` bytes (`artifacts.size`), from `start` to `end`
 * (exclusive): what a test compares a download with.
 *
 * @example
 * ```ts
 * const service = createMockService({ artifacts: { size: 1000 } });
 * expect(await readFile('build.zip')).toEqual(Buffer.from(artifactBytes(1000)));
 * ```
 */
export function artifactBytes(size: number, start = 0, end = size): Uint8Array {
  if (size === EMPTY_ZIP.length) return EMPTY_ZIP.slice(start, end);
  const out = new Uint8Array(Math.max(0, end - start));
  for (let i = 0; i < out.length; i++) out[i] = BLOCK[(start + i) % CHUNK]!;
  return out;
}

function body(size: number, start: number, failAfter: number | undefined): ReadableStream<Uint8Array> {
  let at = start;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= size) {
          controller.close();
          return;
        }
        if (failAfter !== undefined && sent >= failAfter) {
          controller.error(new Error('The mock service reset the connection (artifacts.resetAfterBytes)'));
          return;
        }
        let length = Math.min(CHUNK - (at % CHUNK), size - at);
        if (failAfter !== undefined) length = Math.min(length, failAfter - sent);
        const chunk = size === EMPTY_ZIP.length ? EMPTY_ZIP.slice(at, at + length) : BLOCK.slice(at % CHUNK, (at % CHUNK) + length);
        at += length;
        sent += length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

export interface Artifacts {
  /** The `download_url` of a build, as a read at `at` gives it. */
  url(build: StoredBuild, at: number): string;
  serve(request: Request, fileName: string, store: Store, now: number): Response;
  requests(): readonly MockDownloadRequest[];
}

// Not a real signature: enough that a URL whose `expires` was edited is refused.
function sign(buildId: string, expires: number): string {
  let hash = 0x811c9dc5;
  for (const char of `${buildId}:${expires}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

export function createArtifacts(options: MockArtifactOptions = {}): Artifacts {
  const { size = EMPTY_ZIP.length, expiresAfterMs, ranges = true, resetAfterBytes } = options;
  let resetsLeft = options.resets ?? Number.POSITIVE_INFINITY;
  const log: MockDownloadRequest[] = [];
  return {
    url(build, at) {
      const base = `${build.origin}/downloads/${encodeURIComponent(build.id)}.zip`;
      if (expiresAfterMs === undefined) return base;
      const expires = Math.floor(at + expiresAfterMs);
      return `${base}?expires=${expires}&signature=${sign(build.id, expires)}`;
    },
    requests: () => log,
    serve(request, fileName, store, now) {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      log.push({ url: request.url, headers });
      if (log.length > MAX_LOGGED) log.shift();
      const buildId = fileName.endsWith('.zip') ? fileName.slice(0, -'.zip'.length) : '';
      const build = store.builds.get(buildId);
      if (!build || buildStatus(build, now) !== 'completed') throw new HttpError(404, `No download with id ${fileName}`, 'not_found');
      if (expiresAfterMs !== undefined) {
        const expires = Number(url.searchParams.get('expires'));
        if (url.searchParams.get('signature') !== sign(build.id, expires) || !(now <= expires)) {
          throw new HttpError(403, 'This download URL has expired; read the build again for a fresh one', 'url_expired');
        }
      }
      const etag = `"${build.id}-${size}"`;
      const common: Record<string, string> = {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${build.id}.zip"`,
        'last-modified': new Date(build.startedAt + build.durationMs).toUTCString(),
      };
      if (ranges) Object.assign(common, { 'accept-ranges': 'bytes', etag });
      let start = 0;
      let status = 200;
      const range = ranges ? /^bytes=(\d+)-$/.exec(request.headers.get('range') ?? '') : null;
      const ifRange = request.headers.get('if-range');
      if (range && (ifRange === null || ifRange === etag || ifRange === common['last-modified'])) {
        start = Number(range[1]);
        if (start >= size) {
          throw new HttpError(416, `Range starts past the end (${size} bytes)`, 'range_not_satisfiable', {
            headers: { 'content-range': `bytes */${size}` },
          });
        }
        status = 206;
        common['content-range'] = `bytes ${start}-${size - 1}/${size}`;
      }
      let failAfter: number | undefined;
      if (resetAfterBytes !== undefined && resetsLeft > 0) {
        resetsLeft -= 1;
        failAfter = resetAfterBytes;
      }
      common['content-length'] = String(size - start);
      return new Response(request.method === 'HEAD' ? null : body(size, start, failAfter), { status, headers: common });
    },
  };
}
