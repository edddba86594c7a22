/**
 * `client.builds.download` and `downloadToFile` against the in-process mock service: what the download host
 * is sent (no key, no client headers, on its own origin and on the service's), resume, expiry, lengths,
 * limits, aborts and callbacks, and that a failed file download leaves no file.
 */
import { revokedProxy } from '../helpers/hostile.js';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  BuildFailedError,
  Client,
  ConnectionError,
  PermissionDeniedError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  WfaError,
} from '../../src/index.js';
import { artifactBytes, createMockService, type MockArtifactOptions, type MockService } from '../../src/testing/index.js';
import { fakeClockInThisTest, run, settle } from '../helpers/clock.js';
import { captureLogger } from '../helpers/logger.js';

const BASE = 'https://wfa.test';
const SECRET_HEADER = 'x-tenant-token';
const SECRET_VALUE = 'tenant_secret_5e1d';

interface Setup {
  service: MockService;
  client: Client;
  /** Every request the client sent, to any host. */
  sent: Request[];
  buildId: string;
}

/** Hosts: the service at BASE; `downloadBaseUrl` elsewhere, served by the same mock. `answer` may replace a response. */
async function setup(
  options: {
    artifacts?: MockArtifactOptions;
    downloadBaseUrl?: string;
    answer?: (request: Request, n: number) => Response | Promise<Response> | undefined;
    logger?: ReturnType<typeof captureLogger>['logger'];
  } = {},
): Promise<Setup> {
  const service = createMockService({
    buildDurationMs: 0,
    seed: 7,
    artifacts: options.artifacts,
    downloadBaseUrl: options.downloadBaseUrl,
  });
  const sent: Request[] = [];
  const client = new Client({
    baseUrl: BASE,
    apiKey: service.apiKey,
    headers: { [SECRET_HEADER]: SECRET_VALUE },
    maxRetries: 2,
    logger: options.logger,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request);
      return options.answer?.(request, sent.length) ?? service.handle(request);
    },
  });
  const workflow = await client.workflows.create({
    name: 'wf',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hook' },
    actions: [{ app: 'slack', action: 'send_message' }],
  });
  sent.length = 0;
  return { service, client, sent, buildId: workflow.build_id! };
}

/** Byte-for-byte, without a deep equality over every element (slow on large arrays). */
function expectSame(actual: Uint8Array, expected: Uint8Array) {
  expect(actual.byteLength).toBe(expected.byteLength);
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const downloads = (sent: Request[]) => sent.filter((r) => new URL(r.url).pathname.startsWith('/downloads/'));

function expectNoCredentials(requests: Request[]) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.headers.get('x-api-key')).toBeNull();
    expect(request.headers.get(SECRET_HEADER)).toBeNull();
    expect([...request.headers.keys()].sort()).toEqual(expect.not.arrayContaining(['authorization', 'cookie', 'user-agent']));
  }
}

describe('client.builds.download', () => {
  it('streams the artifact from another origin with no API key and none of the client headers', async () => {
    const { client, sent, buildId } = await setup({ artifacts: { size: 300_000 }, downloadBaseUrl: 'https://cdn.example.net' });
    const stream = await client.builds.download(buildId);
    expectSame(await bytesOf(stream), artifactBytes(300_000));
    // The build read carries the key; the download host gets nothing of the client's.
    expect(sent[0]!.headers.get('x-api-key')).not.toBeNull();
    expect(new URL(downloads(sent)[0]!.url).origin).toBe('https://cdn.example.net');
    expectNoCredentials(downloads(sent));
  });

  it("sends no key and no client headers on the service's own origin either", async () => {
    const { client, sent, buildId } = await setup({ artifacts: { size: 1000 } });
    expectSame(await bytesOf(await client.builds.download(buildId)), artifactBytes(1000));
    expect(new URL(downloads(sent)[0]!.url).origin).toBe(BASE);
    expectNoCredentials(downloads(sent));
  });

  it('downloads a build whose status the service writes in upper case, as waits read it (buildEnd)', async () => {
    let service: MockService | undefined;
    const upperCaseStatus = async (request: Request) => {
      const build = (await (await service!.handle(request)).json()) as { status: string };
      return Response.json({ ...build, status: build.status.toUpperCase() });
    };
    const ready = await setup({
      artifacts: { size: 10 },
      answer: (request) => {
        if (!new URL(request.url).pathname.includes('/builds/')) return undefined;
        return upperCaseStatus(request);
      },
    });
    service = ready.service;
    expectSame(await bytesOf(await ready.client.builds.download(ready.buildId)), artifactBytes(10));
  });

  it('uses the download_url of a build it is given, without reading the build', async () => {
    const { client, sent, buildId } = await setup({ artifacts: { size: 10 } });
    const build = await client.builds.get(buildId);
    sent.length = 0;
    await bytesOf(await client.builds.download(build));
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual([`/downloads/${buildId}.zip`]);
  });

  it('follows redirects itself, and lets fetch follow one only where a browser hides it (status 0)', async () => {
    const modes: (string | undefined)[] = [];
    const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
      modes.push(init?.redirect);
      // A browser's answer to `redirect: 'manual'`: an opaque redirect, status 0, no Location to read.
      return init?.redirect === 'follow' ? new Response('abc') : Response.error();
    };
    const client = new Client({ baseUrl: BASE, apiKey: 'wfa_test_key', fetch });
    const stream = await client.builds.download({ status: 'completed', download_url: 'https://cdn.test/a.zip?sig=s3cr3t' });
    expect(new TextDecoder().decode(await bytesOf(stream))).toBe('abc');
    expect(modes).toEqual(['manual', 'follow']);
  });

  it('resumes with Range and If-Range after the connection drops mid-body', async () => {
    const { client, sent, buildId } = await setup({ artifacts: { size: 200_000, resetAfterBytes: 70_000, resets: 2 } });
    expectSame(await bytesOf(await client.builds.download(buildId)), artifactBytes(200_000));
    const ranges = downloads(sent).map((r) => [r.headers.get('range'), r.headers.get('if-range')]);
    expect(ranges).toEqual([
      [null, null],
      ['bytes=70000-', `"${buildId}-200000"`],
      ['bytes=140000-', `"${buildId}-200000"`],
    ]);
  });

  it('fails with ConnectionError after a drop when the host does not accept ranges', async () => {
    const { client, buildId } = await setup({ artifacts: { size: 200_000, resetAfterBytes: 70_000, ranges: false } });
    const stream = await client.builds.download(buildId);
    const error = await bytesOf(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/after 70000 of 200000 bytes.*does not accept ranges/);
  });

  it('gives up with ConnectionError after maxRetries drops without progress', async () => {
    const { client, buildId, sent } = await setup({ artifacts: { size: 1000, resetAfterBytes: 0 } });
    const error = await client.builds
      .download(buildId, { maxRetries: 1 })
      .then(bytesOf)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(downloads(sent)).toHaveLength(2);
  });

  it('drops the bytes already given when a resume is answered 200 with the same artifact', async () => {
    let n = 0;
    const { client, sent, buildId, service } = await setup({
      artifacts: { size: 100_000, resetAfterBytes: 30_000, resets: 1 },
      // The second download request: the host ignores Range and sends the whole artifact again.
      answer: (request) => {
        if (!new URL(request.url).pathname.startsWith('/downloads/') || ++n !== 2) return undefined;
        return service.handle(new Request(request.url));
      },
    });
    expectSame(await bytesOf(await client.builds.download(buildId)), artifactBytes(100_000));
    expect(downloads(sent)[1]!.headers.get('range')).toBe('bytes=30000-');
  });

  it('re-reads the build once for a fresh URL when the download URL has expired (403)', async () => {
    fakeClockInThisTest();
    const { client, sent, buildId } = await setup({ artifacts: { size: 500, expiresAfterMs: 1000 } });
    const build = await client.builds.get(buildId);
    sent.length = 0;
    await run(new Promise((resolve) => setTimeout(resolve, 5000)));
    // run(): the clock stays where it is unless nothing else can run.
    const stream = await run(client.builds.download(build));
    expectSame(await bytesOf(stream), artifactBytes(500));
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `GET /downloads/${buildId}.zip`,
      `GET /api/v1/builds/${buildId}`,
      `GET /downloads/${buildId}.zip`,
    ]);
    expect(sent[0]!.url).not.toBe(sent[2]!.url);
  });

  it.each([403, 404, 410])('re-reads only once: a second %i is the error, its URL without the query', async (status) => {
    const { client, sent, buildId } = await setup({
      artifacts: { size: 500, expiresAfterMs: 1000 },
      answer: (request) =>
        new URL(request.url).pathname.startsWith('/downloads/') ? Response.json({ error: { message: 'gone' } }, { status }) : undefined,
    });
    const error = await client.builds.download(buildId).catch((e: unknown) => e);
    expect(error).toMatchObject({ status });
    expect((error as Error).message).not.toMatch(/signature|expires=/);
    expect((error as { url: string }).url).toMatch(/\?\[query hidden\]$/);
    expect(downloads(sent)).toHaveLength(2);
    expect(sent.filter((r) => r.url.includes('/builds/'))).toHaveLength(2);
  });

  it('does not re-read a build it was given without an id: the 403 is the error', async () => {
    const { client } = await setup({
      answer: (request) => (request.url.startsWith('https://cdn.example.net') ? new Response('denied', { status: 403 }) : undefined),
    });
    await expect(
      client.builds.download({ status: 'completed', download_url: 'https://cdn.example.net/a.zip?sig=1' }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("reads a host's error body as an API error's is read: a credential field past the kept 64 KiB still hides its copy", async () => {
    const token = 'tok_host_0123456789';
    const body = JSON.stringify({ error: { message: `token ${token} expired` }, pad: 'x'.repeat(70_000), token });
    const { client } = await setup({
      answer: (request) => (request.url.startsWith('https://cdn.example.net') ? new Response(body, { status: 400 }) : undefined),
    });
    const error = await client.builds
      .download({ status: 'completed', download_url: 'https://cdn.example.net/a.zip?sig=1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect(inspect(error, { depth: Infinity })).not.toContain(token);
    expect(JSON.stringify((error as { body: unknown }).body).length).toBeLessThanOrEqual(70_000);
  });

  it("hides the client's API key in a host's error body, as in an API error's, though the host was never sent it", async () => {
    let key = '';
    const { client } = await setup({
      answer: (request) => {
        // The host echoes the key the client sends the service: as a careless host behind the same gateway might.
        if (!request.url.startsWith('https://cdn.example.net')) return void (key = request.headers.get('x-api-key') ?? key);
        return new Response(`denied for ${key} (${Buffer.from(key).toString('base64')})`, { status: 403 });
      },
    });
    expect(key).not.toBe('');
    const error = await client.builds
      .download({ status: 'completed', download_url: 'https://cdn.example.net/a.zip?sig=1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403 });
    expect(inspect(error, { depth: Infinity })).not.toContain(key);
    expect(inspect(error, { depth: Infinity })).not.toContain(Buffer.from(key).toString('base64'));
  });

  // An artifact of `bytes` bytes whose host declares `declared` in Content-Length.
  const artifactOf = (bytes: number, declared: number) => ({
    answer: (request: Request) =>
      new URL(request.url).pathname.startsWith('/downloads/')
        ? new Response(new Uint8Array(bytes), { headers: { 'content-length': String(declared) } })
        : undefined,
  });

  it('errors with ResponseValidationError when the body is shorter than its Content-Length', async () => {
    const { client, buildId } = await setup(artifactOf(10, 20));
    const error = await client.builds
      .download(buildId)
      .then(bytesOf)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/ended after 10 bytes, but the host declared 20/);
  });

  it('errors as soon as the body is longer than its Content-Length', async () => {
    const { client, buildId } = await setup(artifactOf(30, 20));
    await expect(client.builds.download(buildId).then(bytesOf)).rejects.toThrow(/ended after 30 bytes, but the host declared 20/);
  });

  it('enforces maxBytes before reading a declared size, and while streaming an undeclared one', async () => {
    const { client, buildId } = await setup({ artifacts: { size: 5000 } });
    await expect(client.builds.download(buildId, { maxBytes: 4999 })).rejects.toThrow(/larger than maxBytes \(4999 bytes\)/);
    const undeclared = await setup({
      answer: (request) =>
        new URL(request.url).pathname.startsWith('/downloads/')
          ? new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1000)) }))
          : undefined,
    });
    const error = await undeclared.client.builds
      .download(undeclared.buildId, { maxBytes: 4500 })
      .then(bytesOf)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]!.code).toBe('too_big');
  });

  it('rejects with AbortError on an aborted signal, before and during the download', async () => {
    const { client, buildId, sent } = await setup({ artifacts: { size: 500_000 } });
    await expect(client.builds.download(buildId, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(downloads(sent)).toHaveLength(0);
    const controller = new AbortController();
    const stream = await client.builds.download(buildId, {
      signal: controller.signal,
      onProgress: ({ bytes }) => {
        if (bytes > 100_000) controller.abort();
      },
    });
    await expect(bytesOf(stream)).rejects.toBeInstanceOf(AbortError);
  });

  it('keeps going when onProgress throws or rejects, and reports bytes and total', async () => {
    const { lines, logger } = captureLogger();
    const { client, buildId } = await setup({ artifacts: { size: 200_000 }, logger });
    const seen: [number, number | undefined][] = [];
    const stream = await client.builds.download(buildId, {
      onProgress: ({ bytes, total }) => {
        seen.push([bytes, total]);
        if (seen.length === 1) throw new Error('boom');
        return Promise.reject(new Error('later')) as unknown as undefined;
      },
    });
    expectSame(await bytesOf(stream), artifactBytes(200_000));
    expect(seen.at(-1)).toEqual([200_000, 200_000]);
    await Promise.resolve();
    expect(lines.some((line) => /onProgress of a download failed \(Error\)/.test(line))).toBe(true);
  });

  it('keeps going when onProgress throws or rejects with a value nothing can inspect (a revoked Proxy)', async () => {
    const { lines, logger } = captureLogger();
    const { client, buildId } = await setup({ artifacts: { size: 200_000 }, logger });
    let calls = 0;
    const stream = await client.builds.download(buildId, {
      onProgress: () => {
        if (++calls === 1) throw revokedProxy();
        return Promise.reject(revokedProxy()) as unknown as undefined;
      },
    });
    expectSame(await bytesOf(stream), artifactBytes(200_000));
    await Promise.resolve();
    expect(lines.filter((line) => /onProgress of a download failed \(object\)/.test(line))).toHaveLength(calls);
  });

  it.each([
    ['the build read of an id', 'first'],
    ['the build read for a fresh URL after a 410', 'refresh'],
  ] as const)('keeps deadlineMs over %s, which hangs', async (_, which) => {
    fakeClockInThisTest();
    let reads = 0;
    const hang = () => new Promise<Response>(() => undefined);
    const { client, buildId } = await setup({
      answer: (request) => {
        const path = new URL(request.url).pathname;
        if (path.startsWith('/downloads/')) return new Response('gone', { status: 410 });
        if (!path.includes('/builds/')) return undefined;
        return which === 'first' || ++reads > 1 ? hang() : undefined;
      },
    });
    const settled = await settle(client.builds.download(buildId, { deadlineMs: 500 }));
    expect(settled.ok).toBe(false);
    const error = (settled as { error: TimeoutError }).error;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.reason).toBe('deadline');
    expect(error.timeoutMs).toBe(500);
    expect(settled.elapsedMs).toBe(500);
  });

  it('keeps its stall timeout when onProgress never returns a settled promise', async () => {
    fakeClockInThisTest();
    const { client, buildId } = await setup({
      answer: (request) =>
        new URL(request.url).pathname.startsWith('/downloads/')
          ? new Response(
              new ReadableStream({
                start: (c) => c.enqueue(new Uint8Array(10)),
                pull: () => new Promise(() => undefined),
              }),
            )
          : undefined,
    });
    const stream = await run(
      client.builds.download(buildId, { timeoutMs: 1000, maxRetries: 0, onProgress: () => new Promise(() => undefined) as never }),
    );
    const error = await run(bytesOf(stream)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/no data for 1000 ms after 10 bytes/);
  });

  it('refuses bad input before sending anything', async () => {
    const { client, sent } = await setup();
    await expect(client.builds.download('')).rejects.toBeInstanceOf(ValidationError);
    await expect(client.builds.download('bld_1', { maxBytes: -1 })).rejects.toThrow(/maxBytes/);
    await expect(client.builds.download('bld_1', { onProgress: 'x' as never })).rejects.toThrow(/onProgress/);
    await expect(client.builds.download({ id: 'wf_1' } as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(client.builds.download({ download_url: 'javascript:alert(1)' })).rejects.toThrow(/http\(s\) URL/);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['signal', {}],
    ['timeoutMs', 0],
    ['deadlineMs', -1],
    ['maxRetries', 11],
  ])('refuses a bad %s with the ValidationError a call gives for it, nothing sent', async (field, value) => {
    const { client, sent } = await setup();
    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e as ValidationError,
      );
    const call = await refused(client.builds.get('bld_1', { [field]: value }));
    for (const download of [
      client.builds.download('bld_1', { [field]: value }),
      client.builds.downloadToFile('bld_1', 'x.zip', { [field]: value }),
    ]) {
      const error = await refused(download);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error!.field).toBe(field);
      expect(error!.issues[0]!.message).toBe(call!.issues[0]!.message);
    }
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['maxBytes', -1, 'must be a whole number of bytes >= 0'],
    ['onProgress', 'x', 'must be a function'],
  ])('refuses a bad %s, naming it', async (field, value, message) => {
    const { client } = await setup();
    const error = await client.builds.download('bld_1', { [field]: value }).catch((e: unknown) => e as ValidationError);
    expect(error).toMatchObject({ field, message: `Invalid options of builds.download: ${field}: ${message}` });
  });

  it('rejects a build that has not completed, or failed, without downloading', async () => {
    const service = createMockService({ buildDurationMs: 60_000, seed: 3 });
    const client = new Client({ baseUrl: BASE, apiKey: service.apiKey, fetch: (i, init) => service.handle(new Request(i, init)) });
    const input = { name: 'w', platform: 'zapier', trigger: { type: 'webhook' }, actions: [{ app: 'a', action: 'b' }] };
    const building = await client.workflows.create(input);
    const error = await client.builds.download(building).catch((e: unknown) => e);
    expect(WfaError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/no artifact to download yet \(status building\)/);
    service.failNextBuild();
    const failing = createMockService({ buildDurationMs: 0, failBuilds: true, seed: 4 });
    const failed = new Client({ baseUrl: BASE, apiKey: failing.apiKey, fetch: (i, init) => failing.handle(new Request(i, init)) });
    const wf = await failed.workflows.create(input);
    await expect(failed.builds.download(wf)).rejects.toBeInstanceOf(BuildFailedError);
  });
});

describe('client.builds.downloadToFile', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async () => {
    dir = await mkdtemp(join(tmpdir(), 'wfa-download-'));
    return dir;
  };

  it('writes the artifact, resuming after drops, and leaves only the file', async () => {
    const folder = await tempDir();
    const { client, buildId } = await setup({ artifacts: { size: 250_000, resetAfterBytes: 100_000, resets: 2 } });
    const path = join(folder, 'build.zip');
    await expect(client.builds.downloadToFile(buildId, path)).resolves.toEqual({ path, bytes: 250_000 });
    expectSame(new Uint8Array(await readFile(path)), artifactBytes(250_000));
    expect(await readdir(folder)).toEqual(['build.zip']);
  });

  it('starts the file over when a resume is answered with the whole artifact', async () => {
    const folder = await tempDir();
    let n = 0;
    const { client, buildId, service } = await setup({
      artifacts: { size: 100_000, resetAfterBytes: 30_000, resets: 1 },
      answer: (request) =>
        new URL(request.url).pathname.startsWith('/downloads/') && ++n === 2 ? service.handle(new Request(request.url)) : undefined,
    });
    const path = join(folder, 'build.zip');
    await expect(client.builds.downloadToFile(buildId, path)).resolves.toMatchObject({ bytes: 100_000 });
    expectSame(new Uint8Array(await readFile(path)), artifactBytes(100_000));
  });

  it.each([
    [
      'a Content-Length mismatch',
      { answer: () => new Response(new Uint8Array(10), { headers: { 'content-length': '20' } }) },
      ResponseValidationError,
    ],
    ['maxBytes', { maxBytes: 50 }, ResponseValidationError],
    ['a drop the host cannot resume', { artifacts: { size: 100_000, resetAfterBytes: 1000, ranges: false } }, ConnectionError],
  ] as const)('leaves no file, and no temporary file, after %s; an existing file is untouched', async (_, how, ErrorClass) => {
    const folder = await tempDir();
    const { client, buildId } = await setup({
      artifacts: 'artifacts' in how ? how.artifacts : { size: 100 },
      answer: 'answer' in how ? (r) => (new URL(r.url).pathname.startsWith('/downloads/') ? how.answer() : undefined) : undefined,
    });
    await expect(
      client.builds.downloadToFile(buildId, join(folder, 'new.zip'), {
        maxRetries: 1,
        maxBytes: 'maxBytes' in how ? how.maxBytes : undefined,
      }),
    ).rejects.toBeInstanceOf(ErrorClass);
    await writeFile(join(folder, 'old.zip'), 'previous');
    await expect(
      client.builds.downloadToFile(buildId, join(folder, 'old.zip'), {
        maxRetries: 1,
        maxBytes: 'maxBytes' in how ? how.maxBytes : undefined,
      }),
    ).rejects.toBeInstanceOf(ErrorClass);
    expect(await readdir(folder)).toEqual(['old.zip']);
    expect(await readFile(join(folder, 'old.zip'), 'utf8')).toBe('previous');
  });

  it('leaves no file when aborted mid-download', async () => {
    const folder = await tempDir();
    const { client, buildId } = await setup({ artifacts: { size: 1_000_000 } });
    const controller = new AbortController();
    const done = client.builds.downloadToFile(buildId, join(folder, 'a.zip'), {
      signal: controller.signal,
      onProgress: ({ bytes }) => {
        if (bytes >= 200_000) controller.abort();
      },
    });
    await expect(done).rejects.toBeInstanceOf(AbortError);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('downloads from a host that misbehaves: nothing leaked, nothing spliced', () => {
  const CDN = 'https://cdn.example.net';
  const SIGNED = `${CDN}/a.zip?X-Amz-Signature=SIG_SECRET_77`;
  const A = new Uint8Array(100).fill(0x41);
  const B = new Uint8Array(200).fill(0x42);
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = '';
  });

  /** A body that gives `head` and then breaks, as a dropped connection does. */
  const dropping = (head: Uint8Array, headers: Record<string, string>) =>
    new Response(
      new ReadableStream({
        start: (c) => c.enqueue(head),
        pull: (c) => c.error(new TypeError('terminated')),
      }),
      { headers },
    );

  /** The CDN answers the first request with `first` and any request with a Range with `resume`. */
  async function host(first: () => Response, resume: (request: Request) => Response) {
    const s = await setup({
      answer: (request) => {
        if (!request.url.startsWith(CDN)) return undefined;
        return request.headers.has('range') ? resume(request) : first();
      },
    });
    const target = { status: 'completed', download_url: SIGNED };
    dir = await mkdtemp(join(tmpdir(), 'wfa-download-'));
    return {
      ...s,
      stream: () => s.client.builds.download(target).then(bytesOf),
      file: () => s.client.builds.downloadToFile(target, join(dir, 'out.zip')),
      leftovers: () => readdir(dir),
    };
  }

  const codeOf = (error: unknown) => (error as ResponseValidationError).issues?.[0]?.code;

  it('refuses a download_url with a user name or password before fetching, quoting neither it nor its query', async () => {
    const withPassword = `https://user:PASS_SECRET_1@cdn.example.net/a.zip?X-Amz-Signature=SIG_SECRET_77`;
    const given = await setup({ answer: (request) => (request.url.startsWith(CDN) ? new Response('x') : undefined) });
    const error = await given.client.builds.download({ status: 'completed', download_url: withPassword }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/user name or password/);
    expect(inspect(error, { depth: 10 })).not.toMatch(/PASS_SECRET|SIG_SECRET/);
    expect(given.sent).toHaveLength(0);
    // The same URL from the service's build: refused before the download host is asked.
    const served = await setup({
      answer: (request) => {
        const id = /\/builds\/([^/?]+)$/.exec(new URL(request.url).pathname)?.[1];
        if (request.url.startsWith(CDN)) return new Response('x');
        return id ? Response.json({ id, workflow_id: 'wf_1', status: 'completed', progress: 100, download_url: withPassword }) : undefined;
      },
    });
    const fromService = await served.client.builds
      .downloadToFile('bld_1', join(tmpdir(), 'wfa-never-written.zip'))
      .catch((e: unknown) => e);
    expect(WfaError.is(fromService)).toBe(true);
    expect((fromService as Error).message).toMatch(/user name or password/);
    expect(inspect(fromService, { depth: 10 })).not.toMatch(/PASS_SECRET|SIG_SECRET/);
    expect(served.sent.filter((r) => r.url.startsWith(CDN))).toHaveLength(0);
  });

  it('keeps the query out of a connection error and out of its cause, in any form', async () => {
    const s = await setup({
      answer: (request) => {
        if (!request.url.startsWith(CDN)) return undefined;
        // As Node's fetch does for some failures: the whole URL in the message (and here, encoded, in the cause).
        throw new TypeError(`fetch failed: ${request.url}`, { cause: new Error(`at ${encodeURIComponent(request.url)}`) });
      },
    });
    const error = await s.client.builds.download({ status: 'completed', download_url: SIGNED }, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(inspect(error, { depth: 10 })).not.toMatch(/SIG_SECRET/);
  });

  it('refuses a download_url that is not a URL before fetching, without quoting it', async () => {
    const broken = 'https://cdn example.net/a.zip?X-Amz-Signature=SIG_SECRET_77';
    const given = await setup();
    const error = await given.client.builds.download({ status: 'completed', download_url: broken }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/download_url.*not a valid URL/);
    expect(inspect(error, { depth: 10 })).not.toMatch(/SIG_SECRET/);
    expect(given.sent).toHaveLength(0);
    // The same URL from the service's build.
    const served = await setup({
      answer: (request) =>
        /\/builds\/bld_1$/.test(request.url)
          ? Response.json({ id: 'bld_1', workflow_id: 'wf_1', status: 'completed', progress: 100, download_url: broken })
          : undefined,
    });
    const fromService = await served.client.builds.download('bld_1').catch((e: unknown) => e);
    // The build's schema already refuses it, as it refuses any download_url that is not http(s).
    expect(fromService).toBeInstanceOf(ResponseValidationError);
    expect((fromService as Error).message).toMatch(/download_url: must be an http\(s\) URL/);
    expect(inspect(fromService, { depth: 10 })).not.toMatch(/SIG_SECRET/);
  });

  it.each([
    ['quoted in a JSON error', (url: string) => Response.json({ message: `Signature expired for ${url}` }, { status: 401 })],
    [
      'a parameter of it in XML',
      () => new Response('<Error><SignatureProvided>SIG_SECRET_77</SignatureProvided></Error>', { status: 401 }),
    ],
    [
      'percent-encoded in a header',
      (url: string) => new Response(null, { status: 401, headers: { 'x-request-url': encodeURIComponent(url) } }),
    ],
  ])("keeps the query out of the download host's error when its answer echoes it, %s", async (_, answer) => {
    const s = await setup({ answer: (request) => (request.url.startsWith(CDN) ? answer(request.url) : undefined) });
    const error = await s.client.builds.download({ status: 'completed', download_url: SIGNED }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfaError);
    expect(inspect(error, { depth: 10 })).not.toMatch(/SIG_SECRET/);
  });

  it.each(['stream', 'file'] as const)(
    "a %s fails with length_mismatch when a resume's 206 of unknown total ends short of the first Content-Length",
    async (kind) => {
      const h = await host(
        () => dropping(A.subarray(0, 50), { 'content-length': '100', 'accept-ranges': 'bytes', etag: '"v1"' }),
        () =>
          new Response(A.subarray(50, 60), {
            status: 206,
            headers: { 'content-range': 'bytes 50-99/*', 'content-length': '10', etag: '"v1"' },
          }),
      );
      const error = await h[kind]().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(codeOf(error)).toBe('length_mismatch');
      expect(await h.leftovers()).toEqual([]);
    },
  );

  it.each([
    ['stream', 'another ETag and total', '"v1"', '"v2"', 'bytes 50-199/200'],
    ['file', 'another ETag and total', '"v1"', '"v2"', 'bytes 50-199/200'],
    ['stream', 'another ETag', '"v1"', '"v2"', 'bytes 50-99/100'],
    ['file', 'another ETag', '"v1"', '"v2"', 'bytes 50-99/100'],
    ['stream', 'another total', '"v1"', '"v1"', 'bytes 50-199/200'],
    ['file', 'another total', '"v1"', '"v1"', 'bytes 50-199/200'],
    ['stream', 'another weak ETag', 'W/"v1"', 'W/"v2"', 'bytes 50-99/100'],
    ['file', 'another weak ETag', 'W/"v1"', 'W/"v2"', 'bytes 50-99/100'],
    ['stream', 'no ETag, after a weak one', 'W/"v1"', undefined, 'bytes 50-99/100'],
    ['file', 'no ETag, after a weak one', 'W/"v1"', undefined, 'bytes 50-99/100'],
  ] as const)("a %s refuses a resume's 206 with %s: nothing spliced", async (kind, _, first, etag, contentRange) => {
    const h = await host(
      () => dropping(A.subarray(0, 50), { 'content-length': '100', 'accept-ranges': 'bytes', etag: first }),
      () => {
        const start = 50;
        const end = Number(/-(\d+)\//.exec(contentRange)![1]);
        return new Response(B.subarray(start, end + 1), {
          status: 206,
          headers: { 'content-range': contentRange, 'content-length': String(end + 1 - start), ...(etag ? { etag } : {}) },
        });
      },
    );
    const error = await h[kind]().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(codeOf(error)).toBe('changed');
    expect(await h.leftovers()).toEqual([]);
  });

  it.each(['stream', 'file'] as const)("a %s takes a resume's 206 with the same weak ETag", async (kind) => {
    const h = await host(
      () => dropping(A.subarray(0, 50), { 'content-length': '100', 'accept-ranges': 'bytes', etag: 'W/"v1"' }),
      () => new Response(A.subarray(50), { status: 206, headers: { 'content-range': 'bytes 50-99/100', etag: 'W/"v1"' } }),
    );
    const result = await h[kind]();
    expectSame(kind === 'file' ? new Uint8Array(await readFile(join(dir, 'out.zip'))) : (result as Uint8Array), A);
  });

  it('a stream errors when a resume is answered 200 and the host gave only Last-Modified (it cannot tell the artifact is the same)', async () => {
    const validator = { 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' };
    const h = await host(
      () => dropping(A.subarray(0, 50), { 'content-length': '100', 'accept-ranges': 'bytes', ...validator }),
      () => new Response(B.subarray(0, 100), { headers: { 'content-length': '100', 'accept-ranges': 'bytes', ...validator } }),
    );
    const error = await h.stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(codeOf(error)).toBe('changed');
    // A file can take its bytes back: it starts over with the new artifact.
    await expect(h.file()).resolves.toMatchObject({ bytes: 100 });
    expectSame(new Uint8Array(await readFile(join(dir, 'out.zip'))), B.subarray(0, 100));
  });

  it('with no validator at all, a stream does not resume: nothing to check a resume against (download-wire.test.ts: a file starts over)', async () => {
    const h = await host(
      () => dropping(A.subarray(0, 50), { 'content-length': '100', 'accept-ranges': 'bytes' }),
      () => new Response(B.subarray(0, 100), { headers: { 'content-length': '100', 'accept-ranges': 'bytes' } }),
    );
    const error = await h.stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/no ETag or Last-Modified/);
    expect(h.sent.filter((r) => r.headers.has('range'))).toHaveLength(0);
  });

  it('refuses a path that is a directory before downloading anything', async () => {
    const h = await host(
      () => new Response(A, { headers: { 'content-length': '100' } }),
      () => new Response('never'),
    );
    const error = await h.client.builds.downloadToFile({ status: 'completed', download_url: SIGNED }, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/is a directory/);
    expect(h.sent).toHaveLength(0);
  });
});
