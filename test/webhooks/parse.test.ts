import { describe, expect, it } from 'vitest';
import {
  WebhookParseError,
  WfaError,
  createWebhookBody,
  createWebhookPayload,
  createWebhookRequest,
  isKnownWebhookEvent,
  parseWebhookEvent,
  safeParseWebhookEvent,
} from '../../src/webhooks/index.js';

const valid = {
  event: 'build.completed',
  workflow_id: 'wf_1',
  data: { download_url: 'https://files.example.com/wf_1.zip' },
};
const validJson = JSON.stringify(valid);
const encoder = new TextEncoder();

/** Parses, expects a WebhookParseError, and returns it for assertions on message and path. */
function parseError(body: unknown, options?: { strict?: boolean }): WebhookParseError {
  try {
    parseWebhookEvent(body, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookParseError);
    return error as WebhookParseError;
  }
  throw new Error('expected parseWebhookEvent to throw');
}

describe('parseWebhookEvent: body forms', () => {
  it('reads a JSON string', () => {
    expect(parseWebhookEvent(validJson)).toEqual(valid);
  });

  it('reads UTF-8 bytes in a Uint8Array', () => {
    expect(parseWebhookEvent(encoder.encode(validJson))).toEqual(valid);
  });

  it("reads Node's Buffer", () => {
    expect(parseWebhookEvent(Buffer.from(validJson))).toEqual(valid);
  });

  it('reads an ArrayBuffer', () => {
    const bytes = encoder.encode(validJson);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(parseWebhookEvent(buffer)).toEqual(valid);
  });

  it('reads only the viewed part of a typed array over a larger buffer', () => {
    const padded = encoder.encode(`xxxx${validJson}yyyy`);
    expect(parseWebhookEvent(padded.subarray(4, padded.length - 4))).toEqual(valid);
  });

  it('reads a DataView', () => {
    const bytes = encoder.encode(validJson);
    expect(parseWebhookEvent(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength))).toEqual(valid);
  });

  it('accepts a value a framework already parsed', () => {
    expect(parseWebhookEvent(valid)).toEqual(valid);
  });

  it('ignores a UTF-8 byte order mark', () => {
    expect(parseWebhookEvent(new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(validJson)]))).toEqual(valid);
  });

  it('keeps non-ASCII text intact', () => {
    const body = { ...valid, data: { ...valid.data, note: 'café ✓ 日本' } };
    expect(parseWebhookEvent(encoder.encode(JSON.stringify(body))).data['note']).toBe('café ✓ 日本');
  });
});

describe('parseWebhookEvent: build.completed', () => {
  it('returns the event with its download URL', () => {
    const event = parseWebhookEvent(validJson);
    expect(event.event).toBe('build.completed');
    expect(event.workflow_id).toBe('wf_1');
    expect(event.data['download_url']).toBe('https://files.example.com/wf_1.zip');
  });

  it('accepts an http URL', () => {
    const body = { ...valid, data: { download_url: 'http://files.example.com/a.zip' } };
    expect(parseWebhookEvent(body)).toEqual(body);
  });

  it('keeps unknown top-level fields', () => {
    const body = { ...valid, delivery_id: 'd_1', created_at: '2024-01-01T00:00:00Z' };
    expect(parseWebhookEvent(JSON.stringify(body))).toEqual(body);
  });

  it('keeps unknown fields in data', () => {
    const body = { ...valid, data: { ...valid.data, size_bytes: 1234 } };
    expect(parseWebhookEvent(JSON.stringify(body)).data).toEqual(body.data);
  });

  it('is a known event', () => {
    expect(isKnownWebhookEvent(parseWebhookEvent(validJson))).toBe(true);
  });
});

describe('parseWebhookEvent: unknown event kinds', () => {
  const unknown = { event: 'order.updated', workflow_id: 'wf_1', data: { status: 'paid' }, extra: true };

  it('returns an event of an unknown kind as received', () => {
    expect(parseWebhookEvent(JSON.stringify(unknown))).toEqual(unknown);
  });

  it('does not check download_url on an unknown kind', () => {
    expect(parseWebhookEvent({ event: 'build.started', workflow_id: 'wf_1', data: {} }).data).toEqual({});
  });

  it('is not a known event', () => {
    expect(isKnownWebhookEvent(parseWebhookEvent(unknown))).toBe(false);
  });

  it('rejects an unknown kind in strict mode, naming it and the known kinds', () => {
    const error = parseError(unknown, { strict: true });
    expect(error.message).toBe('Unknown webhook event kind "order.updated" (strict mode accepts: build.completed)');
    expect(error.path).toBe('event');
  });

  it('accepts a known kind in strict mode', () => {
    expect(parseWebhookEvent(validJson, { strict: true })).toEqual(valid);
  });

  it('clips a very long unknown kind in the strict-mode message', () => {
    const error = parseError({ ...unknown, event: 'x'.repeat(5000) }, { strict: true });
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('parseWebhookEvent: malformed bodies say exactly what is wrong', () => {
  it.each([
    ['an empty string', '', 'Webhook body is empty'],
    ['whitespace only', '  \n ', 'Webhook body is empty'],
    ['no bytes', new Uint8Array(0), 'Webhook body is empty'],
    ['undefined', undefined, 'Webhook body is empty'],
    ['text that is not JSON', 'event=build.completed', 'Webhook body is not valid JSON'],
    ['truncated JSON', validJson.slice(0, -1), 'Webhook body is not valid JSON'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'Webhook body is not valid UTF-8'],
    ['a JSON array', '[1,2]', 'Webhook body must be a JSON object, got an array'],
    ['JSON null', 'null', 'Webhook body must be a JSON object, got null'],
    ['a JSON number', '42', 'Webhook body must be a JSON object, got a number'],
    ['a JSON string', '"hi"', 'Webhook body must be a JSON object, got a string'],
    ['a parsed boolean', true, 'Webhook body must be a JSON object, got a boolean'],
  ])('%s', (_name, body, message) => {
    const error = parseError(body);
    expect(error.message).toBe(message);
    expect(error.path).toBe('(root)');
  });

  it.each([
    ['`event` is missing', { workflow_id: 'wf_1', data: {} }, 'Webhook payload is missing `event`', 'event'],
    [
      '`event` is not a string',
      { event: 7, workflow_id: 'wf_1', data: {} },
      'Webhook payload field `event` must be a string, got a number',
      'event',
    ],
    [
      '`event` is null',
      { event: null, workflow_id: 'wf_1', data: {} },
      'Webhook payload field `event` must be a string, got null',
      'event',
    ],
    ['`event` is empty', { event: '', workflow_id: 'wf_1', data: {} }, 'Webhook payload field `event` must not be empty', 'event'],
    ['`workflow_id` is missing', { event: 'build.completed', data: valid.data }, 'Webhook payload is missing `workflow_id`', 'workflow_id'],
    [
      '`workflow_id` is not a string',
      { ...valid, workflow_id: 12 },
      'Webhook payload field `workflow_id` must be a string, got a number',
      'workflow_id',
    ],
    ['`data` is missing', { event: 'build.completed', workflow_id: 'wf_1' }, 'Webhook payload is missing `data`', 'data'],
    ['`data` is not an object', { ...valid, data: 'x' }, 'Webhook payload field `data` must be an object, got a string', 'data'],
    ['`data` is an array', { ...valid, data: [] }, 'Webhook payload field `data` must be an object, got an array', 'data'],
    ['`data` is null', { ...valid, data: null }, 'Webhook payload field `data` must be an object, got null', 'data'],
    ['`download_url` is missing', { ...valid, data: {} }, 'Webhook payload is missing `data.download_url`', 'data.download_url'],
    [
      '`download_url` is not a string',
      { ...valid, data: { download_url: 1 } },
      'Webhook payload field `data.download_url` must be a string, got a number',
      'data.download_url',
    ],
    [
      '`download_url` is not a URL',
      { ...valid, data: { download_url: 'not a url' } },
      'Webhook payload field `data.download_url` must be an http or https URL',
      'data.download_url',
    ],
    [
      '`download_url` is not http(s)',
      { ...valid, data: { download_url: 'ftp://files.example.com/a.zip' } },
      'Webhook payload field `data.download_url` must be an http or https URL',
      'data.download_url',
    ],
    [
      '`download_url` is a javascript: URL',
      { ...valid, data: { download_url: 'javascript:alert(1)' } },
      'Webhook payload field `data.download_url` must be an http or https URL',
      'data.download_url',
    ],
  ])('%s', (_name, body, message, path) => {
    const error = parseError(JSON.stringify(body));
    expect(error.message).toBe(message);
    expect(error.path).toBe(path);
  });

  it('checks the envelope of unknown kinds too', () => {
    expect(parseError({ event: 'order.updated', workflow_id: 'wf_1', data: 3 }).message).toBe(
      'Webhook payload field `data` must be an object, got a number',
    );
  });

  it('does not echo the body in the not-JSON message', () => {
    expect(parseError('{"secret": "s3cr3t"').message).not.toContain('s3cr3t');
  });

  it('throws an error that is also a WfaError', () => {
    expect(parseError('nope')).toBeInstanceOf(WfaError);
  });
});

describe('safeParseWebhookEvent', () => {
  it('returns the event on success', () => {
    expect(safeParseWebhookEvent(validJson)).toEqual({ success: true, event: valid });
  });

  it('returns the error instead of throwing', () => {
    const result = safeParseWebhookEvent('nope');
    expect(result.success).toBe(false);
    expect(!result.success && result.error).toBeInstanceOf(WebhookParseError);
    expect(!result.success && result.error.message).toBe('Webhook body is not valid JSON');
  });

  it('passes strict mode through', () => {
    const result = safeParseWebhookEvent({ event: 'order.updated', workflow_id: 'wf_1', data: {} }, { strict: true });
    expect(result.success).toBe(false);
  });
});

describe('test helpers: createWebhookPayload, createWebhookBody, createWebhookRequest', () => {
  it('builds a valid build.completed event by default', () => {
    const payload = createWebhookPayload();
    expect(payload).toEqual({
      event: 'build.completed',
      workflow_id: 'wf_test',
      data: { download_url: 'https://downloads.example.com/wf_test.zip' },
    });
    expect(parseWebhookEvent(payload, { strict: true })).toEqual(payload);
  });

  it('applies overrides, merges data into the default data, and adds extra fields', () => {
    expect(createWebhookPayload({ workflow_id: 'wf_2', data: { size: 3 }, delivery_id: 'd_1' })).toEqual({
      event: 'build.completed',
      workflow_id: 'wf_2',
      data: { download_url: 'https://downloads.example.com/wf_test.zip', size: 3 },
      delivery_id: 'd_1',
    });
  });

  it('builds an event of another kind without a download_url', () => {
    expect(createWebhookPayload({ event: 'order.updated', data: { status: 'paid' } })).toEqual({
      event: 'order.updated',
      workflow_id: 'wf_test',
      data: { status: 'paid' },
    });
  });

  it('gives the same payload as JSON text', () => {
    expect(JSON.parse(createWebhookBody({ workflow_id: 'wf_3' }))).toEqual(createWebhookPayload({ workflow_id: 'wf_3' }));
  });

  it('gives a POST Request with a JSON body and the headers asked for', async () => {
    const request = createWebhookRequest({ workflow_id: 'wf_4' }, { url: 'https://my.app/hooks', headers: { 'x-a': '1' } });
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://my.app/hooks');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('x-a')).toBe('1');
    expect(await request.json()).toEqual(createWebhookPayload({ workflow_id: 'wf_4' }));
  });
});
