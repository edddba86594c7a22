import { describe, expectTypeOf, it } from 'vitest';
import {
  createWebhookHandler,
  createWebhookPayload,
  isKnownWebhookEvent,
  parseWebhookEvent,
  safeParseWebhookEvent,
  type BuildCompletedEvent,
  type KnownWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookEvent,
  type WebhookEventHandlers,
  type WebhookParseError,
} from '../../src/webhooks/index.js';

declare const body: string;

describe('parseWebhookEvent types', () => {
  it('returns a WebhookEvent', () => {
    expectTypeOf(parseWebhookEvent(body)).toEqualTypeOf<WebhookEvent>();
  });

  it('narrows on event === "build.completed" to a string download_url', () => {
    const event = parseWebhookEvent(body);
    if (event.event === 'build.completed') {
      expectTypeOf(event).toEqualTypeOf<BuildCompletedEvent>();
      expectTypeOf(event.data.download_url).toEqualTypeOf<string>();
      expectTypeOf(event.workflow_id).toEqualTypeOf<string>();
    }
  });

  it('narrows in a switch too', () => {
    const event = parseWebhookEvent(body);
    switch (event.event) {
      case 'build.completed':
        expectTypeOf(event.data.download_url).toEqualTypeOf<string>();
        break;
      default:
        expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
    }
  });

  it('types the data of an unknown kind as unknown fields', () => {
    const event = parseWebhookEvent(body);
    if (event.event !== 'build.completed') {
      expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(event.data['download_url']).toEqualTypeOf<unknown>();
      expectTypeOf(event).toExtend<UnknownWebhookEvent>();
    }
  });

  it('keeps extra top-level fields readable, as unknown', () => {
    expectTypeOf(parseWebhookEvent(body)['delivery_id']).toEqualTypeOf<unknown>();
  });

  it('gives an event kind that widens to string', () => {
    expectTypeOf(parseWebhookEvent(body).event).toExtend<string>();
  });

  it('asks for the kind to be widened before comparing it with a kind the SDK does not know', () => {
    const event = parseWebhookEvent(body);
    // @ts-expect-error: the price of narrowing on 'build.completed' (see UnknownEventKind)
    expectTypeOf(event.event === 'order.updated').toEqualTypeOf<boolean>();
    const kind: string = event.event;
    expectTypeOf(kind === 'order.updated').toEqualTypeOf<boolean>();
  });

  it('returns only known events in strict mode', () => {
    expectTypeOf(parseWebhookEvent(body, { strict: true })).toEqualTypeOf<KnownWebhookEvent>();
    expectTypeOf(parseWebhookEvent(body, { strict: true }).data.download_url).toEqualTypeOf<string>();
  });

  it('accepts strings, bytes and parsed values', () => {
    expectTypeOf(parseWebhookEvent).toBeCallableWith(new Uint8Array());
    expectTypeOf(parseWebhookEvent).toBeCallableWith(new ArrayBuffer(0));
    expectTypeOf(parseWebhookEvent).toBeCallableWith({ event: 'build.completed' });
  });

  it('narrows with isKnownWebhookEvent', () => {
    const event = parseWebhookEvent(body);
    if (isKnownWebhookEvent(event)) expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent>();
  });
});

describe('safeParseWebhookEvent types', () => {
  it('is a result discriminated on success', () => {
    const result = safeParseWebhookEvent(body);
    if (result.success) expectTypeOf(result.event).toEqualTypeOf<WebhookEvent>();
    else expectTypeOf(result.error).toEqualTypeOf<WebhookParseError>();
  });

  it('returns only known events in strict mode', () => {
    const result = safeParseWebhookEvent(body, { strict: true });
    if (result.success) expectTypeOf(result.event).toEqualTypeOf<KnownWebhookEvent>();
  });
});

describe('createWebhookHandler types', () => {
  it('gives each handler its narrowed event, and onUnknown an event with a plain string kind', () => {
    createWebhookHandler({
      on: {
        'build.completed': (event, request) => {
          expectTypeOf(event).toEqualTypeOf<BuildCompletedEvent>();
          expectTypeOf(event.data.download_url).toEqualTypeOf<string>();
          expectTypeOf(request).toEqualTypeOf<Request>();
        },
      },
      onUnknown: (event) => {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
        expectTypeOf(event.event).toEqualTypeOf<string>();
      },
      onError: (error, event) => {
        expectTypeOf(error).toEqualTypeOf<unknown>();
        expectTypeOf(event).toEqualTypeOf<WebhookEvent | undefined>();
      },
    });
  });

  it('accepts an async verify over the raw bytes', () => {
    createWebhookHandler({ on: {}, verify: async (rawBody, headers) => rawBody.byteLength > 0 && headers.has('x') });
  });

  it('accepts handlers that return any value or promise, as a database call does', () => {
    const db = { markReady: (_id: string, _url: string): Promise<number> => Promise.resolve(1) };
    createWebhookHandler({
      on: { 'build.completed': (e) => db.markReady(e.workflow_id, e.data.download_url) },
      onUnknown: (event) => event.data['count'],
      onError: () => Promise.resolve('reported'),
    });
    createWebhookHandler({ on: { 'build.completed': () => 42 } });
    expectTypeOf<NonNullable<WebhookEventHandlers['build.completed']>>().returns.toEqualTypeOf<unknown>();
  });

  it('rejects a handler for a kind the SDK does not know', () => {
    // @ts-expect-error: unknown kinds go to onUnknown
    createWebhookHandler({ on: { 'order.updated': () => {} } });
  });

  it('returns a Fetch-style handler', () => {
    expectTypeOf(createWebhookHandler({ on: {} })).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });
});

describe('createWebhookPayload types', () => {
  it('builds a build.completed event by default, and an unknown event for another kind', () => {
    expectTypeOf(createWebhookPayload()).toEqualTypeOf<BuildCompletedEvent>();
    expectTypeOf(createWebhookPayload({ event: 'order.updated' })).toEqualTypeOf<UnknownWebhookEvent>();
  });
});
