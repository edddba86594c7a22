import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  createWebhookPayload,
  createWebhookRequest,
  memoryStore,
  ValidationError,
  WfaError,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';

const url = 'https://example.com/webhooks';

function post(body: BodyInit, headers?: HeadersInit): Request {
  return new Request(url, { method: 'POST', body, headers });
}

/**
 * A body that arrives in chunks, produced only when read (high-water mark 0), recording how many chunks were
 * pulled and whether the stream was cancelled.
 */
function chunkedBody(chunkCount: number, chunkSize: number, headers?: HeadersInit) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === chunkCount) return controller.close();
        state.pulled += 1;
        controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(url, { method: 'POST', body: stream, headers, duplex: 'half' } as RequestInit);
  return { request, state };
}

describe('createWebhookHandler: 200 when handled or acknowledged', () => {
  it('calls the build.completed handler with the parsed event and the request, then answers 200 {received:true}', async () => {
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted } });
    const request = createWebhookRequest({ workflow_id: 'wf_9' });

    const response = await handler(request);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ received: true });
    expect(onBuildCompleted).toHaveBeenCalledExactlyOnceWith(createWebhookPayload({ workflow_id: 'wf_9' }), request, { confirmed: false });
  });

  it('waits for an async handler before answering', async () => {
    const order: string[] = [];
    const handler = createWebhookHandler({
      on: {
        'build.completed': async () => {
          await new Promise((resolve) => setImmediate(resolve));
          order.push('handled');
        },
      },
    });
    await handler(createWebhookRequest());
    order.push('answered');
    expect(order).toEqual(['handled', 'answered']);
  });

  it('passes an unknown kind to onUnknown and answers 200', async () => {
    const onUnknown = vi.fn();
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted }, onUnknown });
    const payload = createWebhookPayload({ event: 'order.updated', data: { status: 'paid' } });

    const response = await handler(createWebhookRequest(payload));

    expect(response.status).toBe(200);
    expect(onUnknown).toHaveBeenCalledExactlyOnceWith(payload, expect.any(Request), { confirmed: false });
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  it('acknowledges an unknown kind with 200 when there is no onUnknown', async () => {
    const handler = createWebhookHandler({ on: {} });
    const response = await handler(createWebhookRequest({ event: 'order.updated' }));
    expect(response.status).toBe(200);
  });

  it('acknowledges a known kind that has no handler with 200', async () => {
    const onUnknown = vi.fn();
    const response = await createWebhookHandler({ on: {}, onUnknown })(createWebhookRequest());
    expect(response.status).toBe(200);
    expect(onUnknown).not.toHaveBeenCalled();
  });

  it('routes an unknown kind named like an Object.prototype member to onUnknown, not to a prototype property', async () => {
    const onUnknown = vi.fn();
    const handler = createWebhookHandler({ on: {}, onUnknown });
    const response = await handler(createWebhookRequest({ event: 'constructor' }));
    expect(response.status).toBe(200);
    expect(onUnknown).toHaveBeenCalledOnce();
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const body = createWebhookBody();
    const handler = createWebhookHandler({ on: {}, maxBodyBytes: new TextEncoder().encode(body).byteLength });
    expect((await handler(post(body))).status).toBe(200);
  });
});

describe('createWebhookHandler: 400 with the reason on a bad payload', () => {
  it.each([
    ['not JSON', 'hello', 'Webhook body is not valid JSON'],
    ['empty', '', 'Webhook body is empty'],
    ['not an object', '[]', 'Webhook body must be a JSON object, got an array'],
    [
      'no download_url',
      JSON.stringify({ event: 'build.completed', workflow_id: 'wf_1', data: {} }),
      'Webhook payload is missing `data.download_url`',
    ],
  ])('%s', async (_name, body, reason) => {
    const onBuildCompleted = vi.fn();
    const response = await createWebhookHandler({ on: { 'build.completed': onBuildCompleted } })(post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: reason });
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  it('answers 400 when there is no body at all', async () => {
    const response = await createWebhookHandler({ on: {} })(new Request(url, { method: 'POST' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Webhook body is empty' });
  });

  it('answers 400 when the body stream fails mid-way', async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const request = new Request(url, { method: 'POST', body, duplex: 'half' } as RequestInit);
    const response = await createWebhookHandler({ on: {} })(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Webhook body could not be read' });
  });
});

describe('createWebhookHandler: verify', () => {
  it('receives the exact raw bytes and the headers, before parsing', async () => {
    const verify = vi.fn((_rawBody: Uint8Array, _headers: Headers) => true);
    const handler = createWebhookHandler({ on: {}, verify });
    // Whitespace and key order that a parse-and-reserialize would lose.
    const raw = '{ "workflow_id":"wf_1",  "event":"build.completed", "data":{"download_url":"https://x.example/a"} }';

    await handler(post(raw, { 'x-signature': 'abc' }));

    const [rawBody, headers] = verify.mock.calls[0] ?? [];
    expect(new TextDecoder().decode(rawBody)).toBe(raw);
    expect(headers?.get('x-signature')).toBe('abc');
  });

  it('is called even when the body would not parse, so unsigned garbage is answered 401, not 400', async () => {
    const response = await createWebhookHandler({ on: {}, verify: () => false })(post('not json'));
    expect(response.status).toBe(401);
  });

  it('lets the delivery through when it returns true', async () => {
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted }, verify: async () => true });
    expect((await handler(createWebhookRequest())).status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('answers 401 without calling handlers when it returns false', async () => {
    const onBuildCompleted = vi.fn();
    const onError = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted }, verify: () => false, onError });

    const response = await handler(createWebhookRequest());

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Webhook verification failed' });
    expect(onBuildCompleted).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers 401 when it resolves to false', async () => {
    const response = await createWebhookHandler({ on: {}, verify: async () => false })(createWebhookRequest());
    expect(response.status).toBe(401);
  });

  it('answers 401 when it throws, and reports the error to onError without an event', async () => {
    const failure = new Error('WEBHOOK_SECRET is not set');
    const onError = vi.fn();
    const handler = createWebhookHandler({
      on: {},
      verify: () => {
        throw failure;
      },
      onError,
    });

    const response = await handler(createWebhookRequest());

    expect(response.status).toBe(401);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure, undefined);
  });

  it('answers 401 when it rejects', async () => {
    const handler = createWebhookHandler({ on: {}, verify: () => Promise.reject(new Error('no')), onError: () => {} });
    expect((await handler(createWebhookRequest())).status).toBe(401);
  });
});

describe('createWebhookHandler: 405 for anything but POST', () => {
  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'])('%s', async (method) => {
    const onBuildCompleted = vi.fn();
    const body = method === 'GET' || method === 'HEAD' ? null : createWebhookBody();
    const response = await createWebhookHandler({ on: { 'build.completed': onBuildCompleted } })(new Request(url, { method, body }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  it('says which method was refused', async () => {
    const response = await createWebhookHandler({ on: {} })(new Request(url));
    expect(await response.json()).toEqual({ error: 'Method GET not allowed; webhooks are delivered by POST' });
  });
});

describe('createWebhookHandler: 413 past maxBodyBytes', () => {
  it('answers 413 by Content-Length without reading the body', async () => {
    const { request, state } = chunkedBody(10, 100, { 'content-length': '1000' });

    const response = await createWebhookHandler({ on: {}, maxBodyBytes: 999 })(request);

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Webhook body is larger than 999 bytes' });
    expect(state.pulled).toBe(0);
  });

  it('stops reading and cancels the stream as soon as the count passes the limit', async () => {
    const { request, state } = chunkedBody(1000, 1024);

    const response = await createWebhookHandler({ on: {}, maxBodyBytes: 4096 })(request);

    expect(response.status).toBe(413);
    expect(state.cancelled).toBe(true);
    // The fifth chunk of 1 KiB passes 4 KiB: nothing after it is asked for.
    expect(state.pulled).toBe(5);
  });

  it('defaults to 1 MiB', async () => {
    const handler = createWebhookHandler({ on: {} });
    const justOver = new Uint8Array(1024 * 1024 + 1).fill(0x20);
    expect((await handler(post(justOver))).status).toBe(413);
  });

  it('does not call handlers or verify', async () => {
    const verify = vi.fn(() => true);
    const onBuildCompleted = vi.fn();
    const handler = createWebhookHandler({ on: { 'build.completed': onBuildCompleted }, verify, maxBodyBytes: 10 });
    expect((await handler(createWebhookRequest())).status).toBe(413);
    expect(verify).not.toHaveBeenCalled();
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  it('refuses a maxBodyBytes that is not a non-negative number, with a ValidationError naming the field', () => {
    for (const maxBodyBytes of [-1, Number.NaN]) {
      const error = thrownBy(() => createWebhookHandler({ on: {}, maxBodyBytes }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('maxBodyBytes');
      expect((error as Error).message).toMatch(/maxBodyBytes: must be a number of bytes >= 0/);
    }
  });
});

describe('createWebhookHandler: 500 when a handler throws, and the error is never swallowed', () => {
  it('answers 500 and gives the error and the event to onError', async () => {
    const failure = new Error('database down');
    const onError = vi.fn();
    const handler = createWebhookHandler({
      on: {
        'build.completed': () => {
          throw failure;
        },
      },
      onError,
    });

    const response = await handler(createWebhookRequest());

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Webhook handler failed' });
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure, createWebhookPayload());
  });

  it('does the same for a rejected promise from onUnknown', async () => {
    const failure = new Error('queue full');
    const onError = vi.fn<(error: unknown, event: WebhookEvent | undefined) => void>();
    const handler = createWebhookHandler({ on: {}, onUnknown: () => Promise.reject(failure), onError });

    const response = await handler(createWebhookRequest({ event: 'order.updated' }));

    expect(response.status).toBe(500);
    expect(onError.mock.calls[0]?.[0]).toBe(failure);
    expect(onError.mock.calls[0]?.[1]?.event).toBe('order.updated');
  });

  it('does not leak the error message into the response', async () => {
    const handler = createWebhookHandler({
      on: {
        'build.completed': () => {
          throw new Error('password=hunter2');
        },
      },
      onError: () => {},
    });
    expect(await (await handler(createWebhookRequest())).text()).not.toContain('hunter2');
  });

  it('logs with console.error when there is no onError', async () => {
    const failure = new Error('boom');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = createWebhookHandler({
      on: {
        'build.completed': () => {
          throw failure;
        },
      },
    });

    expect((await handler(createWebhookRequest())).status).toBe(500);
    expect(log).toHaveBeenCalledWith('workflow-automation-sdk: webhook handler for "build.completed" threw', failure);
  });

  it('logs a throwing verify with console.error when there is no onError', async () => {
    const failure = new Error('no secret');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = createWebhookHandler({
      on: {},
      verify: () => {
        throw failure;
      },
    });

    expect((await handler(createWebhookRequest())).status).toBe(401);
    expect(log).toHaveBeenCalledWith('workflow-automation-sdk: webhook verify threw', failure);
  });

  it('still answers 500, and logs both errors, when onError itself throws', async () => {
    const failure = new Error('handler');
    const hookFailure = new Error('hook');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = createWebhookHandler({
      on: {
        'build.completed': () => {
          throw failure;
        },
      },
      onError: () => {
        throw hookFailure;
      },
    });

    expect((await handler(createWebhookRequest())).status).toBe(500);
    expect(log).toHaveBeenCalledWith(expect.any(String), hookFailure, expect.any(String), failure);
  });
});

describe('time bounds', () => {
  const event = JSON.stringify({ event: 'build.completed', workflow_id: 'wf_1', data: { download_url: 'https://x.test/a.zip' } });
  const never = () => new Promise<void>(() => undefined);

  it('a handler past handlerTimeoutMs is answered 503, and onError gets a WfaError naming the bound', async () => {
    vi.useFakeTimers();
    try {
      const onError = vi.fn();
      const handler = createWebhookHandler({ on: { 'build.completed': never }, handlerTimeoutMs: 1_000, onError });
      const answer = handler(post(event));
      await vi.advanceTimersByTimeAsync(1_000);
      const response = await answer;
      expect(response.status).toBe(503);
      expect(onError).toHaveBeenCalledOnce();
      expect(WfaError.is(onError.mock.calls[0]?.[0])).toBe(true);
      expect(String(onError.mock.calls[0]?.[0])).toContain('did not settle within 1000 ms (handlerTimeoutMs)');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an onError that never settles delays the answer by handlerTimeoutMs at most', async () => {
    vi.useFakeTimers();
    try {
      const handler = createWebhookHandler({
        on: { 'build.completed': () => Promise.reject(new Error('db')) },
        onError: never,
        handlerTimeoutMs: 1_000,
      });
      const answer = handler(post(event));
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await answer).status).toBe(500);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a body past bodyTimeoutMs is answered 408 and its stream cancelled', async () => {
    vi.useFakeTimers();
    try {
      let cancelled = false;
      const stream = new ReadableStream<Uint8Array>({ pull: () => never(), cancel: () => void (cancelled = true) });
      const request = new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
      const answer = createWebhookHandler({ on: {}, bodyTimeoutMs: 2_000 })(request);
      await vi.advanceTimersByTimeAsync(2_000);
      expect((await answer).status).toBe(408);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  // setTimeout fires at once past 2**31 - 1 ms: a longer bound must still be one, waited in steps.
  it('a handlerTimeoutMs longer than a timer can hold is still a bound, and not a shorter one', async () => {
    fakeClockInThisTest();
    const handlerTimeoutMs = 3 * 2 ** 31;
    const answer = settle(
      createWebhookHandler({ on: { 'build.completed': never }, handlerTimeoutMs, onError: () => undefined })(post(event)),
    );
    expect(await answer).toMatchObject({ ok: true, value: { status: 503 }, elapsedMs: handlerTimeoutMs });
  });

  it('bodyTimeoutMs runs on the monotonic clock: a wall-clock jump forward cuts no body short', async () => {
    fakeClockInThisTest();
    const bytes = new TextEncoder().encode(event);
    const halves = [bytes.subarray(0, 10), bytes.subarray(10)];
    // Each half 500 ms apart: the body takes 1 s of the 2 s allowed, while the wall clock jumps an hour.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const half = halves.shift();
          if (half) controller.enqueue(half);
          else controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    const answer = settle(createWebhookHandler({ on: {}, bodyTimeoutMs: 2_000 })(request));
    await vi.advanceTimersByTimeAsync(500);
    vi.setSystemTime(Date.now() + 60 * 60_000);
    expect(await answer).toMatchObject({ ok: true, value: { status: 200 } });
  });

  it.each([0, -1, Number.NaN, '5' as unknown as number])('refuses bodyTimeoutMs and handlerTimeoutMs of %s', (value) => {
    for (const field of ['bodyTimeoutMs', 'handlerTimeoutMs', 'confirmTimeoutMs'] as const) {
      const error = thrownBy(() => createWebhookHandler({ on: {}, [field]: value }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
      expect((error as Error).message).toMatch(new RegExp(`${field}: must be a number of milliseconds > 0`));
    }
  });

  it('refuses every bad option the one way: a ValidationError naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ on: undefined }, 'on'],
      [{ on: { 'build.completed': 'not a function' } }, 'on'],
      [{ on: {}, verify: 'x' }, 'verify'],
      [{ on: {}, onError: 1 }, 'onError'],
      [{ on: {}, onUnknown: {} }, 'onUnknown'],
      [{ on: {}, dedupe: { store: memoryStore(), lockMs: 0 } }, 'dedupe.lockMs'],
      // Renewed every third of it: a reservation shorter than 100 ms cannot be renewed in time (the fourth attack).
      [{ on: {}, dedupe: { store: memoryStore(), lockMs: 10 } }, 'dedupe.lockMs'],
      [{ on: {}, dedupe: { store: memoryStore(), idHeaders: 'webhook-id' } }, 'dedupe.idHeaders'],
    ];
    for (const [options, field] of cases) {
      const error = thrownBy(() => createWebhookHandler(options as never));
      expect(error, field).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
      expect((error as Error).message).toMatch(/^Invalid options of createWebhookHandler: /);
    }
  });

  it('accepts undefined for every optional field, as exactOptionalPropertyTypes users pass it', async () => {
    const handler = createWebhookHandler({
      on: { 'build.completed': undefined },
      ...{ onUnknown: undefined, verify: undefined, onError: undefined, maxBodyBytes: undefined, bodyTimeoutMs: undefined },
      ...{ handlerTimeoutMs: undefined, confirm: undefined, unconfirmed: undefined, confirmTimeoutMs: undefined, dedupe: undefined },
    });
    expect((await handler(createWebhookRequest())).status).toBe(200);
  });
});

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
