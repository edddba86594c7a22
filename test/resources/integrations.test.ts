/**
 * `client.integrations`: save, list and delete third-party platform keys, under both path prefixes. The key
 * sent with `save` is a secret: it never appears in an error, even when the service echoes it back.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  Client,
  ResponseValidationError,
  UnprocessableEntityError,
  ValidationError,
  type ApiPrefix,
  type IntegrationSaveParams,
} from '../../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from '../helpers/service.js';

const service = useService();

function makeClient(apiPrefix: ApiPrefix = '/api/v1', options: { validateResponses?: boolean } = {}) {
  return new Client({ apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix, maxRetries: 0, ...options });
}

/** A third-party key: must never be shown once sent. */
const PLATFORM_KEY = 'shpat_9d8e7f6a5b4c3d2e1f00';
const saveInput: IntegrationSaveParams = { platform: 'shopify', api_key: PLATFORM_KEY, label: 'Main store' };
/** The record as a service might return it: key masked, timestamps and other fields kept. */
const saved = { id: 'int_1', platform: 'shopify', label: 'Main store', api_key: 'shpat_****1f00', created_at: '2024-05-01T12:00:00Z' };

describe.each(PREFIXES)('client.integrations with apiPrefix %s', (prefix) => {
  describe('save', () => {
    it('sends POST <prefix>/integrations with platform, api_key and label as its JSON body and the X-API-Key header', async () => {
      service.reply('POST', `${prefix}/integrations`, 201, saved);

      await makeClient(prefix).integrations.save(saveInput);

      const sent = service.single();
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe(`${prefix}/integrations`);
      expect(sent.search).toBe('');
      expect(sent.headers['content-type']).toMatch(/^application\/json/);
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toEqual(saveInput);
    });

    it('resolves to the saved record with unknown fields kept', async () => {
      service.reply('POST', `${prefix}/integrations`, 201, saved);

      await expect(makeClient(prefix).integrations.save(saveInput)).resolves.toEqual(saved);
    });
  });

  describe('list', () => {
    it('sends GET <prefix>/integrations with page and limit in the query and the X-API-Key header', async () => {
      service.reply('GET', `${prefix}/integrations`, 200, { integrations: [saved], has_more: false });

      await makeClient(prefix).integrations.list({ page: 2, limit: 50 });

      const sent = service.single();
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe(`${prefix}/integrations`);
      expect(Object.fromEntries(sent.query)).toEqual({ page: '2', limit: '50' });
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('resolves to a page of saved integrations with unknown fields kept', async () => {
      service.reply('GET', `${prefix}/integrations`, 200, { integrations: [saved], has_more: false });

      const page = await makeClient(prefix).integrations.list();

      expect(page.items).toEqual([saved]);
    });
  });

  describe('delete', () => {
    it('sends DELETE <prefix>/integrations/{id} with the X-API-Key header and no body', async () => {
      service.reply('DELETE', `${prefix}/integrations/int_1`, 204);

      await makeClient(prefix).integrations.delete('int_1');

      const sent = service.single();
      expect(sent.method).toBe('DELETE');
      expect(sent.path).toBe(`${prefix}/integrations/int_1`);
      expect(sent.search).toBe('');
      expect(sent.headers['x-api-key']).toBe(API_KEY);
      expect(sent.body).toBeUndefined();
    });

    it('resolves to undefined for an empty 204', async () => {
      service.reply('DELETE', `${prefix}/integrations/int_1`, 204);

      await expect(makeClient(prefix).integrations.delete('int_1')).resolves.toBeUndefined();
    });

    it('resolves to the parsed body for a 200 with JSON', async () => {
      service.reply('DELETE', `${prefix}/integrations/int_1`, 200, { removed: 'int_1' });

      await expect(makeClient(prefix).integrations.delete('int_1')).resolves.toEqual({ removed: 'int_1' });
    });

    it('accepts a numeric id', async () => {
      service.reply('DELETE', `${prefix}/integrations/7`, 204);

      await makeClient(prefix).integrations.delete(7);

      expect(service.single().path).toBe(`${prefix}/integrations/7`);
    });
  });
});

describe('client.integrations input validation (rejects with ValidationError, sends nothing)', () => {
  it.each([
    ['an integration without api_key', { platform: 'shopify', label: 'Main store' }, 'api_key'],
    ['an empty api_key', { ...saveInput, api_key: '' }, 'api_key'],
    ['an integration without platform', { api_key: PLATFORM_KEY, label: 'Main store' }, 'platform'],
    ['a label that is not a string', { ...saveInput, label: 42 }, 'label'],
  ])('save refuses %s and names the field', async (_, input, field) => {
    const error = await rejectionOf(makeClient().integrations.save(input as IntegrationSaveParams), ValidationError);

    expect(error.field).toBe(field);
    expect(error.issues[0]?.path).toEqual([field]);
    expect(service.requests).toHaveLength(0);
  });

  it('save never quotes the key in a ValidationError', async () => {
    const error = await rejectionOf(makeClient().integrations.save({ api_key: PLATFORM_KEY } as IntegrationSaveParams), ValidationError);

    expect(`${error.message} ${JSON.stringify(error)} ${inspect(error, { depth: Infinity })}`).not.toContain(PLATFORM_KEY);
  });

  it.each([
    ['page 0', { page: 0 }, 'page'],
    ['limit 1.5', { limit: 1.5 }, 'limit'],
  ])('list refuses %s and names the field', async (_, params, field) => {
    const error = await rejectionOf(makeClient().integrations.list(params), ValidationError);

    expect(error.field).toBe(field);
    expect(service.requests).toHaveLength(0);
  });

  it('list refuses a parameter it does not take (status) and names it', async () => {
    const error = await rejectionOf(makeClient().integrations.list({ status: 'active' } as never), ValidationError);

    expect(error.message).toContain('status');
    expect(error.field).toBe('status');
    expect(service.requests).toHaveLength(0);
  });

  it.each(['.', '..', ''])('delete refuses the id %j', async (id) => {
    const error = await rejectionOf(makeClient().integrations.delete(id), ValidationError);

    expect(error.field).toBe('id');
    expect(service.requests).toHaveLength(0);
  });
});

describe('client.integrations ids', () => {
  it.each([
    ['a b', 'a%20b'],
    ['a;b=c', 'a%3Bb%3Dc'],
    ['%2F', '%252F'],
  ])('delete URL-encodes the id %j into one path segment (%s)', async (id, segment) => {
    service.reply('DELETE', '/api/v1/integrations/*', 204);

    await makeClient().integrations.delete(id);

    const sent = service.single();
    expect(sent.path).toBe(`/api/v1/integrations/${segment}`);
    expect(sent.search).toBe('');
  });
});

describe('client.integrations.save keeps the platform key secret', () => {
  /** A 400 whose body echoes the key in a message, a nested copy of the request and a property name. */
  const echoingBody = {
    error: { message: `Invalid api_key ${PLATFORM_KEY} for platform shopify` },
    received: { platform: 'shopify', api_key: PLATFORM_KEY, label: 'Main store' },
    [PLATFORM_KEY]: 'rejected',
  };

  async function rejectedSave(): Promise<BadRequestError> {
    service.reply('POST', '/api/v1/integrations', 400, echoingBody);
    return rejectionOf(makeClient().integrations.save(saveInput), BadRequestError);
  }

  const views: [string, (error: BadRequestError) => string][] = [
    ['message', (error) => error.message],
    ['body', (error) => JSON.stringify(error.body)],
    ['JSON.stringify', (error) => JSON.stringify(error)],
    ['util.inspect', (error) => inspect(error, { depth: Infinity })],
    ['String()', (error) => String(error)],
    ['stack', (error) => error.stack ?? ''],
  ];

  it.each(views)('a 400 that echoes the key never shows it in the error %s', async (_, view) => {
    const error = await rejectedSave();

    expect(view(error)).not.toContain(PLATFORM_KEY);
  });

  it('a 400 that echoes the key keeps the rest of the body and the message, with the key redacted', async () => {
    const error = await rejectedSave();

    expect(error.status).toBe(400);
    expect(error.body).toMatchObject({ received: { platform: 'shopify', label: 'Main store' } });
    expect(error.message).toContain('Invalid api_key');
  });

  it('a 422 whose header echoes the key never shows it in the error', async () => {
    service.reply('POST', '/api/v1/integrations', 422, { message: 'rejected' }, { 'x-debug-received-api-key': PLATFORM_KEY });

    const error = await rejectionOf(makeClient().integrations.save(saveInput), UnprocessableEntityError);

    expect(inspect(error, { depth: Infinity })).not.toContain(PLATFORM_KEY);
  });

  it('a 200 that is not a record and echoes the key gives a ResponseValidationError without it', async () => {
    service.reply('POST', '/api/v1/integrations', 200, `saved ${PLATFORM_KEY}`);

    const error = await rejectionOf(makeClient().integrations.save(saveInput), ResponseValidationError);

    expect(`${error.message} ${JSON.stringify(error)} ${inspect(error, { depth: Infinity })}`).not.toContain(PLATFORM_KEY);
  });
});

describe('client.integrations response validation', () => {
  it('rejects a saved record whose platform is not a string, carrying the raw body and the issue path', async () => {
    service.reply('POST', '/api/v1/integrations', 201, { id: 'int_1', platform: 5 });

    const error = await rejectionOf(makeClient().integrations.save(saveInput), ResponseValidationError);

    expect(error.body).toEqual({ id: 'int_1', platform: 5 });
    expect(error.issues.map((issue) => issue.path)).toEqual([['platform']]);
  });

  it('returns the body as received with validateResponses: false', async () => {
    service.reply('POST', '/api/v1/integrations', 201, { id: 'int_1', platform: 5 });

    await expect(makeClient('/api/v1', { validateResponses: false }).integrations.save(saveInput)).resolves.toEqual({
      id: 'int_1',
      platform: 5,
    });
  });
});
