/**
 * One schema for the client's options and one for a call's: the same bad value is the same ValidationError,
 * naming the same field, at both levels; every client option is checked when the client is made.
 */
import { describe, expect, it } from 'vitest';
import { Client, ValidationError, type ClientOptions } from '../../src/index.js';
import { checkRequestOptions } from '../../src/core/settings.js';
import { BASE_URL } from '../helpers/service.js';

const client = (options: ClientOptions) => new Client({ baseUrl: BASE_URL, apiKey: 'sk_test_key', ...options });

function refusal(make: () => unknown): ValidationError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

// Options a call and a client both take: [option, bad value, the message's rule].
const SHARED: [string, unknown, RegExp][] = [
  ['timeoutMs', 0, /> 0/],
  ['timeoutMs', -1, /> 0/],
  ['timeoutMs', Number.NaN, /> 0/],
  ['timeoutMs', '100', /> 0/],
  ['maxRetries', 1.5, /whole number from 0 to 10/],
  ['maxRetries', 11, /whole number from 0 to 10/],
  ['maxRetries', -1, /whole number from 0 to 10/],
  ['deadlineMs', 0, /> 0/],
  ['deadlineMs', Number.POSITIVE_INFINITY, /> 0/],
  ['headers', new Headers({ a: 'b' }), /plain object/],
  ['headers', 'x-a: b', /plain object/],
];

describe('options a client and a call share', () => {
  it.each(SHARED)('%s: %o is the same ValidationError at both levels', (option, value, rule) => {
    const atClient = refusal(() => client({ [option]: value }));
    const atCall = refusal(() => checkRequestOptions({ [option]: value }));
    expect(atClient.field).toBe(option);
    expect(atCall.field).toBe(option);
    expect(atClient.issues[0]!.message).toMatch(rule);
    expect(atCall.issues[0]!.message).toBe(atClient.issues[0]!.message);
  });

  it.each([
    ['a header name with a space', { 'x a': 'b' }, 'headers.x a', /not a valid header name/],
    ['a header value with a line break', { 'x-a': 'b\r\nx-evil: 1' }, 'headers.x-a', /line breaks/],
    ['a header value past U+00FF', { 'x-a': '€' }, 'headers.x-a', /U\+00FF/],
    ['a header value that is not a string', { 'x-a': 1 }, 'headers.x-a', /must be a string/],
  ])('headers: %s is named the same at both levels, its value never quoted', (_, headers, field, rule) => {
    for (const error of [
      refusal(() => client({ headers: headers as never })),
      refusal(() => checkRequestOptions({ headers: headers as never })),
    ]) {
      expect(error.field).toBe(field);
      expect(error.message).toMatch(rule);
      expect(error.message).not.toContain('x-evil');
    }
  });

  it('a fractional timeout is accepted at both levels, since a timer takes one', () => {
    expect(() => client({ timeoutMs: 1.5 })).not.toThrow();
    expect(() => checkRequestOptions({ timeoutMs: 1.5 })).not.toThrow();
  });

  it('a call signal that is not an AbortSignal is named', () => {
    expect(refusal(() => checkRequestOptions({ signal: 'soon' as never })).field).toBe('signal');
  });

  it('header names come back in lower case, a later name replacing an earlier one in another case', () => {
    expect(checkRequestOptions({ headers: { 'X-Tenant': 'a', 'x-tenant': 'b' } }).headers).toEqual({ 'x-tenant': 'b' });
  });
});

// Client-only options: [option, bad value, field named].
const CLIENT_ONLY: [string, unknown, string][] = [
  ['apiKey', 42, 'apiKey'],
  ['baseUrl', 42, 'baseUrl'],
  ['apiPrefix', 42, 'apiPrefix'],
  ['authPath', 42, 'authPath'],
  ['retry', { statuses: [200] }, 'retry.statuses'],
  ['retry', { baseDelayMs: -1 }, 'retry.baseDelayMs'],
  ['retry', { shouldRetry: 'yes' }, 'retry.shouldRetry'],
  ['retry', { retries: 3 }, 'retry.retries'],
  ['hooks', { beforeRequest: 'x' }, 'hooks.beforeRequest'],
  ['hooks', { beforeFetch: () => undefined }, 'hooks.beforeFetch'],
  ['fetch', 'fetch', 'fetch'],
  ['agent', {}, 'agent'],
  ['maxResponseBytes', 1.5, 'maxResponseBytes'],
  ['maxResponseBytes', 0, 'maxResponseBytes'],
  ['validateResponses', 'yes', 'validateResponses'],
  ['logger', 'console', 'logger'],
  ['logLevel', 'verbose', 'logLevel'],
  ['appInfo', { name: 'my app', version: '1' }, 'appInfo.name'],
  ['appInfo', { name: 'app', version: '1/2' }, 'appInfo.version'],
];

describe('options only a client takes', () => {
  it.each(CLIENT_ONLY)('%s: %o is a ValidationError naming %s', (option, value, field) => {
    expect(refusal(() => client({ [option]: value })).field).toBe(field);
  });

  it('an agent beside a fetch is named, since the fetch replaces the transport the agent is for', () => {
    const agent = { addRequest: () => undefined, destroy: () => undefined };
    expect(refusal(() => client({ agent, fetch: globalThis.fetch })).field).toBe('agent');
  });
});

describe('checkRequestOptions', () => {
  it('accepts what the types say', () => {
    expect(() =>
      checkRequestOptions({ signal: new AbortController().signal, timeoutMs: 10, maxRetries: 0, headers: { 'x-a': 'b' } }),
    ).not.toThrow();
  });

  it.each([
    ['a signal that is not one', { signal: 'soon' }, 'signal'],
    ['a negative timeout', { timeoutMs: -1 }, 'timeoutMs'],
    ['a fractional retry count', { maxRetries: 1.5 }, 'maxRetries'],
    ['a header value with a line break', { headers: { 'x-a': 'b\r\nx-evil: 1' } }, 'headers.x-a'],
    ['a header value past U+00FF', { headers: { 'x-a': '€' } }, 'headers.x-a'],
    ['a header name with a space', { headers: { 'x a': 'b' } }, 'headers.x a'],
  ])('refuses %s, naming it', (_, options, field) => {
    try {
      checkRequestOptions(options as never);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).field).toBe(field);
      expect((e as Error).message).not.toContain('x-evil');
    }
  });
});

describe('options that cannot be read', () => {
  /** An object whose `name` getter throws, as a Proxy or a class with a failing getter may. */
  const throwingAt = (name: string, base: object = {}) =>
    new Proxy(base, {
      get(target, key, receiver) {
        if (key === name) throw new Error('getter failed: sk_secret_in_getter');
        return Reflect.get(target, key, receiver);
      },
      ownKeys: (target) => [...Reflect.ownKeys(target), name],
      getOwnPropertyDescriptor: (target, key) =>
        key === name
          ? { configurable: true, enumerable: true, writable: true, value: undefined }
          : Reflect.getOwnPropertyDescriptor(target, key),
    });
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };

  const cases: [string, () => unknown, string][] = [
    ['hooks', () => throwingAt('onError'), 'hooks.onError'],
    ['hooks', revoked, 'hooks'],
    ['retry', () => throwingAt('statuses'), 'retry.statuses'],
    ['rateLimit', () => throwingAt('requestsPerSecond'), 'rateLimit.requestsPerSecond'],
    ['rateLimit', () => ({ store: throwingAt('book') }), 'rateLimit.store.book'],
    ['agent', () => throwingAt('addRequest'), 'agent.addRequest'],
    ['appInfo', () => throwingAt('name'), 'appInfo.name'],
    ['headers', revoked, 'headers'],
  ];
  it.each(cases.map(([option, , field]) => [option, field]))(
    'a %s whose reading throws is a ValidationError naming %s',
    (option, field) => {
      const value = cases.find(([o, , f]) => o === option && f === field)![1]();
      const error = refusal(() => client({ [option]: value } as ClientOptions));

      expect(error.field).toBe(field);
      expect(error.message).toContain('could not be read');
      expect(error.message).not.toContain('sk_secret_in_getter');
    },
  );

  it('a logger that cannot be read is an observer like any other: the client is made, and logging it fails is dropped', () => {
    expect(() => client({ logger: revoked() as never, logLevel: 'debug' })).not.toThrow();
  });

  it('client options whose own reading throws are a ValidationError, in new Client and withOptions', () => {
    expect(refusal(() => new Client(throwingAt('timeoutMs', { baseUrl: BASE_URL }) as ClientOptions)).field).toBe('timeoutMs');
    expect(refusal(() => new Client(revoked() as ClientOptions)).message).toContain('could not be read');
    expect(refusal(() => client({}).withOptions(throwingAt('maxRetries') as ClientOptions)).field).toBe('maxRetries');
  });

  it('login options whose reading throws are a ValidationError naming the field, before anything is sent', async () => {
    const error = await Client.login(throwingAt('password', { baseUrl: BASE_URL, email: 'a@example.com' }) as never).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('password');
  });

  it('call options whose reading throws are a ValidationError naming the field', () => {
    expect(refusal(() => checkRequestOptions(throwingAt('timeoutMs') as never)).field).toBe('timeoutMs');
    expect(refusal(() => checkRequestOptions({ headers: throwingAt('x-a') } as never)).field).toBe('headers.x-a');
  });

  /** A getter that answers once, then throws: what a vault-backed value that expires may do. */
  const once = (name: string, value: unknown, base: object = {}) => {
    let reads = 0;
    return Object.defineProperty({ ...base }, name, {
      enumerable: true,
      get() {
        if (++reads > 1) throw new Error('getter failed: sk_secret_in_getter');
        return value;
      },
    });
  };

  it('a nested object is read once: what was checked is what is used, in new Client, withOptions and a call', () => {
    expect(() => client({ headers: once('x-a', '1') })).not.toThrow();
    expect(() => client({ rateLimit: once('requestsPerSecond', 5) })).not.toThrow();
    expect(() => client({}).withOptions({ headers: once('x-a', '1') })).not.toThrow();
    expect(checkRequestOptions({ headers: once('x-a', '1') }).headers).toEqual({ 'x-a': '1' });
    // The client keeps its copy, which withOptions extends: the caller's object is not read again.
    const parent = new Client(once('timeoutMs', 5_000, { baseUrl: BASE_URL }) as ClientOptions);
    expect(() => parent.withOptions({ maxRetries: 1 })).not.toThrow();
  });

  it('headers that answer differently on a second read cannot slip a refused header past the check', async () => {
    let reads = 0;
    // Its names are `x-a` when first asked, `host` after.
    const shifting = () =>
      new Proxy({} as Record<string, string>, {
        ownKeys: () => (reads++ === 0 ? ['x-a'] : ['host']),
        getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true, writable: true, value: '127.0.0.1:1' }),
        get: () => '127.0.0.1:1',
      });

    expect(checkRequestOptions({ headers: shifting() }).headers).toEqual({ 'x-a': '127.0.0.1:1' });
    reads = 0;
    let sent: Headers | undefined;
    const fetch = async (_: unknown, init?: RequestInit) => {
      sent = new Headers(init?.headers);
      return new Response('{}');
    };
    await client({ headers: shifting(), fetch }).request({ method: 'GET', path: '/v1/x' });
    expect(sent?.get('x-a')).toBe('127.0.0.1:1');
    expect(sent?.has('host')).toBe(false);
  });
});
