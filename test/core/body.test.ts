import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { jsonBody, readText } from '../../src/core/body.js';
import { AttemptFailure } from '../../src/core/retry.js';
import { fromResponse } from '../../src/core/transport.js';

/** What the fetch transport hands the core for `response`. */
const read = (response: Response, limit: number, truncate: boolean) => readText(fromResponse(response), limit, truncate);

/** A response whose body arrives in `chunks`, with no declared length (chunked transfer) unless `headers` say one. */
function streamed(chunks: string[], status = 200, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else controller.close();
    },
  });
  return new Response(body, { status, headers });
}

describe('readText', () => {
  it('reads a declared-length body', async () => {
    expect(await read(new Response('{"a":1}', { headers: { 'content-length': '7' } }), 100, false)).toBe('{"a":1}');
  });

  it('reads a streamed body, multi-byte characters split across chunks included', async () => {
    const euro = '€';
    const bytes = new TextEncoder().encode(`x${euro}y`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 2));
        controller.enqueue(bytes.subarray(2));
        controller.close();
      },
    });
    expect(await read(new Response(body), 100, false)).toBe('x€y');
  });

  it('reads nothing for 204', async () => {
    expect(await read(new Response(null, { status: 204 }), 100, false)).toBe('');
  });

  it('refuses (undefined) a declared length past the limit without reading it', async () => {
    const response = new Response('x'.repeat(50), { headers: { 'content-length': '50' } });
    await expect(read(response, 10, false)).resolves.toBeUndefined();
  });

  it('stops reading a streamed body at the limit, and refuses it', async () => {
    await expect(read(streamed(['aaaa', 'bbbb', 'cccc']), 6, false)).resolves.toBeUndefined();
  });

  it('counts an encoded body as decoded: its Content-Length is the wire size, not a bound', async () => {
    // What fetch hands over for a gzip body: the decoded stream, with the encoded length still declared.
    const inflated = () => streamed(['aaaa', 'bbbb', 'cccc'], 200, { 'content-encoding': 'gzip', 'content-length': '5' });
    await expect(read(inflated(), 6, false)).resolves.toBeUndefined();
    expect(await read(inflated(), 6, true)).toBe('aaaabb');
    expect(await read(inflated(), 100, false)).toBe('aaaabbbbcccc');
  });

  it('cuts a truncated body at the last whole character, never half of one', async () => {
    // 'é' is two bytes: a limit of 4 falls inside the second one.
    expect(await read(streamed(['aé', 'é'], 500), 4, true)).toBe('aé');
    expect(await read(streamed(['aéé'], 500), 4, true)).toBe('aé');
  });

  it('keeps the head of a body past the limit when asked to truncate (error bodies)', async () => {
    expect(await read(streamed(['aaaa', 'bbbb', 'cccc'], 500), 6, true)).toBe('aaaabb');
  });

  it('reports a connection that fails mid-body as the AttemptFailure body-read', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"partial":'));
        controller.error(new TypeError('terminated'));
      },
    });
    const error = await read(new Response(body), 100, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AttemptFailure);
    expect((error as AttemptFailure).failure.kind).toBe('body-read');
  });
});

describe('jsonBody', () => {
  it('serialises a value, and leaves undefined as no body', () => {
    expect(jsonBody({ a: [1] })).toBe('{"a":[1]}');
    expect(jsonBody(undefined)).toBeUndefined();
  });

  it('refuses a BigInt or a cycle with a ValidationError, before anything is sent', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => jsonBody({ n: 1n })).toThrow(ValidationError);
    expect(() => jsonBody(cyclic)).toThrow(/circular reference/);
  });

  it('says a body nested too deeply for JSON is too deep, and how deep, not that it holds a BigInt', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20_000; i++) deep = { config: deep };
    const error = (() => {
      try {
        jsonBody({ actions: [deep] });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.message).toContain('nested 20003 levels deep');
    expect(error?.message).not.toContain('BigInt');
    expect(() => jsonBody({ n: 1n })).toThrow(/a BigInt/);
  });

  it.each([
    ['a stream', new ReadableStream(), '(root)'],
    ['a Map, nested', { config: new Map() }, 'config'],
    ['a function, nested', { a: 1, f: () => 1 }, 'f'],
    ['binary data, in an array', [new Uint8Array(1)], '0'],
  ])('refuses %s, which JSON would silently change, naming the key', (_, body, field) => {
    expect(() => jsonBody(body)).toThrow(ValidationError);
    try {
      jsonBody(body);
    } catch (error) {
      expect((error as ValidationError).field).toBe(field);
    }
  });

  it('sends a Date and anything with toJSON as JSON makes them', () => {
    expect(jsonBody({ at: new Date(0), n: { toJSON: () => 7 } })).toBe('{"at":"1970-01-01T00:00:00.000Z","n":7}');
  });
});
