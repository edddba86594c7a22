/**
 * Downloads against a raw TCP host on 127.0.0.1 that writes its responses byte by byte as a test tells it:
 * where the file goes (checked before any request), a resume without validators after the artifact changed,
 * bodies that end early with and without a length the client can know, and each download guarantee over the
 * client's transport (the suite runs once per transport: node:http and fetch).
 */
import { createServer, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, Client, ConnectionError, ResponseValidationError, TimeoutError, ValidationError, WfaError } from '../../src/index.js';

/** One request as it came off the wire: its path and its headers, names in lower case. */
interface Seen {
  path: string;
  headers: Record<string, string>;
}

/**
 * What the host writes for the `n`th request (from 1); the connection is then closed (FIN, not a reset), except
 * after `{ stall }`, which is written and then nothing more.
 */
type Respond = (request: Seen, n: number) => string | Buffer | { stall: Buffer };

interface Host {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function rawHost(respond: Respond): Promise<Host> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    socket.on('data', (data) => {
      head += data.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [line = '', ...fields] = head.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
      const request = { path: line.split(' ')[1] ?? '', headers };
      seen.push(request);
      head = '';
      const out = respond(request, seen.length);
      if (typeof out === 'object' && 'stall' in out) socket.write(out.stall);
      else socket.end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const A = Buffer.alloc(100, 0x41);
const B = Buffer.alloc(100, 0x42);
const response = (status: string, headers: Record<string, string>, body: Buffer | string) =>
  Buffer.concat([
    Buffer.from(
      `HTTP/1.1 ${status}\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
      'latin1',
    ),
    Buffer.from(body),
  ]);
const BUILD = (url: string) => ({ status: 'completed', download_url: `${url}/a.zip` });

let host: Host | undefined;
let other: Host | undefined;
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfa-download-wire-'));
});
afterEach(async () => {
  await host?.close();
  await other?.close();
  host = other = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function start(respond: Respond, maxRetries = 2, timeoutMs?: number) {
  host = await rawHost(respond);
  const headers = { 'x-tenant-token': 'tenant_secret_5e1d' };
  return new Client({ baseUrl: host.url, apiKey: 'wfa_test_key', apiPrefix: '', maxRetries, timeoutMs, headers });
}

describe('downloadToFile: where the file goes', () => {
  it.each([
    ['into a folder that does not exist', () => join(dir, 'missing', 'build.zip')],
    ['to a path with a NUL byte', () => join(dir, 'bu\0ild.zip')],
  ])('refuses a path %s with ValidationError before any request, the build read included', async (_, path) => {
    const client = await start(() => response('200 OK', { 'content-length': '100' }, A));
    const error = await client.builds.downloadToFile('bld_1', path()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('path');
    expect(host!.seen).toHaveLength(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('turns a file error during the download into a WfaError with the cause, and leaves no file', async () => {
    const folder = join(dir, 'out');
    await mkdir(folder);
    // The folder goes away while the build is read, after the temporary file was made: the final rename fails.
    const client = await start((request) => {
      if (request.path.endsWith('.zip')) return response('200 OK', { 'content-length': '100' }, A);
      rmSync(folder, { recursive: true });
      const build = { id: 'bld_1', workflow_id: 'wf_1', status: 'completed', progress: 100, download_url: `${host!.url}/a.zip` };
      return response('200 OK', { 'content-type': 'application/json' }, JSON.stringify(build));
    });
    const error = await client.builds.downloadToFile('bld_1', join(folder, 'build.zip')).catch((e: unknown) => e);
    expect(WfaError.is(error)).toBe(true);
    expect((error as Error).message).toContain(join(folder, 'build.zip'));
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(host!.seen.map((r) => r.path)).toEqual(['/builds/bld_1', '/a.zip']);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('a resume when the host gives neither ETag nor Last-Modified', () => {
  // Version A's first half, then the connection ends short; by the next request the artifact is version B.
  const changing: Respond = (request, n) => {
    if (n === 1) return response('200 OK', { 'content-length': '100', 'accept-ranges': 'bytes' }, A.subarray(0, 50));
    const range = /^bytes=(\d+)-$/.exec(request.headers['range'] ?? '');
    if (range)
      return response('206 Partial Content', { 'content-range': `bytes ${range[1]}-99/100`, 'content-length': '50' }, B.subarray(50));
    return response('200 OK', { 'content-length': '100', 'accept-ranges': 'bytes' }, B);
  };

  it('starts a file over from byte 0 (no Range) and writes one version, never two spliced', async () => {
    const client = await start(changing);
    const path = join(dir, 'build.zip');
    await expect(client.builds.downloadToFile(BUILD(host!.url), path)).resolves.toEqual({ path, bytes: 100 });
    expect(Buffer.compare(await readFile(path), B)).toBe(0);
    expect(host!.seen.map((r) => r.headers['range'])).toEqual([undefined, undefined]);
  });

  it('ends a stream with ConnectionError rather than resume it unchecked', async () => {
    const client = await start(changing);
    const stream = await client.builds.download(BUILD(host!.url));
    const error = await new Response(stream).arrayBuffer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/no ETag or Last-Modified/);
    expect(host!.seen).toHaveLength(1);
  });
});

describe('a body that ends early', () => {
  const short = {
    'a Content-Length': response('200 OK', { 'content-length': '100' }, A.subarray(0, 50)),
    'chunked, without its last chunk': response('200 OK', { 'transfer-encoding': 'chunked' }, `32\r\n${'A'.repeat(50)}\r\n`),
  };

  it.each(Object.entries(short))('with %s, is refused: no file, a ConnectionError', async (_, raw) => {
    const client = await start(() => raw, 0);
    const error = await client.builds.downloadToFile(BUILD(host!.url), join(dir, 'build.zip')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each(Object.entries(short))('with %s, is fetched again whole when retries allow', async (_, raw) => {
    const client = await start((_, n) => (n === 1 ? raw : response('200 OK', { 'content-length': '100' }, A)));
    const path = join(dir, 'build.zip');
    await expect(client.builds.downloadToFile(BUILD(host!.url), path)).resolves.toEqual({ path, bytes: 100 });
    expect(Buffer.compare(await readFile(path), A)).toBe(0);
  });

  it('with neither, ends where the connection closes: no length to check (docs/waiting-for-builds.md says so)', async () => {
    const client = await start(() => response('200 OK', {}, A.subarray(0, 50)));
    const path = join(dir, 'build.zip');
    await expect(client.builds.downloadToFile(BUILD(host!.url), path)).resolves.toEqual({ path, bytes: 50 });
  });
});

describe("each guarantee over the client's transport", () => {
  const whole = { 'content-length': '100', 'accept-ranges': 'bytes', etag: '"v1"' };
  const sentNothingOfTheClients = (seen: Seen[]) =>
    expect(JSON.stringify(seen)).not.toMatch(/wfa_test_key|tenant_secret|x-api-key|x-tenant-token|authorization/);

  it('follows a redirect to another host, sending it no key and no client header, and resumes through it', async () => {
    other = await rawHost((_, n) =>
      n === 1
        ? response('200 OK', whole, A.subarray(0, 50))
        : response('206 Partial Content', { 'content-range': `bytes 50-99/100`, 'content-length': '50', etag: '"v1"' }, A.subarray(50)),
    );
    const client = await start(() =>
      response('302 Found', { connection: 'close', location: `${other!.url}/signed.zip?sig=s3cr3t-signature`, 'content-length': '0' }, ''),
    );
    const path = join(dir, 'build.zip');
    await expect(client.builds.downloadToFile(BUILD(host!.url), path)).resolves.toEqual({ path, bytes: 100 });
    expect(Buffer.compare(await readFile(path), A)).toBe(0);
    expect(other!.seen.map((r) => [r.path, r.headers['range'], r.headers['if-range']])).toEqual([
      ['/signed.zip?sig=s3cr3t-signature', undefined, undefined],
      ['/signed.zip?sig=s3cr3t-signature', 'bytes=50-', '"v1"'],
    ]);
    sentNothingOfTheClients([...host!.seen, ...other!.seen]);
  });

  it('bounds a redirect loop: a ConnectionError that quotes no URL', async () => {
    const client = await start(
      (request) =>
        response('302 Found', { connection: 'close', location: `${request.path}x?sig=s3cr3t-signature`, 'content-length': '0' }, ''),
      0,
    );
    const error = await client.builds.download(BUILD(host!.url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/redirect count exceeded|fetch failed/);
    expect(inspectAll(error)).not.toMatch(/s3cr3t/);
    expect(host!.seen.length).toBe(21);
  });

  it('times out a body that stalls mid-way, as a dropped connection (TimeoutError after the retries)', async () => {
    const client = await start(() => ({ stall: response('200 OK', whole, A.subarray(0, 50)) }), 1, 300);
    const error = await client.builds.downloadToFile(BUILD(host!.url), join(dir, 'build.zip')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/no data for 300 ms after 50 of 100 bytes/);
    expect(host!.seen.map((r) => r.headers['range'])).toEqual([undefined, 'bytes=50-']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses an artifact over maxBytes by its declared length, before reading it', async () => {
    const client = await start(() => response('200 OK', whole, A));
    const error = await client.builds.download(BUILD(host!.url), { maxBytes: 99 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('too_big');
  });

  it('reads the build again for a fresh URL after a 403, and hides the signed query of an error response', async () => {
    const client = await start((request, n) => {
      if (request.path.startsWith('/builds/')) {
        const build = {
          id: 'bld_1',
          workflow_id: 'wf_1',
          status: 'completed',
          progress: 100,
          download_url: `${host!.url}/a.zip?sig=fresh-${n}-signature`,
        };
        return response('200 OK', { 'content-type': 'application/json' }, JSON.stringify(build));
      }
      return response('403 Forbidden', { 'content-type': 'text/plain' }, `expired: ${request.path}`);
    }, 0);
    const error = await client.builds.download('bld_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(host!.seen.map((r) => r.path)).toEqual([
      '/builds/bld_1',
      '/a.zip?sig=fresh-1-signature',
      '/builds/bld_1',
      '/a.zip?sig=fresh-3-signature',
    ]);
    expect(inspectAll(error)).not.toMatch(/signature/);
    sentNothingOfTheClients(host!.seen.filter((r) => r.path.endsWith('signature')));
  });

  it("hides a redirect target's signed query too, where its host's error quotes the URL and the signature (as S3 does)", async () => {
    const signature = 'X9f8e7d6c5b4a3SECRETSIGNATUREb';
    other = await rawHost((request) => {
      const xml = `<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>${signature}</SignatureProvided><URL>http://127.0.0.1${request.path}</URL></Error>`;
      return response('400 Bad Request', { 'content-type': 'application/xml', 'x-amz-request-id': 'r1', connection: 'close' }, xml);
    });
    const client = await start(
      () =>
        response(
          '302 Found',
          {
            connection: 'close',
            location: `${other!.url}/bucket/a.zip?X-Amz-Signature=${signature}&X-Amz-Expires=60`,
            'content-length': '0',
          },
          '',
        ),
      0,
    );
    const build = { status: 'completed', download_url: `${host!.url}/dl/1?token=sigA_0123456789abcdef` };
    const error = await client.builds.download(build).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(String((error as ApiError).body)).toContain('SignatureDoesNotMatch');
    expect(inspectAll(error)).not.toMatch(/SECRETSIGNATURE|sigA_0123/);
  });

  it('fails a length mismatch of a resumed 206 against the first total as changed, never spliced', async () => {
    const client = await start((_, n) =>
      n === 1
        ? response('200 OK', whole, A.subarray(0, 50))
        : response(
            '206 Partial Content',
            { 'content-range': 'bytes 50-149/150', 'content-length': '100', etag: '"v1"' },
            Buffer.alloc(100),
          ),
    );
    const error = await client.builds.downloadToFile(BUILD(host!.url), join(dir, 'build.zip')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('changed');
    expect(await readdir(dir)).toEqual([]);
  });
});

/** Every rendering of an error a user might log. */
function inspectAll(error: unknown): string {
  return `${inspect(error, { depth: Infinity, showHidden: true })} ${JSON.stringify(error)} ${String(error)}`;
}
