/** `onDelivery`: what became of each delivery, told to an observer that never changes or delays the answer. */
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  createWebhookPayload,
  createWebhookRequest,
  hmacSha256,
  memoryStore,
  type WebhookDeliveryReport,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';

function observed(options: Partial<WebhookHandlerOptions> = {}) {
  const reports: WebhookDeliveryReport[] = [];
  const handler = createWebhookHandler({
    on: { 'build.completed': () => {} },
    onError: () => {},
    onDelivery: (report) => void reports.push(report),
    ...options,
  });
  return { handler, reports };
}

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('https://example.com/hooks', { method: 'POST', body, headers });

describe('onDelivery', () => {
  it('is told each outcome: handled, acknowledged, duplicate (done, and still running), rejected with the reason, failed', async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const { handler, reports } = observed({
      on: {
        'build.completed': (event) =>
          event.workflow_id === 'wf_slow' ? slow : event.workflow_id === 'wf_bad' ? Promise.reject(new Error('db down')) : undefined,
      },
      dedupe: { store: memoryStore() },
      maxBodyBytes: 4096,
    });
    const statuses = [
      (await handler(createWebhookRequest({ workflow_id: 'wf_1' }))).status,
      (await handler(createWebhookRequest({ workflow_id: 'wf_1' }))).status,
      (await handler(createWebhookRequest({ event: 'order.created', workflow_id: 'wf_1', data: {} }))).status,
      (await handler(post('{"event":'))).status,
      (await handler(post(' '.repeat(5000)))).status,
      (await handler(createWebhookRequest({ workflow_id: 'wf_bad' }))).status,
    ];
    const running = handler(createWebhookRequest({ workflow_id: 'wf_slow' }));
    await vi.waitFor(() => expect(reports).toHaveLength(6));
    statuses.push((await handler(createWebhookRequest({ workflow_id: 'wf_slow' }))).status);
    release();
    statuses.push((await running).status);
    await vi.waitFor(() => expect(reports).toHaveLength(8));

    expect(statuses).toEqual([200, 200, 200, 400, 413, 500, 503, 200]);
    const byStatus = reports.map(({ outcome, status, error }) => ({ outcome, status, ...(error ? { error } : {}) }));
    expect(byStatus.slice(0, 6)).toEqual([
      { outcome: 'handled', status: 200 },
      { outcome: 'duplicate', status: 200 },
      { outcome: 'acknowledged', status: 200 },
      { outcome: 'rejected', status: 400, error: expect.stringContaining('not valid JSON') },
      { outcome: 'rejected', status: 413, error: 'Webhook body is larger than 4096 bytes' },
      { outcome: 'failed', status: 500, error: 'Webhook handler failed' },
    ]);
    expect(byStatus.slice(6)).toEqual(
      expect.arrayContaining([
        { outcome: 'duplicate', status: 503, error: 'The same delivery is being handled; try again later' },
        { outcome: 'handled', status: 200 },
      ]),
    );
    expect(reports[0]).toMatchObject({ event: createWebhookPayload({ workflow_id: 'wf_1' }), key: expect.stringMatching(/^event:/) });
  });

  it('is told a delivery verify refused: rejected, 401', async () => {
    const { handler, reports } = observed({ verify: hmacSha256({ secret: 's3cr3t', header: 'x-signature' }) });
    expect((await handler(post(createWebhookBody(), { 'x-signature': 'forged' }))).status).toBe(401);
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toEqual({ outcome: 'rejected', status: 401, error: 'Webhook verification failed' });
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('observer down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('observer down'))],
    ['never settles', () => new Promise(() => {})],
  ])('one that %s changes nothing: the same answer, at once', async (_, onDelivery) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = createWebhookHandler({ on: { 'build.completed': () => {} }, onDelivery });

    const response = await handler(createWebhookRequest());

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    if (_ !== 'never settles')
      await vi.waitFor(() => expect(log).toHaveBeenCalledWith('workflow-automation-sdk: webhook onDelivery threw', expect.any(Error)));
  });

  it('must be a function', () => {
    expect(() => createWebhookHandler({ on: {}, onDelivery: 'log' as never })).toThrow(/onDelivery: must be a function/);
  });
});
