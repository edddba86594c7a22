/**
 * Requests the SDK cannot send as the caller meant them are refused with a `ValidationError` that names what
 * is wrong, before anything reaches the server: a body JSON would silently change, a query value that is not
 * one, an id or URL too long to send, a `baseUrl` whose query or credentials a request would drop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BeforeRequestContext, Client, ValidationError } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { activeHandles, attacked, openHandlesSince, recordOpenHandles } from './summary.js';

const KEY = 'wfa_live_refused_Tb5nR8';
let server: FaultServer;
let client: Client;
let baseline: Map<string, number>;

beforeAll(async () => {
  baseline = activeHandles();
  server = await startFaultServer();
  client = new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1' });
});
afterAll(async () => {
  await server.close();
  recordOpenHandles('refused-requests.test.ts', await openHandlesSince(baseline));
});

/** Expects `call` to reject with a ValidationError naming `field`, in a short message, with nothing sent. */
async function refused(call: () => Promise<unknown>, field: string, words: string): Promise<void> {
  server.reset();
  const error = await call().then(
    () => 'resolved',
    (e: unknown) => e,
  );
  const ok =
    ValidationError.is(error) &&
    error.field === field &&
    error.message.includes(words) &&
    error.message.length < 500 &&
    server.received === 0;
  attacked('hostile requests refused before sending', ok);
  expect(ValidationError.is(error)).toBe(true);
  expect((error as ValidationError).field).toBe(field);
  expect((error as Error).message).toContain(words);
  expect((error as Error).message.length).toBeLessThan(500);
  expect(server.received).toBe(0);
}

describe('a request body that JSON would silently change', () => {
  const bodies: [string, unknown, string, string][] = [
    ['a ReadableStream', new ReadableStream(), '(root)', 'is a stream'],
    ['a Blob', new Blob(['x']), '(root)', 'is a Blob'],
    ['FormData', new FormData(), '(root)', 'is FormData'],
    ['URLSearchParams', new URLSearchParams('a=1'), '(root)', 'is URLSearchParams'],
    ['a Uint8Array inside an object', { data: new Uint8Array(4) }, 'data', 'is binary data'],
    ['a Map inside an object', { config: new Map([['a', 1]]) }, 'config', 'is a Map or Set'],
    ['a function inside an object', { name: 'x', onDone: () => undefined }, 'onDone', 'is a function'],
    ['a symbol inside an object', { name: Symbol('x') }, 'name', 'is a symbol'],
    ['a function', () => undefined, '(root)', 'is a function'],
  ];
  for (const [name, body, field, words] of bodies) {
    it(`${name} is refused`, () => refused(() => client.request({ method: 'POST', path: '/workflows', body }), field, words));
  }

  it('a Date, and an object with toJSON, are sent as JSON makes them', async () => {
    server.reset();
    await client.request({ method: 'POST', path: '/workflows', body: { at: new Date(0), money: { toJSON: () => '1.00' } } });
    expect(JSON.parse(server.log[0]!.body)).toEqual({ at: '1970-01-01T00:00:00.000Z', money: '1.00' });
  });
});

describe('a query value that is not one', () => {
  const queries: [string, Record<string, unknown>, string][] = [
    ['an object', { status: { a: 1 } }, 'status'],
    ['a symbol', { status: Symbol('s') }, 'status'],
    ['a function', { page: () => 1 }, 'page'],
    ['an array holding an object', { tag: ['a', { b: 1 }] }, 'tag'],
  ];
  for (const [name, query, field] of queries) {
    it(`${name} is refused, naming the parameter`, () =>
      refused(
        () => client.request({ method: 'GET', path: '/workflows', query: query as never }),
        field,
        'must be a string, number or boolean',
      ));
  }
});

describe('a request too long to send', () => {
  it('a 1 MB id is refused, naming the id, with a short message', () =>
    refused(() => client.workflows.get('w'.repeat(1_000_000)), 'id', 'ids are at most 1024'));

  it('a URL over 8192 characters (a long query value) is refused', () =>
    refused(
      () => client.request({ method: 'GET', path: '/workflows', query: { status: 'x'.repeat(10_000) } }),
      'url',
      'the SDK sends at most 8192',
    ));
});

describe('a baseUrl whose parts a request would drop', () => {
  for (const [name, suffix, words] of [
    ['a query', '/?tenant=1', 'must not contain a query'],
    ['a fragment', '/#top', 'must not contain a fragment'],
  ] as const) {
    it(`with ${name} is refused`, () => refused(async () => new Client({ baseUrl: server.url + suffix, apiKey: KEY }), 'baseUrl', words));
  }

  it('with user:password@ is refused, and the password is not in the message', async () => {
    const url = server.url.replace('http://', 'http://admin:s3cretPa55@');
    await refused(async () => new Client({ baseUrl: url, apiKey: KEY }), 'baseUrl', 'must not contain user:password@');
    const error = (() => {
      try {
        return new Client({ baseUrl: url, apiKey: KEY });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(String((error as Error).message)).not.toContain('s3cretPa55');
  });
});

describe('headers the transport owns (framing, the connection, the host)', () => {
  // What each transport does with them differs (node:http sends them and may hang; fetch refuses or drops them).
  const owned = ['Content-Length', 'transfer-encoding', 'connection', 'upgrade', 'keep-alive', 'expect', 'trailer', 'te', 'host'];
  for (const name of owned) {
    const field = `headers.${name}`;
    it(`${name} is refused in a call's headers`, () =>
      refused(() => client.workflows.get('wf_1', { headers: { [name]: '5' } }), field, 'set by the transport'));
    it(`${name} is refused in the client's headers, when the client is made`, () =>
      refused(async () => new Client({ baseUrl: server.url, apiKey: KEY, headers: { [name]: '5' } }), field, 'set by the transport'));
    it(`${name} is refused when a beforeRequest hook sets it, before the attempt: the hook's throw, a ValidationError naming it`, async () => {
      server.reset();
      const hooks = { beforeRequest: ({ headers }: BeforeRequestContext) => headers.set(name, '5') };
      const error = await new Client({ baseUrl: server.url, apiKey: KEY, apiPrefix: '/v1', hooks }).workflows
        .get('wf_1')
        .catch((e: unknown) => e);
      expect((error as Error).message).toContain('hooks.beforeRequest threw (ValidationError)');
      expect(((error as Error).cause as Error).name).toBe('ValidationError');
      expect(((error as Error).cause as Error).message).toContain(`${field}: is set by the transport`);
      expect(server.received).toBe(0);
    });
  }
});
