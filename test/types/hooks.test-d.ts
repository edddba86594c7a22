import { describe, expectTypeOf, it } from 'vitest';
import {
  Client,
  type AfterResponseContext,
  type BeforeRequestContext,
  type ErrorContext,
  type HookHeaders,
  type Hooks,
  type WaitEvent,
  type WfaError,
} from '../../src/index.js';
import { otelHooks, type OtelHooksOptions } from '../../src/otel/index.js';
import type { Tracer } from '@opentelemetry/api';

describe('hooks types', () => {
  it('contexts carry the call, the attempt and their own fields', () => {
    new Client({
      hooks: {
        beforeRequest: (c) => {
          expectTypeOf(c).toEqualTypeOf<BeforeRequestContext>();
          expectTypeOf(c.route).toEqualTypeOf<string>();
          expectTypeOf(c.attempt).toEqualTypeOf<number>();
          expectTypeOf(c.elapsedMs).toEqualTypeOf<number>();
          c.headers.set('x-tenant', 'acme');
        },
        afterResponse: async (c) => {
          expectTypeOf(c).toEqualTypeOf<AfterResponseContext>();
          expectTypeOf(c.status).toEqualTypeOf<number>();
          expectTypeOf(c.responseHeaders).toEqualTypeOf<Headers>();
        },
        onError: (c) => {
          expectTypeOf(c.error).toEqualTypeOf<WfaError>();
        },
        onWait: (e) => {
          expectTypeOf(e.type).toEqualTypeOf<WaitEvent['type']>();
        },
      },
    });
  });

  it('headers can be added, never read', () => {
    expectTypeOf<HookHeaders>().toHaveProperty('set');
    expectTypeOf<HookHeaders>().not.toHaveProperty('get');
    expectTypeOf<keyof HookHeaders>().toEqualTypeOf<'set'>();
    // @ts-expect-error: no way to read a header, the key included
    ((c: BeforeRequestContext) => c.headers.get('x-api-key'))();
    // @ts-expect-error: no context field holds the key
    ((c: ErrorContext) => c.apiKey)();
  });

  it('hooks are single functions that may return a promise; nothing else', () => {
    expectTypeOf<NonNullable<Hooks['beforeRetry']>>().returns.toEqualTypeOf<void | PromiseLike<void>>();
    // @ts-expect-error: not an array
    new Client({ hooks: { beforeRequest: [() => undefined] } });
  });

  it('otelHooks takes an optional tracer and hooks, and returns hooks', () => {
    expectTypeOf(otelHooks).parameter(0).toEqualTypeOf<OtelHooksOptions | undefined>();
    expectTypeOf(otelHooks).returns.toEqualTypeOf<Hooks>();
    expectTypeOf<OtelHooksOptions['tracer']>().toEqualTypeOf<Tracer | undefined>();
    new Client({ hooks: otelHooks() });
  });
});
