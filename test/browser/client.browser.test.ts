/**
 * The client in Chromium: real fetch, real AbortSignal, real service worker between the page and the mock
 * service. Run with `npm run test:browser`; skipped by `npm test` (Node).
 */
import { describe, expect, test } from 'vitest';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  Client,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  TimeoutError,
  ValidationError,
  WfaError,
} from '../../src/index.js';
import { looseObject } from '../../src/core/schema.js';
import { describeInBrowser, handlers, MOCK_BASE_URL, sent, sentTo, SLOW_BASE_URL, slowHandlers, WORKFLOW } from './mock.js';

const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: MOCK_BASE_URL, apiKey: handlers.service.apiKey, ...options });

describeInBrowser('in Chromium, against the mock service behind msw’s service worker', () => {
  test('runs in a real browser page', () => {
    expect(navigator.userAgent).toMatch(/Chrome\/\d+/);
    expect(navigator.serviceWorker.controller?.scriptURL).toMatch(/\/mockServiceWorker\.js$/);
  });

  test("checks objects with zod/mini's parser, which never probes for `new Function` (a strict CSP would report it)", () => {
    expect(looseObject({})._zod.traits.has('$ZodObjectJIT')).toBe(false);
  });

  test('create, get, update, delete a workflow', async () => {
    const wfa = client();
    const created = await wfa.workflows.create(WORKFLOW);
    expect(created).toMatchObject({ name: WORKFLOW.name, platform: 'zapier', status: 'building' });
    expect(created.id).toMatch(/^wf_/);
    expect(created.build_id).toMatch(/^bld_/);

    const fetched = await wfa.workflows.get(created.id);
    expect(fetched).toEqual(created);

    const renamed = await wfa.workflows.update(created.id, { name: 'Renamed' });
    expect(renamed.name).toBe('Renamed');

    await expect(wfa.workflows.delete(created.id)).resolves.toBeUndefined();
    await expect(wfa.workflows.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    // The key went as a header; the first call confirmed the /api/v1 prefix.
    expect(sent.every((r) => new URL(r.url).pathname.startsWith('/api/v1/'))).toBe(true);
  });

  test('lists with `for await`, fetching page after page lazily', async () => {
    const wfa = client();
    for (let i = 0; i < 5; i++) await wfa.workflows.create({ ...WORKFLOW, name: `Workflow ${i}` });
    sent.length = 0;

    const list = wfa.workflows.list({ limit: 2 });
    expect(sent).toHaveLength(0); // nothing is fetched until the list is iterated or awaited
    const names: string[] = [];
    for await (const workflow of list) names.push(workflow.name);

    expect(names.sort()).toEqual(['Workflow 0', 'Workflow 1', 'Workflow 2', 'Workflow 3', 'Workflow 4']);
    // The first request asks for no page (the service's first), then pages 2 and 3; a short page ends the walk.
    expect(sent.map((r) => new URL(r.url).searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(sent.every((r) => new URL(r.url).searchParams.get('limit') === '2')).toBe(true);
  });

  test('reads one page and walks to the next', async () => {
    const wfa = client();
    const page = await wfa.orders.list({ limit: 3 });
    expect(page.items).toHaveLength(3);
    expect(page.info).toMatchObject({ page: 1, limit: 3, total: 5 });
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.items).toHaveLength(2);
    expect(next.hasNextPage()).toBe(false);
  });

  test('logs in through /v1/auth and uses the issued key', async () => {
    const wfa = await Client.login({ baseUrl: MOCK_BASE_URL, email: 'demo@example.com', password: 'demo' });
    const page = await wfa.orders.list();
    expect(page.items.length).toBeGreaterThan(0);
    expect(sentTo('/v1/auth')).toHaveLength(1);
  });

  test('maps error statuses to error classes, with the request id the service sent', async () => {
    const error = await client()
      .workflows.get('wf_missing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(NotFoundError.is(error) && error.status).toBe(404);
    expect(NotFoundError.is(error) && error.requestId).toMatch(/^req_/);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(WfaError);

    const unauthorized = await client({ apiKey: 'wfa_wrong_key' })
      .orders.list()
      .catch((e: unknown) => e);
    expect(AuthenticationError.is(unauthorized)).toBe(true);
    expect(String(unauthorized)).not.toContain('wfa_wrong_key');
  });

  test('rejects bad input before sending anything', async () => {
    const error = await client()
      .workflows.create({ ...WORKFLOW, trigger: { type: 'webhook', url: 'ftp://example.com' } })
      .catch((e: unknown) => e);
    expect(ValidationError.is(error) && error.field).toBe('trigger.url');
    expect(sent).toHaveLength(0);
  });

  test('without an apiKey option there is no key: a browser has no WFA_API_KEY to read', async () => {
    const error = await new Client({ baseUrl: MOCK_BASE_URL }).orders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfaError);
    expect((error as Error).message).toMatch(/No API key/);
    expect(sent).toHaveLength(0);
  });

  describe('retries', () => {
    test('a GET is retried after 503s and succeeds', async () => {
      handlers.service.failNext(2, 503);
      const page = await client().orders.list();
      expect(page.items.length).toBeGreaterThan(0);
      expect(sentTo('/api/v1/orders')).toHaveLength(3);
    });

    test('a GET is retried after a dropped connection (a network error in the page)', async () => {
      handlers.service.failNext(1, 'network');
      const page = await client().orders.list();
      expect(page.items.length).toBeGreaterThan(0);
      expect(sentTo('/api/v1/orders')).toHaveLength(2);
    });

    test('a POST is not retried after a 503 (it may have reached the service)', async () => {
      handlers.service.failNext(1, 503);
      await expect(client().workflows.create(WORKFLOW)).rejects.toBeInstanceOf(InternalServerError);
      expect(sentTo('/api/v1/workflows')).toHaveLength(1);
    });

    test('a POST is retried after a 429, once Retry-After has passed', async () => {
      handlers.service.failNext(1, 429, { retryAfterSeconds: 1 });
      const started = performance.now();
      const created = await client().workflows.create(WORKFLOW);
      expect(created.id).toMatch(/^wf_/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
      expect(sentTo('/api/v1/workflows')).toHaveLength(2);
    });

    test('gives up after maxRetries with the last error', async () => {
      handlers.service.failNext(5, 'network');
      const error = await client({ maxRetries: 1 })
        .orders.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(sentTo('/api/v1/orders')).toHaveLength(2);
    });
  });

  describe('abort and timeouts', () => {
    const slow = () => new Client({ baseUrl: SLOW_BASE_URL, apiKey: slowHandlers.service.apiKey });

    test('an AbortSignal stops a call in flight at once, with the signal’s reason as cause', async () => {
      const controller = new AbortController();
      const reason = new Error('the user left the page');
      setTimeout(() => controller.abort(reason), 100);
      const started = performance.now();
      const error = await slow()
        .orders.list({}, { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortError);
      expect((error as AbortError).cause).toBe(reason);
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    test('an already aborted signal sends nothing', async () => {
      const error = await client()
        .orders.list({}, { signal: AbortSignal.abort() })
        .catch((e: unknown) => e);
      expect(AbortError.is(error)).toBe(true);
      expect(sent).toHaveLength(0);
    });

    test('timeoutMs ends a slow attempt with TimeoutError', async () => {
      const error = await slow()
        .orders.list({}, { timeoutMs: 200, maxRetries: 0 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as TimeoutError).timeoutMs).toBe(200);
    });
  });
});
