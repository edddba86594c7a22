/** `dedupe`: each delivery's callback runs once, across retries, with the in-memory store. Real Redis: test/integration. */
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  createWebhookRequest,
  hmacSha256,
  memoryStore,
  redisStore,
  signWebhook,
  standardWebhooks,
  ValidationError,
  WfaError,
  type WebhookDedupeStore,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { fakeClockInThisTest, run } from '../helpers/clock.js';

/** Lets real work (Web Crypto's digest) go on until `mock` has been called, or for `turns` turns of the event loop. */
async function called(mock: { mock: { calls: unknown[] } }, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns && mock.mock.calls.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
}

function receiver(options: Partial<WebhookHandlerOptions> & { store?: WebhookDedupeStore; ttlMs?: number } = {}) {
  const { store = memoryStore(), ttlMs, ...rest } = options;
  const onBuildCompleted = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted }, onError, dedupe: { store, ttlMs }, ...rest });
  return { handler, onBuildCompleted, onError, store };
}

/** The same bytes every time, as a sender's retry sends them. */
const delivery = (headers?: Record<string, string>, workflowId = 'wf_1') =>
  new Request('https://example.com/hooks', { method: 'POST', body: createWebhookBody({ workflow_id: workflowId }), headers });

describe('dedupe with memoryStore()', () => {
  it('runs a delivery sent twice once; the second is answered 200 {duplicate:true}', async () => {
    const { handler, onBuildCompleted } = receiver();
    expect((await handler(delivery())).status).toBe(200);
    const again = await handler(delivery());
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
    expect(onBuildCompleted.mock.calls[0]?.[2]).toEqual({ confirmed: false, key: expect.stringMatching(/^event:[0-9a-f]{64}$/) });
  });

  it('tells different events apart: another workflow, another URL', async () => {
    const { handler, onBuildCompleted } = receiver();
    await handler(delivery({}, 'wf_1'));
    await handler(delivery({}, 'wf_2'));
    await handler(createWebhookRequest({ workflow_id: 'wf_1', data: { download_url: 'https://cdn.example.com/other.zip' } }));
    expect(onBuildCompleted).toHaveBeenCalledTimes(3);
  });

  it('without an id header, keys on the event, not its bytes: the same event re-serialised runs once', async () => {
    const { handler, onBuildCompleted } = receiver();
    const event = JSON.parse(createWebhookBody({ workflow_id: 'wf_1' })) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(event).reverse());
    const bodies = [JSON.stringify(event), JSON.stringify(reordered, null, 2), `\n ${JSON.stringify(event)} \n`];
    for (const body of bodies) expect((await handler(new Request('https://example.com/hooks', { method: 'POST', body }))).status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('without an id header, keys an event nested past the stack (10,000 levels) on its text: handled once, its retry a duplicate', async () => {
    const onDelivery = vi.fn();
    const { handler, onBuildCompleted, onError } = receiver({ onDelivery });
    const event = JSON.parse(createWebhookBody({ workflow_id: 'wf_1' })) as { data: Record<string, unknown> };
    const body = JSON.stringify(event).replace('"data":{', `"data":{"n":${'['.repeat(10_000)}${']'.repeat(10_000)},`);
    const send = () => handler(new Request('https://example.com/hooks', { method: 'POST', body }));
    expect((await send()).status).toBe(200);
    expect(await (await send()).json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
    expect(onError).not.toHaveBeenCalled();
    expect(onDelivery).toHaveBeenCalledTimes(2);
  });

  it('without an id header, keys on each number as sent: events told apart only past 2^53, or past a double, are two', async () => {
    const { handler, onBuildCompleted } = receiver();
    const body = (id: string) =>
      `{"id":${id},"event":"build.completed","workflow_id":"wf_1","data":{"download_url":"https://x.example.com/a.zip"}}`;
    const ids = ['9007199254740992', '9007199254740993', '-9007199254740993', '0.1', '0.10000000000000000001', '1e400', '1e401'];
    for (const id of [...ids, ...ids]) await handler(new Request('https://example.com/hooks', { method: 'POST', body: body(id) }));

    expect(onBuildCompleted).toHaveBeenCalledTimes(ids.length);
  });

  it('without an id header, one number written another way (1.0, 1, 10e-1, 0.1e1) is the same event', async () => {
    const { handler, onBuildCompleted } = receiver();
    const body = (n: string) =>
      `{"n":${n},"event":"build.completed","workflow_id":"wf_1","data":{"download_url":"https://x.example.com/a.zip"}}`;
    for (const n of ['1.0', '1', '10e-1', '0.1e1', '1E+0', '100e-2'])
      await handler(new Request('https://example.com/hooks', { method: 'POST', body: body(n) }));

    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('keys on your own dedupe.key when given, hashed: one run per build whatever the sender', async () => {
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({
      on: { 'build.completed': onBuildCompleted },
      dedupe: { store: memoryStore(), key: async (event) => `${event.workflow_id}` },
    });
    await handler(delivery({ 'webhook-id': 'msg_1' }, 'wf_1'));
    await handler(delivery({ 'webhook-id': 'msg_2' }, 'wf_1')); // another id, same workflow: a duplicate by your key
    await handler(delivery({ 'webhook-id': 'msg_1' }, 'wf_2'));
    expect(onBuildCompleted.mock.calls.map((call) => call[0].workflow_id)).toEqual(['wf_1', 'wf_2']);
    expect(onBuildCompleted.mock.calls[0]?.[2].key).toMatch(/^own:[0-9a-f]{64}$/);
  });

  it('a dedupe.key that throws, returns no string or hangs: 500, 500, 503, onError told, the handler not run (fake clock)', async () => {
    fakeClockInThisTest();
    const keys = [
      () => {
        throw new Error('no key');
      },
      () => 42 as unknown as string,
      () => new Promise<string>(() => {}),
    ];
    const statuses: number[] = [];
    for (const key of keys) {
      const onBuildCompleted = vi.fn();
      const onError = vi.fn();
      const handler = createWebhookHandler({
        on: { 'build.completed': onBuildCompleted },
        onError,
        handlerTimeoutMs: 1_000,
        dedupe: { store: memoryStore(), key },
      });
      statuses.push((await run(handler(delivery()))).status);
      expect(onBuildCompleted).not.toHaveBeenCalled();
      expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(WfaError);
    }
    expect(statuses).toEqual([500, 500, 503]);
  });

  it('keys on a delivery-id header when there is one: webhook-id, x-webhook-id, x-delivery-id', async () => {
    const { handler, onBuildCompleted } = receiver();
    await handler(delivery({ 'webhook-id': 'msg_1' }));
    await handler(delivery({ 'webhook-id': 'msg_2' })); // same bytes, another delivery: runs
    await handler(delivery({ 'webhook-id': 'msg_1' }, 'wf_other')); // same id: a retry, whatever its body
    await handler(delivery({ 'x-delivery-id': 'd_1' }));
    await handler(delivery({ 'x-delivery-id': 'd_1' }));
    expect(onBuildCompleted).toHaveBeenCalledTimes(3);
    expect(onBuildCompleted.mock.calls.map((call) => call[2].key)).toEqual([
      expect.stringMatching(/^id:[0-9a-f]{64}$/),
      expect.stringMatching(/^id:/),
      expect.stringMatching(/^id:/),
    ]);
  });

  it('takes the id headers you name (idHeaders)', async () => {
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({
      on: { 'build.completed': onBuildCompleted },
      dedupe: { store: memoryStore(), idHeaders: ['x-my-id'] },
    });
    await handler(delivery({ 'x-my-id': 'a', 'webhook-id': 'same' }));
    await handler(delivery({ 'x-my-id': 'b', 'webhook-id': 'same' }));
    expect(onBuildCompleted).toHaveBeenCalledTimes(2);
  });

  it('runs concurrent duplicates once: while the first is running, a duplicate gets 503 and Retry-After', async () => {
    let finish: () => void = () => {};
    const onBuildCompleted = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { handler } = receiver({ on: { 'build.completed': onBuildCompleted } });

    const first = handler(delivery());
    await vi.waitFor(() => expect(onBuildCompleted).toHaveBeenCalledOnce());
    const duplicate = await handler(delivery());
    expect(duplicate.status).toBe(503);
    expect(duplicate.headers.get('retry-after')).toBe('40'); // lockMs: handlerTimeoutMs + confirmTimeoutMs
    finish();
    expect((await first).status).toBe(200);
    expect(await (await handler(delivery())).json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('releases the key when the handler throws, so the retried delivery runs', async () => {
    const onBuildCompleted = vi.fn().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined);
    const { handler, onError } = receiver({ on: { 'build.completed': onBuildCompleted } });
    expect((await handler(delivery())).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(new Error('database down'), expect.anything());
    expect((await handler(delivery())).status).toBe(200);
    expect((await handler(delivery())).status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledTimes(2);
  });

  it('forgets a handled delivery after ttlMs (fake clock), and not before', async () => {
    fakeClockInThisTest();
    const { handler, onBuildCompleted } = receiver({ ttlMs: 60_000 });
    await handler(delivery());
    vi.advanceTimersByTime(59_999);
    await handler(delivery());
    expect(onBuildCompleted).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(1);
    await handler(delivery());
    expect(onBuildCompleted).toHaveBeenCalledTimes(2);
  });

  it('keeps the key of a handler past handlerTimeoutMs until it settles, then marks it done (fake clock)', async () => {
    fakeClockInThisTest();
    let finish: () => void = () => {};
    const onBuildCompleted = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { handler } = receiver({ on: { 'build.completed': onBuildCompleted }, handlerTimeoutMs: 1_000 });

    const first = handler(delivery());
    await called(onBuildCompleted); // past the key's SHA-256, which no clock moves
    expect((await run(first)).status).toBe(503); // too slow: the sender will retry
    expect((await handler(delivery())).status).toBe(503); // ...but it is still running: not again
    finish();
    await called({ mock: { calls: [] } }, 20); // the key is marked done in the background: microtasks only
    const retried = await handler(delivery());
    expect(await retried.json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('answers 503 when the store fails or hangs, and never runs the handler', async () => {
    fakeClockInThisTest();
    const failing = vi.fn(() => Promise.reject(new Error('ECONNREFUSED')));
    const hanging = vi.fn(() => new Promise<boolean>(() => {}));
    for (const reserve of [failing, hanging]) {
      const { handler, onBuildCompleted, onError } = receiver({ store: { ...memoryStore(), reserve }, handlerTimeoutMs: 1_000 });
      const answer = handler(delivery());
      await called(reserve); // past the key's SHA-256, which no clock moves
      expect((await run(answer)).status).toBe(503);
      expect(onBuildCompleted).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledOnce();
    }
  });

  it('renews the reservation while a slow handler runs: the same delivery at 0, 0.7 and 1.0 s runs once (fake clock)', async () => {
    fakeClockInThisTest();
    let running = 0;
    let most = 0;
    const onBuildCompleted = vi.fn(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      running--;
    });
    // lockMs is handlerTimeoutMs + confirmTimeoutMs: 500 ms, a third of the handler's time.
    const { handler } = receiver({ on: { 'build.completed': onBuildCompleted }, handlerTimeoutMs: 300, confirmTimeoutMs: 200 });

    const first = handler(delivery());
    await called(onBuildCompleted, Number.POSITIVE_INFINITY); // past the key's SHA-256, which no clock moves
    await vi.advanceTimersByTimeAsync(700);
    expect((await first).status).toBe(503); // past handlerTimeoutMs: still running
    // A duplicate needs no timer to be refused: each is awaited before the clock moves on.
    expect((await handler(delivery())).status).toBe(503); // at 0.7 s
    await vi.advanceTimersByTimeAsync(300);
    expect((await handler(delivery())).status).toBe(503); // at 1.0 s
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
    expect(most).toBe(1);
    expect(await (await run(handler(delivery()))).json()).toEqual({ received: true, duplicate: true });
  });

  it('memoryStore: after maxKeys other deliveries, a duplicate of one still running does not run again', async () => {
    let finish: () => void = () => {};
    const slow = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const onBuildCompleted = vi.fn((event: { workflow_id: string }) => (event.workflow_id === 'wf_slow' ? slow() : undefined));
    const { handler } = receiver({
      on: { 'build.completed': onBuildCompleted },
      store: memoryStore({ maxKeys: 3 }),
      handlerTimeoutMs: 1_000,
    });

    const first = handler(delivery({}, 'wf_slow'));
    await vi.waitFor(() => expect(slow).toHaveBeenCalledOnce());
    for (let i = 0; i < 5; i++) expect((await handler(delivery({}, `wf_${i}`))).status).toBe(200);
    expect((await handler(delivery({}, 'wf_slow'))).status).toBe(503);
    expect(slow).toHaveBeenCalledOnce();
    finish();
    expect((await first).status).toBe(200);
  });

  it('with hmacSha256, keys on the signed event: a captured delivery replayed with a fresh x-delivery-id does not run again', async () => {
    const verify = hmacSha256({ secret: 's3cr3t', header: 'x-signature' });
    const { handler, onBuildCompleted } = receiver({ verify });
    const body = createWebhookBody({ workflow_id: 'wf_1' });
    const signed = await signWebhook(verify, body);
    const send = (id: string) =>
      new Request('https://example.com/hooks', { method: 'POST', body, headers: { ...signed, 'x-delivery-id': id } });
    expect((await handler(send('d_1'))).status).toBe(200);
    const replay = await handler(send('d_2'));
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
    expect(onBuildCompleted.mock.calls[0]?.[2].key).toMatch(/^event:/);
  });

  it('with standardWebhooks, keys on the signed webhook-id, not on an unsigned x-delivery-id', async () => {
    const verify = standardWebhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    const { handler, onBuildCompleted } = receiver({ verify, dedupe: { store: memoryStore(), idHeaders: ['x-delivery-id'] } });
    const body = createWebhookBody({ workflow_id: 'wf_1' });
    const signed = await signWebhook(verify, body, { id: 'msg_1' });
    const send = (id: string) =>
      new Request('https://example.com/hooks', { method: 'POST', body, headers: { ...signed, 'x-delivery-id': id } });
    expect((await handler(send('d_1'))).status).toBe(200);
    expect(await (await handler(send('d_2'))).json()).toEqual({ received: true, duplicate: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('undoes a reservation whose store call failed or timed out, so a command that lands late holds nothing', async () => {
    fakeClockInThisTest();
    const store = memoryStore();
    let land: () => void = () => {};
    // A reservation queued while disconnected: it lands only after the handler gave up on it.
    const reserve = vi.fn(
      (key: string, value: string, ttlMs: number) =>
        new Promise<boolean>((resolve) => (land = () => resolve(store.reserve(key, value, ttlMs) as unknown as boolean))),
    );
    const { handler, onBuildCompleted } = receiver({ store: { ...store, reserve }, handlerTimeoutMs: 1_000 });
    const answer = handler(delivery());
    await called(reserve);
    expect((await run(answer)).status).toBe(503);
    land();
    await called({ mock: { calls: [] } }, 20);
    expect(await store.get((await keyOf(delivery())) ?? '')).toBeUndefined();
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  it('does not reserve deliveries nothing handles', async () => {
    const store = memoryStore();
    const reserve = vi.spyOn(store, 'reserve');
    const handler = createWebhookHandler({ on: {}, dedupe: { store } });
    expect((await handler(delivery())).status).toBe(200);
    expect(reserve).not.toHaveBeenCalled();
  });
});

describe('memoryStore()', () => {
  it('reserves atomically, replaces and releases only what is still the caller’s', async () => {
    const store = memoryStore();
    expect(await store.reserve('k', 'a', 1_000)).toBe(true);
    expect(await store.reserve('k', 'b', 1_000)).toBe(false);
    expect(await store.replace('k', 'b', 'c', 1_000)).toBe(false);
    await store.release('k', 'b');
    expect(await store.get('k')).toBe('a');
    expect(await store.replace('k', 'a', 'done', 1_000)).toBe(true);
    await store.release('k', 'a');
    expect(await store.get('k')).toBe('done');
  });

  it('is bounded: beyond maxKeys the oldest finished key is forgotten first', async () => {
    const store = memoryStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) {
      await store.reserve(key, '1', 60_000);
      await store.replace(key, '1', 'done', 60_000);
    }
    expect(await store.get('a')).toBeUndefined();
    expect(await Promise.all(['b', 'c', 'd'].map((key) => store.get(key)))).toEqual(['done', 'done', 'done']);
  });

  it('never forgets a reservation still held (reserved, or renewed with its own value) to make room', async () => {
    const store = memoryStore({ maxKeys: 2 });
    await store.reserve('running', 'pending:1', 60_000);
    await store.replace('running', 'pending:1', 'pending:1', 60_000); // a renewal keeps it held
    for (const key of ['a', 'b', 'c']) {
      await store.reserve(key, '1', 60_000);
      await store.replace(key, '1', 'done', 60_000);
    }
    expect(await store.get('running')).toBe('pending:1');
    expect(await store.get('c')).toBe('done');
  });

  it('refuses bad options when created, and so does the handler', () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(ValidationError);
    expect(() => redisStore({} as never)).toThrow(/node-redis client \(with sendCommand\) or an ioredis client \(with call\)/);
    expect(() => createWebhookHandler({ on: {}, dedupe: { store: {} as never } })).toThrow(/dedupe.store: must be a store/);
    expect(() => createWebhookHandler({ on: {}, dedupe: { store: memoryStore(), ttlMs: -1 } })).toThrow(/dedupe.ttlMs/);
  });
});

describe('redisStore(): the commands it sends (a real server: test/integration/webhook-dedupe-redis.test.ts)', () => {
  it('sends SET NX PX through node-redis’s sendCommand, and ioredis’s call', async () => {
    const nodeRedis = { sendCommand: vi.fn(async (_args: string[]) => 'OK') };
    const ioredis = { call: vi.fn(async (..._args: string[]) => null), sendCommand: vi.fn() };
    expect(await redisStore(nodeRedis).reserve('k', 'v', 1_500)).toBe(true);
    expect(await redisStore(ioredis, { prefix: 'p:' }).reserve('k', 'v', 0.5)).toBe(false);
    expect(nodeRedis.sendCommand).toHaveBeenCalledWith(['SET', 'wfa:webhook:k', 'v', 'NX', 'PX', '1500']);
    expect(ioredis.call).toHaveBeenCalledWith('SET', 'p:k', 'v', 'NX', 'PX', '1');
    expect(ioredis.sendCommand).not.toHaveBeenCalled();
  });
});

// A duplicate request object is not needed for the key: the exact bytes are.
it('createWebhookRequest deliveries of the same payload share a key', async () => {
  const { handler, onBuildCompleted } = receiver();
  await handler(createWebhookRequest({ workflow_id: 'wf_9' }));
  await handler(createWebhookRequest({ workflow_id: 'wf_9' }));
  expect(onBuildCompleted).toHaveBeenCalledOnce();
});

/** The key a delivery gets without an id header: the store's view of it, for checking what a store holds. */
async function keyOf(request: Request): Promise<string | undefined> {
  // The event as canonical JSON: keys sorted at every level, no spaces.
  const sorted = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  const text = JSON.stringify(sorted(await request.json()));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `event:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
