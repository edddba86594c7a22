import { describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  WfaError,
} from '../../src/core/errors.js';
import { messageFromBody } from '../../src/core/api-error.js';
import { parseRetryAfter } from '../../src/core/retry-after.js';

const init = (status: number, body: unknown = { message: 'nope' }, headers: Record<string, string> = {}) => ({
  status,
  body,
  headers,
  method: 'GET',
  url: 'https://wfa.test/api/v1/workflows/wf_1?x=1',
});

describe('ApiError.from', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [599, InternalServerError],
  ])('maps status %i to its own class', (status, Class) => {
    const error = ApiError.from(init(status));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(WfaError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(Class.kind);
  });

  it('uses plain ApiError for statuses without a class of their own', () => {
    const error = ApiError.from(init(418));
    expect(error.constructor).toBe(ApiError);
    expect(NotFoundError.is(error)).toBe(false);
  });

  it.each([600, 799, 999])('gives a status past 599 (%i) a plain ApiError, not a 5xx one', (status) => {
    const error = ApiError.from(init(status, ''));
    expect(error.constructor).toBe(ApiError);
    expect(InternalServerError.is(error)).toBe(false);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`${status} HTTP Error (empty body) (GET /api/v1/workflows/wf_1?x=1)`);
  });

  it('writes name and message first in JSON.stringify, then its fields', () => {
    const error = ApiError.from(init(404, { message: 'Workflow not found' }, { 'x-request-id': 'req_9' }));
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(Object.keys(json).slice(0, 2)).toEqual(['name', 'message']);
    expect(json).toMatchObject({ name: 'NotFoundError', message: error.message, status: 404, requestId: 'req_9' });
    expect(json).toMatchObject({ body: { message: 'Workflow not found' }, url: 'https://wfa.test/api/v1/workflows/wf_1?x=1' });
  });

  it('carries status, body, headers, method, url and the request id', () => {
    const error = ApiError.from(init(404, { message: 'Workflow not found' }, { 'x-request-id': 'req_9' }));
    expect(error).toMatchObject({
      status: 404,
      body: { message: 'Workflow not found' },
      headers: { 'x-request-id': 'req_9' },
      requestId: 'req_9',
      method: 'GET',
      url: 'https://wfa.test/api/v1/workflows/wf_1?x=1',
    });
    expect(error.message).toBe('404 Workflow not found (GET /api/v1/workflows/wf_1?x=1, request id req_9)');
  });

  it('reads the request id from request-id too', () => {
    expect(ApiError.from(init(500, '', { 'request-id': 'r2' })).requestId).toBe('r2');
  });

  it('gives RateLimitError the wait the service asked for', () => {
    const error = ApiError.from(init(429, '', { 'retry-after': '3' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });
});

describe('ApiError.code', () => {
  const KEY = 'wfa_live_0123456789abcdef';
  /** What `workflows.get` throws when the service responds `status` with `body` as JSON. */
  const errorFor = (status: number, body: unknown) => {
    const fetch = async () => Response.json(body, { status });
    const client = new Client({ baseUrl: 'https://wfa.test', apiKey: KEY, apiPrefix: '/v1', maxRetries: 0, fetch });
    return client.workflows.get('wf_1').catch((e: unknown) => e);
  };

  it.each([
    [{ error: { code: 'validation_error', message: 'bad' } }, 'validation_error'],
    [{ code: 'rate_limited', message: 'slow down' }, 'rate_limited'],
    [{ error: { type: 'invalid_request_error', message: 'no' } }, 'invalid_request_error'],
    [{ error: { code: 'card_declined', type: 'card_error' }, code: 'outer' }, 'card_declined'],
    [{ error: { code: 42, type: 'api_error' } }, 'api_error'],
  ])('reads %j as %j', async (body, code) => {
    const error = await errorFor(400, body);
    expect(ApiError.is(error) && error.code).toBe(code);
  });

  it.each([[{ message: 'no code' }], ['plain text'], [{ error: 'a message, not a code' }], [{ code: 'two words' }], [null]])(
    'is undefined for %j',
    async (body) => {
      const error = await errorFor(500, body);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBeUndefined();
    },
  );

  it('never quotes the API key, even when the service echoes it as the code', async () => {
    const error = await errorFor(401, { error: { code: KEY } });
    expect(ApiError.is(error) && error.code).toBeUndefined();
    expect(JSON.stringify({ ...(error as object) })).not.toContain(KEY);
  });

  it("reads the mock service's error bodies", async () => {
    const service = createMockService();
    const client = new Client({
      baseUrl: 'http://mock.test',
      apiKey: service.apiKey,
      fetch: (input, init) => service.handle(new Request(input, init)),
    });
    const error = await client.workflows.get('wf_missing').catch((e: unknown) => e);
    expect(NotFoundError.is(error) && error.code).toBe('not_found');
  });
});

describe('messageFromBody', () => {
  it.each([
    [{ message: 'from message' }, 'from message'],
    [{ error: 'from error' }, 'from error'],
    [{ error: { message: 'from error.message', code: 'x' } }, 'from error.message'],
    [{ detail: 'from detail' }, 'from detail'],
    [{ detail: [{ msg: 'field required', loc: ['body', 'name'] }] }, 'field required'],
    [
      { detail: [{ msg: 'name required' }, 'a string entry', { message: 'from message' }, { code: 7 }] },
      'name required; a string entry; from message',
    ],
    [{ error_description: 'from error_description' }, 'from error_description'],
    [{ title: 'from title' }, 'from title'],
    [{ message: '  ', error: 'the first field with text wins' }, 'the first field with text wins'],
    ['plain text reason', 'plain text reason'],
  ])('reads %j', (body, expected) => {
    expect(messageFromBody(400, body)).toBe(expected);
  });

  it('says an empty body was empty, with the status text', () => {
    expect(messageFromBody(500, undefined)).toBe('Internal Server Error (empty body)');
    expect(messageFromBody(502, '')).toBe('Bad Gateway (empty body)');
  });

  it('summarises an HTML page by its title instead of dumping it', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
    expect(messageFromBody(502, html)).toBe('Bad Gateway (HTML page: 502 Bad Gateway)');
  });

  it('clips a very long text body to one readable line', () => {
    const message = messageFromBody(400, 'x'.repeat(5000));
    expect(message.length).toBeLessThanOrEqual(301);
  });

  it('falls back to the status text when no usual field holds a message', () => {
    expect(messageFromBody(409, { code: 17 })).toBe('Conflict');
    expect(messageFromBody(400, 42)).toBe('Bad Request');
    expect(messageFromBody(400, '   ')).toBe('Bad Request');
  });

  it('names a status without a text of its own by its class of status', () => {
    expect(messageFromBody(418, undefined)).toBe('HTTP Error (empty body)');
    expect(messageFromBody(501, undefined)).toBe('Internal Server Error (empty body)');
  });

  it('says an HTML page without a title is one', () => {
    expect(messageFromBody(503, '  <html><body>down</body></html>')).toBe('Service Unavailable (HTML page)');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter({ 'retry-after': '2' })).toBe(2000);
    expect(parseRetryAfter({ 'retry-after': '0.5' })).toBe(500);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
  });

  it('treats a date in the past as no wait', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }, now)).toBe(0);
  });

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
  });

  it('falls back to retry-after when retry-after-ms is blank or not a number', () => {
    expect(parseRetryAfter({ 'retry-after-ms': ' ', 'retry-after': '9' })).toBe(9000);
    expect(parseRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '9' })).toBe(9000);
    expect(parseRetryAfter({ 'retry-after-ms': ' ' })).toBeUndefined();
  });

  it('reads a Headers object as it is', () => {
    expect(parseRetryAfter(new Headers({ 'Retry-After': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });

  it('returns undefined for a missing or unreadable value', () => {
    expect(parseRetryAfter({})).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
  });

  it('reads a value that is neither whole seconds nor an HTTP date as absent, not as a past date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const value of ['1,5', '+2', '-1', '-0', '1e3', '0x10']) {
      expect(parseRetryAfter({ 'retry-after': value }, now), value).toBeUndefined();
    }
  });
});

describe('error guards', () => {
  it('is() narrows to the class and its subclasses only', () => {
    const timeout = new TimeoutError('slow', 10);
    expect(TimeoutError.is(timeout)).toBe(true);
    expect(ConnectionError.is(timeout)).toBe(true);
    expect(WfaError.is(timeout)).toBe(true);
    expect(ApiError.is(timeout)).toBe(false);
    expect(WfaError.is(new Error('x'))).toBe(false);
    expect(WfaError.is(null)).toBe(false);
    expect(WfaError.is('WfaError')).toBe(false);
  });

  it('recognises errors made by another copy of the module (ESM and CJS loaded together)', async () => {
    vi.resetModules();
    const specifier = new URL('../../src/core/errors.ts?copy=2', import.meta.url).href;
    const other = (await import(/* @vite-ignore */ specifier)) as typeof import('../../src/core/errors.js');
    const foreign = new other.NotFoundError(init(404));
    expect(other.NotFoundError).not.toBe(NotFoundError);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(NotFoundError.is(foreign)).toBe(true);
    expect(ApiError.is(foreign)).toBe(true);
    expect(foreign).not.toBeInstanceOf(RateLimitError);
    expect(new ValidationError('input', [])).toBeInstanceOf(other.WfaError);
  });

  it('keeps ordinary instanceof for a subclass a user writes', () => {
    class MyError extends NotFoundError {}
    expect(new MyError(init(404))).toBeInstanceOf(MyError);
    expect(ApiError.from(init(404))).not.toBeInstanceOf(MyError);
  });
});

describe('ValidationError', () => {
  it('names every bad field without quoting values', () => {
    const error = new ValidationError('input to workflows.create', [
      { path: ['name'], message: 'must not be empty', code: 'too_small' },
      { path: ['actions', 0, 'app'], message: 'must be lower case', code: 'invalid_format' },
    ]);
    expect(error.message).toBe('Invalid input to workflows.create: name: must not be empty; actions[0].app: must be lower case');
    expect(error.field).toBe('name');
  });
});
