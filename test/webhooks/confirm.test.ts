/**
 * `confirm`: the handler re-reads a delivery's subject through the API before its callback runs. The service is
 * the in-process mock (src/testing), reached by a real `Client`; the mock's own deliveries are routed into the handler.
 */
import { describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/index.js';
import { createMockService, type MockServiceOptions } from '../../src/testing/index.js';
import {
  createWebhookHandler,
  createWebhookRequest,
  ValidationError,
  WfaError,
  type WebhookConfirmClient,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { fakeClockInThisTest, run } from '../helpers/clock.js';

const BASE = 'http://mock.test';

/** A mock service on a clock of the test's own (`later` moves it), and a client of it that never retries. */
function serviceAndClient(options: MockServiceOptions = {}) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const service = createMockService({ now: () => now, buildDurationMs: 1_000, ...options });
  const client = new Client({
    baseUrl: BASE,
    apiKey: service.apiKey,
    maxRetries: 0,
    fetch: (input, init) => service.handle(new Request(input, init)),
  });
  return { service, client, later: (ms: number) => (now += ms) };
}

/** The same, with a workflow whose build has completed. */
async function completedBuild() {
  const { service, client, later } = serviceAndClient();
  const workflow = await client.workflows.create({ name: 'Hook me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
  later(5_000);
  const build = await client.builds.get(workflow.build_id);
  expect(build.status).toBe('completed');
  return { service, client, workflow, downloadUrl: build.download_url as string, later };
}

/** The error the first call of `onError` got. */
function errorOf(onError: { mock: { calls: unknown[][] } }): Error {
  return onError.mock.calls[0]![0] as Error;
}

function receiver(client: WebhookConfirmClient, options: Partial<WebhookHandlerOptions> = {}) {
  const onBuildCompleted = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({ confirm: client, on: { 'build.completed': onBuildCompleted }, onError, ...options });
  return { handler, onBuildCompleted, onError };
}

describe('confirm: build.completed', () => {
  it('runs the handler, with delivery.confirmed, when the service agrees', async () => {
    const { client, workflow, downloadUrl } = await completedBuild();
    const { handler, onBuildCompleted, onError } = receiver(client);

    const response = await handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: downloadUrl } }));

    expect(response.status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ workflow_id: workflow.id, data: { download_url: downloadUrl } }),
      expect.any(Request),
      { confirmed: true, key: undefined },
    );
    expect(onError).not.toHaveBeenCalled();
  });

  it("confirms the mock service's own delivery, end to end", async () => {
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const { service, client, later } = serviceAndClient({
      webhookUrl: 'https://receiver.test/hooks',
      fetch: async (input, init) => handler!(new Request(input, init)),
    });
    const received = receiver(client);
    handler = received.handler;
    const workflow = await client.workflows.create({ name: 'Hook me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    later(5_000);
    await service.flush();

    expect(service.webhookDeliveries()).toEqual([expect.objectContaining({ status: 200 })]);
    expect(received.onBuildCompleted).toHaveBeenCalledOnce();
    expect(received.onBuildCompleted.mock.calls[0]?.[0]).toMatchObject({ workflow_id: workflow.id });
    service.close();
  });

  it('answers 401 and reports to onError when the build is not completed', async () => {
    const { client, later } = serviceAndClient({ buildDurationMs: 60_000 });
    const workflow = await client.workflows.create({ name: 'Slow', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    later(1_000);
    const { handler, onBuildCompleted, onError } = receiver(client);

    const response = await handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: 'https://evil.test/x.zip' } }));

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Webhook delivery could not be confirmed' });
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledOnce();
    const [error, event] = onError.mock.calls[0]!;
    expect(error).toBeInstanceOf(WfaError);
    expect((error as Error).message).toMatch(/not confirmed by the service: build "bld_\w+" of workflow "wf_\w+" is not completed/);
    expect(event).toMatchObject({ workflow_id: workflow.id });
  });

  it('answers 401 when the download_url differs from the build’s, and never quotes either URL', async () => {
    const { client, workflow, downloadUrl } = await completedBuild();
    const { handler, onBuildCompleted, onError } = receiver(client);
    const forged = 'https://evil.test/malware.zip?token=s3cr3t';

    const response = await handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: forged } }));

    expect(response.status).toBe(401);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    const message = errorOf(onError).message;
    expect(message).toMatch(/the download_url differs/);
    expect(message).not.toContain('evil.test');
    expect(message).not.toContain(new URL(downloadUrl).host);
  });

  it('accepts the same URL written differently (scheme and host case)', async () => {
    const { client, workflow, downloadUrl } = await completedBuild();
    const { handler, onBuildCompleted } = receiver(client);
    const shouted = downloadUrl.replace('http://', 'HTTP://').replace(/\/\/([^/]+)/, (_, host: string) => `//${host.toUpperCase()}`);

    const response = await handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: shouted } }));
    expect(response.status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('answers 401 for a workflow the service does not know (404)', async () => {
    const { client } = await completedBuild();
    const { handler, onBuildCompleted, onError } = receiver(client);

    const response = await handler(createWebhookRequest({ workflow_id: 'wf_forged', data: { download_url: 'https://evil.test/x.zip' } }));

    expect(response.status).toBe(401);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(errorOf(onError).message).toMatch(/workflow "wf_forged" or its build was not found/);
  });

  it.each([
    ['..', '..'],
    ['2,000 characters', 'w'.repeat(2_000)],
    ['a lone surrogate', 'wf_\ud800'],
  ])('answers 401, not 503, for a forged event whose workflow_id cannot exist (%s)', async (_, workflowId) => {
    const { client, downloadUrl } = await completedBuild();
    const { handler, onBuildCompleted, onError } = receiver(client);
    const response = await handler(createWebhookRequest({ workflow_id: workflowId, data: { download_url: downloadUrl } }));
    expect(response.status).toBe(401);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(errorOf(onError).message).toMatch(/workflow_id cannot be a workflow's id/);
    expect(errorOf(onError).message).not.toContain('w'.repeat(100));
  });

  it('answers 401 for a workflow without a build_id to read', async () => {
    const client: WebhookConfirmClient = {
      workflows: { get: async () => ({}) },
      builds: { get: vi.fn(async () => ({ status: 'completed', download_url: 'https://x.test/a.zip' })) },
    };
    const { handler, onBuildCompleted } = receiver(client);
    const response = await handler(createWebhookRequest({ workflow_id: 'wf_1', data: { download_url: 'https://x.test/a.zip' } }));
    expect(response.status).toBe(401);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(client.builds.get).not.toHaveBeenCalled();
  });
});

describe("confirm: the workflow read must be the event's", () => {
  // The fourth outside attack: a lenient id lookup that returns another workflow must not confirm the event.
  it('answers 401 when the service returns a workflow with another id', async () => {
    const client: WebhookConfirmClient = {
      workflows: { get: async () => ({ id: 'wf_ok', build_id: 'bld_1' }) },
      builds: { get: vi.fn(async () => ({ status: 'completed', download_url: 'https://x.test/a.zip' })) },
    };
    const { handler, onBuildCompleted } = receiver(client);
    const response = await handler(createWebhookRequest({ workflow_id: 'wf_evil', data: { download_url: 'https://x.test/a.zip' } }));
    expect(response.status).toBe(401);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(client.builds.get).not.toHaveBeenCalled();
  });
});

describe('confirm: the service cannot answer → 503, so the sender retries', () => {
  it.each([
    ['a 500', 500],
    ['a 503', 503],
    ['a dropped connection', 'network'],
  ] as const)('answers 503 on %s, and the retried delivery runs once the service is back', async (_, failure) => {
    const { service, client, workflow, downloadUrl } = await completedBuild();
    const { handler, onBuildCompleted, onError } = receiver(client);
    const delivery = () => createWebhookRequest({ workflow_id: workflow.id, data: { download_url: downloadUrl } });

    service.failNext(1, failure);
    const first = await handler(delivery());
    expect(first.status).toBe(503);
    expect(await first.json()).toEqual({ error: 'Webhook delivery could not be confirmed now; try again later' });
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledOnce();
    expect(errorOf(onError).message).toMatch(/could not be confirmed: the service did not respond/);

    expect((await handler(delivery())).status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('answers 503 when the service does not answer within confirmTimeoutMs, and aborts the read', async () => {
    fakeClockInThisTest();
    let signal: AbortSignal | undefined;
    const client: WebhookConfirmClient = {
      workflows: {
        get: (_id, options) => {
          signal = options?.signal;
          return new Promise(() => {}); // a client that hangs, and ignores its signal
        },
      },
      builds: { get: async () => ({ status: 'completed' }) },
    };
    const { handler, onBuildCompleted, onError } = receiver(client, { confirmTimeoutMs: 2_000 });

    const response = await run(handler(createWebhookRequest()));

    expect(response.status).toBe(503);
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(signal?.aborted).toBe(true);
    expect((errorOf(onError).cause as Error).message).toMatch(/longer than 2000 ms \(confirmTimeoutMs\)/);
  });
});

describe('confirm: confirmTimeoutMs is a bound of any length', () => {
  // setTimeout fires at once past 2**31 - 1 ms: a longer bound is waited in steps, not ended at once.
  it('a confirmTimeoutMs longer than a timer can hold lets a slow service answer', async () => {
    fakeClockInThisTest();
    const { client, downloadUrl, workflow } = await completedBuild();
    const slow: WebhookConfirmClient = {
      workflows: {
        get: (id, options) => new Promise((resolve) => setTimeout(resolve, 5_000)).then(() => client.workflows.get(id, options)),
      },
      builds: client.builds,
    };
    const { handler, onBuildCompleted } = receiver(slow, { confirmTimeoutMs: 2 ** 31 });

    const response = await run(handler(createWebhookRequest({ workflow_id: workflow.id, data: { download_url: downloadUrl } })));

    expect(response.status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });
});

describe('confirm: kinds the SDK cannot confirm (`unconfirmed`)', () => {
  const unknownKind = () => createWebhookRequest({ event: 'order.updated', data: { status: 'paid' } });
  const noReads: WebhookConfirmClient = {
    workflows: { get: () => Promise.reject(new Error('must not be called')) },
    builds: { get: () => Promise.reject(new Error('must not be called')) },
  };

  it("'reject' is the default: 401, onUnknown does not run, onError says why", async () => {
    const onUnknown = vi.fn();
    const { handler, onError } = receiver(noReads, { onUnknown });
    const response = await handler(unknownKind());
    expect(response.status).toBe(401);
    expect(onUnknown).not.toHaveBeenCalled();
    expect(errorOf(onError).message).toMatch(/kind "order.updated" cannot be confirmed.*unconfirmed: 'reject'/);
  });

  it("'reject' still acknowledges a kind nothing handles (200): there is no code to protect", async () => {
    const { handler, onError } = receiver(noReads);
    expect((await handler(unknownKind())).status).toBe(200);
    expect(onError).not.toHaveBeenCalled();
  });

  it("'accept' runs onUnknown with delivery.confirmed false, and ignores what it returns", async () => {
    const onUnknown = vi.fn(() => false);
    const { handler } = receiver(noReads, { onUnknown, unconfirmed: 'accept' });
    expect((await handler(unknownKind())).status).toBe(200);
    expect(onUnknown).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ event: 'order.updated' }), expect.any(Request), {
      confirmed: false,
      key: undefined,
    });
  });

  it("'handler-decides' runs onUnknown with delivery.confirmed false; returning false answers 401", async () => {
    const decisions = [true, false];
    const onUnknown = vi.fn(async (_event: unknown, _request: Request, delivery: { confirmed: boolean }) => {
      expect(delivery.confirmed).toBe(false);
      return decisions.shift();
    });
    const { handler, onError } = receiver(noReads, { onUnknown, unconfirmed: 'handler-decides' });

    expect((await handler(unknownKind())).status).toBe(200);
    expect(onError).not.toHaveBeenCalled();
    const refused = await handler(unknownKind());
    expect(refused.status).toBe(401);
    expect(errorOf(onError).message).toMatch(/handler refused an unconfirmed delivery/);
    expect(onUnknown).toHaveBeenCalledTimes(2);
  });

  it('refuses a bad policy or a client without builds.get when the handler is created', () => {
    expect(() => createWebhookHandler({ on: {}, confirm: noReads, unconfirmed: 'maybe' as never })).toThrow(ValidationError);
    expect(() => createWebhookHandler({ on: {}, confirm: {} as never })).toThrow(
      /confirm: must be a client with workflows.get and builds.get/,
    );
  });
});
