import { readdirSync, readFileSync } from 'node:fs';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { createMockHandlers, MOCK_BASE_URL } from '../../src/testing/msw.js';
import { reply, startReceiver, WORKFLOW, type Receiver } from './helpers.js';

const server = setupServer();
const receivers: Receiver[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(async () => {
  server.resetHandlers();
  for (const receiver of receivers.splice(0)) await receiver.close();
});
afterAll(() => server.close());

describe('createMockHandlers', () => {
  test("answers at https://api.example.test by default, with the service's key", async () => {
    const handlers = createMockHandlers();
    server.use(...handlers);
    expect(MOCK_BASE_URL).toBe('https://api.example.test');
    const res = await reply(await fetch(`${MOCK_BASE_URL}/v1/orders`, { headers: { 'X-API-Key': handlers.service.apiKey } }));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('answers every endpoint of the service, both prefixes included', async () => {
    const handlers = createMockHandlers();
    server.use(...handlers);
    const headers = { 'x-api-key': handlers.service.apiKey, 'content-type': 'application/json' };
    const created = await reply(
      await fetch(`${MOCK_BASE_URL}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify(WORKFLOW) }),
    );
    expect(created.status).toBe(201);
    const fetched = await reply(await fetch(`${MOCK_BASE_URL}/v1/workflows/${created.body.id}`, { headers }));
    expect(fetched.body).toEqual(created.body);
  });

  test('lets users log in through /v1/auth', async () => {
    server.use(...createMockHandlers());
    const res = await reply(
      await fetch(`${MOCK_BASE_URL}/v1/auth`, { method: 'POST', body: JSON.stringify({ email: 'demo@example.com', password: 'demo' }) }),
    );
    expect(res.body.user).toEqual({ email: 'demo@example.com' });
  });

  test('takes service options next to baseUrl', async () => {
    const handlers = createMockHandlers({ baseUrl: 'https://wfa.internal.test', prefixes: ['/v1'], ordersPerUser: 2 });
    server.use(...handlers);
    const headers = { 'x-api-key': handlers.service.apiKey };
    expect((await fetch('https://wfa.internal.test/api/v1/orders', { headers })).status).toBe(404);
    expect((await reply(await fetch('https://wfa.internal.test/v1/orders', { headers }))).body.total).toBe(2);
  });

  test('uses only the origin of a baseUrl that has a path', async () => {
    const handlers = createMockHandlers({ baseUrl: 'https://wfa.internal.test/api/v1/' });
    server.use(...handlers);
    const res = await fetch('https://wfa.internal.test/v1/orders', { headers: { 'x-api-key': handlers.service.apiKey } });
    expect(res.status).toBe(200);
  });

  test('serves a service you pass in, sharing its state', async () => {
    const service = createMockService();
    const handlers = createMockHandlers(service, { baseUrl: 'https://shared.test' });
    server.use(...handlers);
    expect(handlers.service).toBe(service);
    await fetch('https://shared.test/v1/workflows', {
      method: 'POST',
      headers: { 'x-api-key': service.apiKey },
      body: JSON.stringify(WORKFLOW),
    });
    const direct = await service.handle(new Request('https://elsewhere.test/v1/workflows', { headers: { 'x-api-key': service.apiKey } }));
    expect((await reply(direct)).body.total).toBe(1);
  });

  test('leaves requests to other origins alone', async () => {
    const handlers = createMockHandlers();
    expect(await getResponse(handlers, new Request('https://other.test/v1/orders'))).toBeUndefined();
  });

  test("turns failNext(n, 'network') into a network error", async () => {
    const handlers = createMockHandlers();
    server.use(...handlers);
    handlers.service.failNext(1, 'network');
    await expect(fetch(`${MOCK_BASE_URL}/v1/orders`, { headers: { 'x-api-key': handlers.service.apiKey } })).rejects.toThrow(TypeError);
  });

  test('two handler sets for two base URLs keep separate state', async () => {
    const a = createMockHandlers({ baseUrl: 'https://a.test' });
    const b = createMockHandlers({ baseUrl: 'https://b.test' });
    server.use(...a, ...b);
    await fetch('https://a.test/v1/workflows', {
      method: 'POST',
      headers: { 'x-api-key': a.service.apiKey },
      body: JSON.stringify(WORKFLOW),
    });
    const res = await reply(await fetch('https://b.test/v1/workflows', { headers: { 'x-api-key': b.service.apiKey } }));
    expect(res.body.total).toBe(0);
  });

  test('runs a build to completion and delivers its webhook to a real receiver', async () => {
    const hooks = await startReceiver();
    receivers.push(hooks);
    let t = Date.parse('2030-01-01T00:00:00Z');
    const handlers = createMockHandlers({ now: () => t, buildDurationMs: 1000, webhookUrl: hooks.url });
    server.use(...handlers);
    const headers = { 'x-api-key': handlers.service.apiKey };
    const workflow = (
      await reply(await fetch(`${MOCK_BASE_URL}/v1/workflows`, { method: 'POST', headers, body: JSON.stringify(WORKFLOW) }))
    ).body;
    t += 1000;
    const buildState = (await reply(await fetch(`${MOCK_BASE_URL}/v1/builds/${workflow.build_id}`, { headers }))).body;
    expect(buildState.download_url).toBe(`${MOCK_BASE_URL}/downloads/${workflow.build_id}.zip`);
    expect((await fetch(buildState.download_url)).status).toBe(200);
    await handlers.service.flush();
    expect(hooks.received.map((r) => r.body)).toEqual([
      { event: 'build.completed', workflow_id: workflow.id, data: { download_url: buildState.download_url } },
    ]);
    handlers.service.close();
  });

  test('a reset between tests starts from a clean service', async () => {
    const handlers = createMockHandlers();
    server.use(...handlers);
    const headers = { 'x-api-key': handlers.service.apiKey };
    await fetch(`${MOCK_BASE_URL}/v1/workflows`, { method: 'POST', headers, body: JSON.stringify(WORKFLOW) });
    handlers.service.reset();
    expect((await reply(await fetch(`${MOCK_BASE_URL}/v1/workflows`, { headers }))).body.total).toBe(0);
  });
});

describe('msw stays optional', () => {
  const dir = new URL('../../src/testing/', import.meta.url);

  test.each(readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'msw.ts'))('%s does not import msw', (name) => {
    const source = readFileSync(new URL(name, dir), 'utf8');
    expect(source).not.toMatch(/from '(msw|\.\/msw\.js)(\/[^']*)?'/);
  });
});
