import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortSource } from '../../src/core/timing.js';
import { asResponse, fetchTransport } from '../../src/core/transport.js';

const request = { method: 'GET', url: 'http://127.0.0.1:1/x', headers: { accept: 'application/json' }, body: undefined };

async function text(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  let out = '';
  const decoder = new TextDecoder();
  for await (const chunk of body ?? []) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}

describe('fetchTransport', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('looks up the global fetch at each call, and asks it not to follow redirects', async () => {
    const transport = fetchTransport();
    const patched = vi.fn(async (_url: string, _init?: RequestInit) => new Response('patched', { status: 201 }));
    vi.stubGlobal('fetch', patched);
    const response = await transport({ ...request, abort: new AbortSource() });
    expect(response.status).toBe(201);
    expect(await text(response.body)).toBe('patched');
    expect(patched.mock.calls[0]![1]).toMatchObject({ method: 'GET', redirect: 'manual', body: null });
  });

  it('uses the fetch it was given, and hands back the body as an async iterable', async () => {
    const given = vi.fn(async () => new Response('given', { headers: { 'x-a': '1' } }));
    const response = await fetchTransport(given)({ ...request, abort: new AbortSource() });
    expect(response.headers.get('x-a')).toBe('1');
    expect(await text(response.body)).toBe('given');
  });
});

describe('asResponse', () => {
  it('builds a Fetch Response whose body is read from the transport only when asked', async () => {
    let pulled = 0;
    async function* body() {
      pulled++;
      yield new TextEncoder().encode('{"a":1}');
    }
    const response = asResponse({ status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: body() });
    expect(pulled).toBe(0);
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('gives a 204 no body', () => {
    expect(asResponse({ status: 204, headers: new Headers(), body: null }).body).toBeNull();
  });
});
