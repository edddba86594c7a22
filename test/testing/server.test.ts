import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createMockService, DEFAULT_MOCK_USER, startMockServer } from '../../src/testing/index.js';
import { reply, useStarted, WORKFLOW } from './helpers.js';

const { server, receiver } = useStarted();

function json(method: string, body: unknown, key?: string): RequestInit {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['x-api-key'] = key;
  return { method, headers, body: JSON.stringify(body) };
}

describe('startMockServer', () => {
  test('listens on 127.0.0.1 at a free port and resolves to its url and a key valid on it', async () => {
    const mock = await server();
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    const res = await reply(await fetch(`${mock.url}/v1/orders`, { headers: { 'X-API-Key': mock.apiKey } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test("the key is the service's key for the default user", async () => {
    const mock = await server();
    expect(mock.apiKey).toBe(mock.service.apiKey);
  });

  test.each(['/api/v1', '/v1'])('serves the whole lifecycle over HTTP under %s', async (prefix) => {
    const hooks = await receiver();
    // The build runs on the test's clock: each poll moves it on 50 ms instead of sleeping.
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const mock = await server({ buildDurationMs: 150, webhookUrl: hooks.url, now: () => now });

    const login = await reply(await fetch(`${mock.url}/v1/auth`, json('POST', DEFAULT_MOCK_USER)));
    const key: string = login.body.api_key;
    const saved = await reply(
      await fetch(`${mock.url}${prefix}/integrations`, json('POST', { platform: 'zapier', api_key: 'sk_live_abcdef1234' }, key)),
    );
    expect(saved.body.api_key).toBe('sk_l…1234');

    const workflow = (await reply(await fetch(`${mock.url}${prefix}/workflows`, json('POST', WORKFLOW, key)))).body;
    expect(workflow.status).toBe('building');

    let buildState = (await reply(await fetch(`${mock.url}${prefix}/builds/${workflow.build_id}`, { headers: { 'x-api-key': key } }))).body;
    const progress: number[] = [];
    while (buildState.status === 'building') {
      progress.push(buildState.progress);
      now += 50;
      buildState = (await reply(await fetch(`${mock.url}${prefix}/builds/${workflow.build_id}`, { headers: { 'x-api-key': key } }))).body;
    }
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(buildState.status).toBe('completed');
    expect(buildState.download_url).toBe(`${mock.url}/downloads/${workflow.build_id}.zip`);

    const zip = await fetch(buildState.download_url);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    await zip.arrayBuffer();

    const [delivery] = await hooks.waitFor(1);
    expect(delivery?.body).toEqual({ event: 'build.completed', workflow_id: workflow.id, data: { download_url: buildState.download_url } });

    const list = await reply(await fetch(`${mock.url}${prefix}/workflows?limit=5`, { headers: { 'x-api-key': key } }));
    expect(list.body).toMatchObject({ page: 1, limit: 5, total: 1, has_more: false });
    expect(list.body.data[0]).toMatchObject({ id: workflow.id, status: 'active' });
  });

  test("passes service options through: prefixes: ['/v1'] makes /api/v1 a 404", async () => {
    const mock = await server({ prefixes: ['/v1'] });
    const headers = { 'x-api-key': mock.apiKey };
    expect((await fetch(`${mock.url}/api/v1/orders`, { headers })).status).toBe(404);
    expect((await fetch(`${mock.url}/v1/orders`, { headers })).status).toBe(200);
  });

  test('answers 401 without a key and with a wrong one', async () => {
    const mock = await server();
    expect((await fetch(`${mock.url}/v1/workflows`)).status).toBe(401);
    expect((await fetch(`${mock.url}/v1/workflows`, { headers: { 'x-api-key': 'nope' } })).status).toBe(401);
  });

  test('a 429 carries Retry-After over HTTP', async () => {
    const mock = await server({ rateLimit: { every: 1, retryAfterSeconds: 3 } });
    const res = await fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    await res.arrayBuffer();
  });

  test('the per-key token bucket answers 429 over HTTP, with its headers when asked, and the server counts both', async () => {
    // One token per 1000 s: the second request is refused however slow the machine is.
    const mock = await server({ rateLimit: { requestsPerSecond: 0.001 }, rateLimitHeaders: true });
    const get = () => fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } });
    expect((await reply(await get())).status).toBe(200);
    const refused = await reply(await get());

    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1000');
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=1;w=1000');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.body.error.code).toBe('rate_limited');
    expect(mock.service.requestCounts(mock.apiKey)).toEqual({ requests: 2, tooManyRequests: 1 });
  });

  describe('a workflow nested too deep', () => {
    // Written as text: JSON.stringify itself overflows long before 100,000 levels. The body's own levels are
    // the root object, `actions`, the action, then the config's.
    const deep = (bodyDepth: number): RequestInit['body'] => {
      const levels = bodyDepth - 3;
      const config = `${'{"a":'.repeat(levels)}"leaf"${'}'.repeat(levels)}`;
      return `{"name":"Deep","platform":"zapier","trigger":{"type":"webhook"},"actions":[{"app":"slack","action":"send","config":${config}}]}`;
    };
    const send = (method: string, path: string, body: RequestInit['body'], key: string) =>
      fetch(path, { method, headers: { 'content-type': 'application/json', 'x-api-key': key }, body });

    test.each([3_000, 100_000])('%i levels: a 422 naming the depth, nothing stored, and lists still answer', async (levels) => {
      const mock = await server();
      const created = await reply(await send('POST', `${mock.url}/v1/workflows`, deep(levels), mock.apiKey));
      const existing = await reply(await fetch(`${mock.url}/v1/workflows`, json('POST', WORKFLOW, mock.apiKey)));
      const updated = await reply(await send('PUT', `${mock.url}/v1/workflows/${existing.body.id}`, deep(levels), mock.apiKey));
      const list = await reply(await fetch(`${mock.url}/v1/workflows`, { headers: { 'x-api-key': mock.apiKey } }));

      expect(created.status).toBe(422);
      expect(created.body.error.message).toBe(
        `Request body nests objects and arrays ${levels} levels deep; the service accepts at most 100`,
      );
      expect(updated.status).toBe(422);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([existing.body]);
    });

    test('100 levels are accepted and served', async () => {
      const mock = await server();
      const created = await reply(await send('POST', `${mock.url}/v1/workflows`, deep(100), mock.apiKey));
      const list = await reply(await fetch(`${mock.url}/v1/workflows`, { headers: { 'x-api-key': mock.apiKey } }));

      expect(created.status).toBe(201);
      expect(list.body.data).toEqual([created.body]);
    });

    test('brackets inside strings do not count', async () => {
      const mock = await server();
      const body = {
        ...WORKFLOW,
        name: '['.repeat(500),
        actions: [{ app: 'slack', action: 'send', config: { text: '{\\"'.repeat(200) } }],
      };

      expect((await fetch(`${mock.url}/v1/workflows`, json('POST', body, mock.apiKey))).status).toBe(201);
    });
  });

  test('a request body over 1 MiB is refused with 413', async () => {
    const mock = await server();
    const res = await fetch(`${mock.url}/v1/workflows`, json('POST', { name: 'x'.repeat(1024 * 1024) }, mock.apiKey));
    expect(res.status).toBe(413);
    await res.arrayBuffer();
  });

  test('a declared body over 1 MiB sent with Expect: 100-continue gets 413 before any upload, then the close', async () => {
    const mock = await server();
    const answer = await new Promise<{ status: number; continued: boolean; headers: Record<string, unknown> }>((resolve, reject) => {
      let continued = false;
      const headers = {
        'content-type': 'application/json',
        'x-api-key': mock.apiKey,
        'content-length': String(20 * 1024 * 1024),
        expect: '100-continue',
      };
      const req = httpRequest(`${mock.url}/v1/workflows`, { method: 'POST', headers });
      // Sent only on 100 Continue, as curl does: a sender that waits is never asked to upload.
      req.on('continue', () => {
        continued = true;
        req.destroy();
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, headers: res.headers }));
      });
      req.on('error', reject);
    });

    expect(answer).toMatchObject({
      status: 413,
      continued: false,
      headers: { connection: 'close', 'x-request-id': expect.stringMatching(/^req_/) },
    });
  });

  test('a body within bounds sent with Expect: 100-continue is asked for and served', async () => {
    const mock = await server();
    const body = JSON.stringify(WORKFLOW);
    const status = await new Promise<number>((resolve, reject) => {
      const headers = {
        'content-type': 'application/json',
        'x-api-key': mock.apiKey,
        'content-length': String(Buffer.byteLength(body)),
        expect: '100-continue',
      };
      const req = httpRequest(`${mock.url}/v1/workflows`, { method: 'POST', headers });
      req.on('continue', () => req.end(body));
      req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)));
      req.on('error', reject);
    });

    expect(status).toBe(201);
  });

  test("failNext(1, 'network') drops the connection, so fetch rejects", async () => {
    const mock = await server();
    mock.service.failNext(1, 'network');
    await expect(fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } })).rejects.toThrow(TypeError);
    expect((await fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } })).status).toBe(200);
  });

  test('serves a given service, and close() leaves that service to its owner', async () => {
    const service = createMockService({ seed: 5 });
    const mock = await startMockServer({ service });
    await fetch(`${mock.url}/v1/workflows`, json('POST', WORKFLOW, service.apiKey));
    await mock.close();
    const res = await service.handle(new Request('http://x.test/v1/workflows', { headers: { 'x-api-key': service.apiKey } }));
    expect((await reply(res)).body.total).toBe(1);
    service.close();
  });

  test('rejects when the port is taken', async () => {
    const first = await server();
    await expect(startMockServer({ port: first.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('close()', () => {
  test('closes open keep-alive connections, after which requests fail', async () => {
    const mock = await startMockServer();
    await (await fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } })).arrayBuffer();
    await mock.close();
    await expect(fetch(`${mock.url}/v1/orders`, { headers: { 'x-api-key': mock.apiKey } })).rejects.toThrow(TypeError);
  });

  test('can be called twice', async () => {
    const mock = await startMockServer();
    await mock.close();
    await expect(mock.close()).resolves.toBeUndefined();
  });
});
