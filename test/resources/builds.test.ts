/**
 * `client.builds.get`: a build's state by its id (a workflow's `build_id`), under both path prefixes:
 * `building` with `progress`, `completed` with `download_url`, logs and unknown fields kept.
 */
import { describe, expect, it } from 'vitest';
import { Client, NotFoundError, ResponseValidationError, ValidationError, type ApiPrefix } from '../../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from '../helpers/service.js';

const service = useService();

function makeClient(apiPrefix: ApiPrefix = '/api/v1', options: { validateResponses?: boolean } = {}) {
  return new Client({ apiKey: API_KEY, baseUrl: BASE_URL, apiPrefix, maxRetries: 0, ...options });
}

const building = { id: 'bld_456', status: 'building', progress: 40, logs: ['compiling actions'] };
const completed = {
  id: 'bld_456',
  status: 'completed',
  download_url: 'https://cdn.example.com/builds/bld_456.zip',
  logs: [{ at: '2024-05-01T12:00:03Z', line: 'done' }],
  size_bytes: 10240,
};

describe.each(PREFIXES)('client.builds with apiPrefix %s', (prefix) => {
  it('sends GET <prefix>/builds/{id} with the X-API-Key header and no body', async () => {
    service.reply('GET', `${prefix}/builds/bld_456`, 200, building);

    await makeClient(prefix).builds.get('bld_456');

    const sent = service.single();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe(`${prefix}/builds/bld_456`);
    expect(sent.search).toBe('');
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.body).toBeUndefined();
  });

  it('resolves to a building build with its progress and logs', async () => {
    service.reply('GET', `${prefix}/builds/bld_456`, 200, building);

    await expect(makeClient(prefix).builds.get('bld_456')).resolves.toEqual(building);
  });

  it('resolves to a completed build with its download_url and unknown fields kept', async () => {
    service.reply('GET', `${prefix}/builds/bld_456`, 200, completed);

    await expect(makeClient(prefix).builds.get('bld_456')).resolves.toEqual(completed);
  });

  it('rejects with NotFoundError for a missing build', async () => {
    await rejectionOf(makeClient(prefix).builds.get('bld_missing'), NotFoundError);

    expect(service.requests).toHaveLength(1);
  });
});

describe('client.builds.get', () => {
  it('accepts a status it does not know', async () => {
    service.reply('GET', '/api/v1/builds/bld_456', 200, { status: 'queued' });

    await expect(makeClient().builds.get('bld_456')).resolves.toEqual({ status: 'queued' });
  });

  it.each([
    ['a b', 'a%20b'],
    ['a;b=c', 'a%3Bb%3Dc'],
    ['%2F', '%252F'],
  ])('URL-encodes the id %j into one path segment (%s)', async (id, segment) => {
    service.reply('GET', '/api/v1/builds/*', 200, building);

    await makeClient().builds.get(id);

    const sent = service.single();
    expect(sent.path).toBe(`/api/v1/builds/${segment}`);
    expect(sent.search).toBe('');
  });

  it.each(['.', '..', '', 'a/b', '?x', '#', '..%2Fx'])('refuses the id %j with ValidationError and sends nothing', async (id) => {
    const error = await rejectionOf(makeClient().builds.get(id), ValidationError);

    expect(error.field).toBe('id');
    expect(service.requests).toHaveLength(0);
  });

  it('rejects a build without a status with ResponseValidationError carrying the raw body and the issue path', async () => {
    service.reply('GET', '/api/v1/builds/bld_456', 200, { id: 'bld_456', progress: 10 });

    const error = await rejectionOf(makeClient().builds.get('bld_456'), ResponseValidationError);

    expect(error.body).toEqual({ id: 'bld_456', progress: 10 });
    expect(error.issues.map((issue) => issue.path)).toEqual([['status']]);
  });

  it.each([undefined, null, 'javascript:alert(1)', 'data:text/html,x'].flatMap((url) => [true, false].map((v) => [url, v] as const)))(
    'rejects a completed build whose download_url is %s, so that status === "completed" types it as a string (validateResponses: %s)',
    async (url, validateResponses) => {
      service.reply('GET', '/api/v1/builds/bld_456', 200, { ...completed, download_url: url });

      const error = await rejectionOf(makeClient('/api/v1', { validateResponses }).builds.get('bld_456'), ResponseValidationError);

      expect(error.issues).toEqual([
        expect.objectContaining({ path: ['download_url'], message: expect.stringMatching(/^must be an http\(s\) URL/) }),
      ]);
    },
  );

  it.each([true, false])(
    'holds a completed build to its download_url in any case of the status, as a wait does (validateResponses: %s)',
    async (validateResponses) => {
      service.reply('GET', '/api/v1/builds/bld_456', 200, { status: 'COMPLETED' });

      const error = await rejectionOf(makeClient('/api/v1', { validateResponses }).builds.get('bld_456'), ResponseValidationError);

      expect(error.issues.map((issue) => issue.path)).toEqual([['download_url']]);
    },
  );

  it('rejects a build whose progress is not a number', async () => {
    service.reply('GET', '/api/v1/builds/bld_456', 200, { status: 'building', progress: 'forty' });

    const error = await rejectionOf(makeClient().builds.get('bld_456'), ResponseValidationError);

    expect(error.issues.map((issue) => issue.path)).toEqual([['progress']]);
  });

  it('returns the body as received with validateResponses: false', async () => {
    service.reply('GET', '/api/v1/builds/bld_456', 200, { progress: 'forty' });

    await expect(makeClient('/api/v1', { validateResponses: false }).builds.get('bld_456')).resolves.toEqual({ progress: 'forty' });
  });
});
