import { revokedProxy } from '../helpers/hostile.js';
import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiKeyError,
  BadRequestError,
  Client,
  TimeoutError,
  WfaError,
  type ClientOptions,
  type Hooks,
} from '../../src/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { API_KEY, BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now' };
const client = (options: ClientOptions = {}) => new Client({ baseUrl: BASE, apiKey: API_KEY, apiPrefix: '/v1', ...options });

/** Every hook records what it was told, in order. */
function recording() {
  const seen: { hook: string; context: Record<string, unknown> }[] = [];
  const hook = (name: string) => (context: object) => void seen.push({ hook: name, context: { ...context } });
  const hooks: Hooks = {
    beforeRequest: hook('beforeRequest'),
    afterResponse: hook('afterResponse'),
    beforeRetry: hook('beforeRetry'),
    onSuccess: hook('onSuccess'),
    onError: hook('onError'),
  };
  return { seen, hooks, order: () => seen.map((s) => `${s.hook}:${s.context['attempt']}`) };
}

describe('hooks: order and context', () => {
  it('a success after two retries: every attempt, then onSuccess', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () =>
        ++n < 3 ? HttpResponse.json({ message: 'busy' }, { status: 503 }) : HttpResponse.json(workflow),
      ),
    );
    const { seen, hooks, order } = recording();
    const settled = await settle(client({ hooks }).workflows.get('wf_1'));
    expect(settled.ok).toBe(true);
    expect(order()).toEqual([
      'beforeRequest:1',
      'afterResponse:1',
      'beforeRetry:1',
      'beforeRequest:2',
      'afterResponse:2',
      'beforeRetry:2',
      'beforeRequest:3',
      'afterResponse:3',
      'onSuccess:3',
    ]);
    for (const { context } of seen) {
      expect(context).toMatchObject({
        method: 'GET',
        route: '/workflows/{id}',
        url: `${BASE}/v1/workflows/wf_1`,
        callId: seen[0]!.context['callId'],
      });
    }
    expect(seen.filter((s) => s.hook === 'afterResponse').map((s) => s.context['status'])).toEqual([503, 503, 200]);
    expect(seen[2]!.context).toMatchObject({ status: 503, error: undefined });
    expect(seen[2]!.context['delayMs']).toBeGreaterThan(0);
    const times = seen.map((s) => s.context['elapsedMs'] as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBe(settled.elapsedMs);
  });

  it('the /v1 fallback after a 404: two attempts, no retry, one onSuccess', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const { seen, hooks, order } = recording();
    await settle(client({ hooks, apiPrefix: 'auto' }).workflows.get('wf_1'));
    expect(order()).toEqual(['beforeRequest:1', 'afterResponse:1', 'beforeRequest:2', 'afterResponse:2', 'onSuccess:2']);
    expect(seen.map((s) => s.context['url'])).toEqual([
      `${BASE}/api/v1/workflows/wf_1`,
      `${BASE}/api/v1/workflows/wf_1`,
      `${BASE}/v1/workflows/wf_1`,
      `${BASE}/v1/workflows/wf_1`,
      `${BASE}/v1/workflows/wf_1`,
    ]);
    expect(seen[1]!.context['status']).toBe(404);
    expect(new Set(seen.map((s) => s.context['route']))).toEqual(new Set(['/workflows/{id}']));
  });

  it('a list page: the route is the collection, the URL has the query', async () => {
    server.use(http.get(`${BASE}/v1/workflows`, () => HttpResponse.json({ data: [workflow], has_more: false })));
    const { seen, hooks, order } = recording();
    const settled = await settle(Promise.resolve(client({ hooks }).workflows.list({ limit: 5 })));
    expect(settled.ok).toBe(true);
    expect(order()).toEqual(['beforeRequest:1', 'afterResponse:1', 'onSuccess:1']);
    expect(seen[0]!.context).toMatchObject({ route: '/workflows', url: `${BASE}/v1/workflows?limit=5` });
  });

  it('onError gets the error the call rejects with, once', async () => {
    const { seen, hooks } = recording();
    const settled = await settle(client({ hooks, maxRetries: 0 }).workflows.get('wf_missing'));
    expect(settled.ok).toBe(false);
    const errors = seen.filter((s) => s.hook === 'onError');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.context).toMatchObject({ status: 404, route: '/workflows/{id}' });
    expect(errors[0]!.context['error']).toBe((settled as { error: unknown }).error);
  });
});

describe('hooks: onSuccess and onError fail nothing else', () => {
  it('an onError that throws: the call rejects with its own error, and the throw is a warning', async () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (line: string) => lines.push(line), error: () => {} };
    const onError = () => {
      throw new TypeError('audit store down');
    };
    const settled = await settle(client({ hooks: { onError }, logger, logLevel: 'warn', maxRetries: 0 }).workflows.get('wf_missing'));
    expect((settled as { error: unknown }).error).toMatchObject({ name: 'NotFoundError', status: 404 });
    expect(lines).toEqual(["[wfa] hooks.onError threw (TypeError); the call's own error stands"]);
  });

  it('an onError that rejects: the same', async () => {
    const onError = () => Promise.reject(new Error('no'));
    const settled = await settle(client({ hooks: { onError }, maxRetries: 0 }).workflows.get('wf_missing'));
    expect((settled as { error: unknown }).error).toMatchObject({ name: 'NotFoundError' });
  });

  it('an onSuccess that throws fails the call, and onError hears that failure, once', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    const heard: unknown[] = [];
    const hooks: Hooks = {
      onSuccess: () => {
        throw new RangeError('span closed');
      },
      onError: ({ error }) => void heard.push(error),
    };
    const settled = await settle(client({ hooks }).workflows.get('wf_1'));
    const { error } = settled as { error: WfaError };
    expect(error.message).toContain('hooks.onSuccess threw (RangeError)');
    expect(heard).toEqual([error]);
  });
});

describe('hooks: headers', () => {
  it('a header added by beforeRequest reaches the service, on every attempt', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () => (++n < 2 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(workflow))),
    );
    let count = 0;
    const hooks: Hooks = { beforeRequest: ({ headers }) => headers.set('X-Trace', `t${++count}`) };
    await settle(client({ hooks }).workflows.get('wf_1'));
    expect(server.requests.map((r) => r.headers['x-trace'])).toEqual(['t1', 't2']);
    expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual([API_KEY, API_KEY]);
  });

  it('X-API-Key cannot be set or replaced by a hook, in any case', async () => {
    for (const name of ['x-api-key', 'X-Api-Key']) {
      const hooks: Hooks = { beforeRequest: ({ headers }) => headers.set(name, 'stolen') };
      const settled = await settle(client({ hooks }).workflows.get('wf_1'));
      const error = (settled as { error: WfaError }).error;
      expect(error).toBeInstanceOf(WfaError);
      expect(error.message).toMatch(/hooks\.beforeRequest/);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('hooks: a hook that throws fails the call, naming it, with no retry', () => {
  const cases: [keyof Hooks, 'throw' | 'reject' | 'throw a revoked Proxy' | 'reject with a revoked Proxy'][] = [
    ['beforeRequest', 'throw'],
    ['beforeRequest', 'throw a revoked Proxy'],
    ['afterResponse', 'reject with a revoked Proxy'],
    ['beforeRequest', 'reject'],
    ['afterResponse', 'throw'],
    ['afterResponse', 'reject'],
    ['beforeRetry', 'throw'],
    ['beforeRetry', 'reject'],
    ['onSuccess', 'throw'],
  ];
  for (const [name, how] of cases) {
    it(`${name} that ${how.replace(/^(throw|reject)/, '$1s')}`, async () => {
      // A 503 the SDK would retry, then a success: only the hook can stop the retry.
      let n = 0;
      server.use(
        http.get(`${BASE}/v1/workflows/wf_1`, () =>
          ++n < 2 && name !== 'onSuccess' ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(workflow),
        ),
      );
      const failure = how.endsWith('revoked Proxy') ? revokedProxy() : new TypeError('boom');
      const hook = how.startsWith('throw')
        ? () => {
            throw failure;
          }
        : () => Promise.reject(failure);
      const settled = await settle(client({ hooks: { [name]: hook } }).workflows.get('wf_1'));
      expect(settled.ok).toBe(false);
      const error = (settled as { error: WfaError }).error;
      expect(error.constructor).toBe(WfaError);
      expect(error.message).toContain(`hooks.${name}`);
      expect(name === 'beforeRequest' ? 0 : 1).toBe(server.requests.length);
    });
  }
});

describe('hooks: a hook that hangs keeps the call within its bounds', () => {
  const hang = () => new Promise<void>(() => undefined);
  const slow = () => server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => new HttpResponse(null, { status: 503 })));

  for (const name of ['beforeRequest', 'afterResponse', 'beforeRetry', 'onSuccess'] as const) {
    it(`${name} against deadlineMs: TimeoutError at the deadline`, async () => {
      if (name === 'onSuccess') server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
      else slow();
      const settled = await settle(client({ hooks: { [name]: hang } }).workflows.get('wf_1', { deadlineMs: 3_000 }));
      const error = (settled as { error: TimeoutError }).error;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.reason).toBe('deadline');
      expect(settled.elapsedMs).toBe(3_000);
    });
  }

  it('beforeRequest against the signal: AbortError', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    const settled = await settle(client({ hooks: { beforeRequest: hang } }).workflows.get('wf_1', { signal: controller.signal }));
    expect((settled as { error: unknown }).error).toBeInstanceOf(AbortError);
    expect(settled.elapsedMs).toBe(1_000);
  });

  it('onError that hangs: the call still ends with its own error at the deadline', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, async () => {
        await delay('infinite');
        return HttpResponse.json(workflow);
      }),
    );
    const settled = await settle(client({ hooks: { onError: hang } }).workflows.get('wf_1', { deadlineMs: 2_000 }));
    expect((settled as { error: TimeoutError }).error).toBeInstanceOf(TimeoutError);
    expect(settled.elapsedMs).toBe(2_000);
  });

  it('onError that hangs after the key function failed: the ApiKeyError stands after one timeoutMs', async () => {
    const failing = client({
      apiKey: () => {
        throw new Error('vault down');
      },
      timeoutMs: 300,
      hooks: { onError: hang },
    });
    const settled = await settle(failing.workflows.get('wf_1'));
    expect((settled as { error: WfaError }).error).toBeInstanceOf(ApiKeyError);
    expect(settled.elapsedMs).toBe(300);
  });

  it('onError that hangs after a 400: the BadRequestError stands after one timeoutMs, not at the far deadline', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json({ message: 'bad' }, { status: 400 })));
    const settled = await settle(client({ timeoutMs: 500, hooks: { onError: hang } }).workflows.get('wf_1'));
    expect((settled as { error: WfaError }).error).toBeInstanceOf(BadRequestError);
    expect(settled.elapsedMs).toBe(500);
  });
});

describe('hooks never see the API key', () => {
  const encodings = (key: string) => [
    key,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
    Buffer.from(key).toString('hex'),
    key.split('').reverse().join(''),
  ];

  it('in no context field, header view, URL or error, in any encoding', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () =>
        // The service echoes the key in a header: hooks still must not see it.
        ++n < 2
          ? new HttpResponse(null, { status: 503, headers: { 'x-echo': API_KEY } })
          : HttpResponse.json(workflow, { headers: { 'x-echo': API_KEY } }),
      ),
      http.get(`${BASE}/v1/workflows/wf_2`, () => HttpResponse.json({ message: `bad key ${API_KEY}` }, { status: 400 })),
    );
    const dumps: string[] = [];
    const dump = (context: object) => {
      const fields: Record<string, unknown> = {};
      for (const name of Object.keys(context)) {
        const value = (context as Record<string, unknown>)[name];
        if (value instanceof Headers) fields[name] = Object.fromEntries(value);
        else if (value instanceof Error) fields[name] = { ...value, message: value.message, cause: String(value.cause) };
        else if (name === 'headers') {
          // What a hook could try on the header setter.
          fields[name] = {
            keys: Object.keys(value as object),
            json: JSON.stringify(value),
            all: Object.getOwnPropertyNames(value as object),
          };
        } else fields[name] = value;
      }
      dumps.push(JSON.stringify(fields));
    };
    const hooks: Hooks = { beforeRequest: dump, afterResponse: dump, beforeRetry: dump, onSuccess: dump, onError: dump };
    const c = client({ hooks });
    await settle(c.workflows.get('wf_1'));
    await settle(c.workflows.get('wf_2'));
    // The key in the query of a raw call: removed from the URL hooks see.
    await settle(c.request({ method: 'GET', path: '/workflows/wf_1', query: { echo: API_KEY } }));
    expect(dumps.length).toBeGreaterThan(8);
    const all = dumps.join('\n');
    expect(all).toContain('/workflows');
    for (const form of encodings(API_KEY)) expect(all).not.toContain(form);
  });
});

describe('hooks option', () => {
  it('refuses a hook that is not a function, or an unknown hook, when the client is made', () => {
    expect(() => client({ hooks: { beforeRequest: 'x' as never } })).toThrow(/hooks\.beforeRequest: must be a function/);
    expect(() => client({ hooks: { beforeFetch: () => undefined } as never })).toThrow(/hooks\.beforeFetch: is not a known field/);
  });
});
