/**
 * Key issuing: `client.auth.issueKey` and `Client.login`. The call lives at `/v1/auth` whatever prefix the
 * resources use, needs no API key (and sends none), and never shows the response body in an error, since it
 * may hold a key.
 */
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { AuthenticationError, Client, ResponseValidationError, ValidationError, type ApiPrefix } from '../../src/index.js';
import { API_KEY, BASE_URL, PREFIXES, rejectionOf, useService } from '../helpers/service.js';

const service = useService();

const credentials = { email: 'demo@example.com', password: 'correct horse battery staple' };
const ISSUED_KEY = 'wfa_issued_key_0a1b2c3d4e5f';

function makeClient(apiPrefix: ApiPrefix | 'auto' = '/api/v1', apiKey: string | undefined = API_KEY) {
  return new Client({ apiKey, baseUrl: BASE_URL, apiPrefix, maxRetries: 0 });
}

describe.each(PREFIXES)('client.auth.issueKey with apiPrefix %s', (prefix) => {
  it('sends POST /v1/auth with the email and password as its JSON body', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: ISSUED_KEY });

    await makeClient(prefix).auth.issueKey(credentials);

    const sent = service.single();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/auth');
    expect(sent.search).toBe('');
    expect(sent.headers['content-type']).toMatch(/^application\/json/);
    expect(sent.body).toEqual(credentials);
  });

  it('sends no X-API-Key header, even from a client that holds a key', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: ISSUED_KEY });

    await makeClient(prefix, API_KEY).auth.issueKey(credentials);

    expect(service.single().headers).not.toHaveProperty('x-api-key');
  });

  it('works on a client without a key', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: ISSUED_KEY });

    await expect(makeClient(prefix, undefined).auth.issueKey(credentials)).resolves.toEqual({ apiKey: ISSUED_KEY });
  });
});

describe('client.auth.issueKey', () => {
  it('goes straight to /v1/auth with apiPrefix auto (never /api/v1/auth)', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: ISSUED_KEY });

    await makeClient('auto').auth.issueKey(credentials);

    expect(service.requests.map((r) => r.path)).toEqual(['/v1/auth']);
  });

  it.each([
    ['api_key', { api_key: ISSUED_KEY }],
    ['apiKey', { apiKey: ISSUED_KEY }],
    ['token', { token: ISSUED_KEY, token_type: 'api_key' }],
    ['data.api_key', { data: { api_key: ISSUED_KEY, created_at: '2024-05-01T12:00:00Z' } }],
  ])('finds the key under %s', async (_, body) => {
    service.reply('POST', '/v1/auth', 200, body);

    await expect(makeClient().auth.issueKey(credentials)).resolves.toEqual({ apiKey: ISSUED_KEY });
  });

  it('rejects with ResponseValidationError, the body hidden, when the response holds no key', async () => {
    const body = { message: 'ok', session: 'sess_secret_98765', user: { email: credentials.email } };
    service.reply('POST', '/v1/auth', 200, body);

    const error = await rejectionOf(makeClient().auth.issueKey(credentials), ResponseValidationError);

    expect(error.body).not.toEqual(body);
    expect(`${error.message} ${JSON.stringify(error)} ${inspect(error, { depth: Infinity })}`).not.toContain('sess_secret_98765');
  });

  it('rejects with ResponseValidationError, the body hidden, when the key is not a string', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: 12345678 });

    const error = await rejectionOf(makeClient().auth.issueKey(credentials), ResponseValidationError);

    expect(JSON.stringify(error)).not.toContain('12345678');
  });

  it('rejects wrong credentials with AuthenticationError that never shows the password, even when echoed', async () => {
    service.reply('POST', '/v1/auth', 401, { error: `bad password ${credentials.password}`, received: credentials });

    const error = await rejectionOf(makeClient().auth.issueKey(credentials), AuthenticationError);

    expect(`${error.message} ${JSON.stringify(error)} ${inspect(error, { depth: Infinity })}`).not.toContain(credentials.password);
  });

  it.each([
    ['without email', { password: 'pw' }, 'email'],
    ['with an email that is not an address', { email: 'demo', password: 'pw' }, 'email'],
    ['without password', { email: 'demo@example.com' }, 'password'],
    ['with an empty password', { email: 'demo@example.com', password: '' }, 'password'],
    ['with a field it does not know (a typo)', { email: 'demo@example.com', password: 'pw', pasword: 'pw' }, 'pasword'],
  ])('refuses credentials %s with ValidationError naming the field, sending nothing', async (_, input, field) => {
    const error = await rejectionOf(makeClient().auth.issueKey(input as typeof credentials), ValidationError);

    expect(error.field).toBe(field);
    expect(error.issues[0]?.path).toEqual([field]);
    expect(service.requests).toHaveLength(0);
  });

  it('never quotes the password in a ValidationError', async () => {
    const error = await rejectionOf(makeClient().auth.issueKey({ email: 'not-an-email', password: credentials.password }), ValidationError);

    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(credentials.password);
  });
});

describe.each(PREFIXES)('Client.login with apiPrefix %s', (prefix) => {
  it('returns a Client that sends the issued key on resource calls', async () => {
    service.reply('POST', '/v1/auth', 200, { api_key: ISSUED_KEY });
    service.reply('GET', `${prefix}/workflows`, 200, []);

    const client = await Client.login({ baseUrl: BASE_URL, apiPrefix: prefix, maxRetries: 0, ...credentials });
    await client.workflows.list();

    expect(client).toBeInstanceOf(Client);
    expect(service.requests.map((r) => `${r.method} ${r.path} ${r.headers['x-api-key'] ?? '(no key)'}`)).toEqual([
      'POST /v1/auth (no key)',
      `GET ${prefix}/workflows ${ISSUED_KEY}`,
    ]);
  });
});

describe('Client.login', () => {
  it('uses the issued key, not WFA_API_KEY, and sends no key to /v1/auth', async () => {
    vi.stubEnv('WFA_API_KEY', 'wfa_env_key_should_not_be_used');
    service.reply('POST', '/v1/auth', 200, { token: ISSUED_KEY });
    service.reply('GET', '/api/v1/builds/bld_1', 200, { status: 'building', progress: 1 });

    const client = await Client.login({ baseUrl: BASE_URL, apiPrefix: '/api/v1', maxRetries: 0, ...credentials });
    await client.builds.get('bld_1');

    expect(service.requests.map((r) => r.headers['x-api-key'])).toEqual([undefined, ISSUED_KEY]);
  });

  it('keeps the client options (baseUrl with a path) for the returned client', async () => {
    service.reply('POST', '/svc/v1/auth', 200, { api_key: ISSUED_KEY });
    service.reply('GET', '/svc/v1/orders/ord_1', 200, { id: 'ord_1' });

    const client = await Client.login({ baseUrl: `${BASE_URL}/svc/`, apiPrefix: '/v1', maxRetries: 0, ...credentials });
    await client.orders.get('ord_1');

    expect(service.requests.map((r) => r.path)).toEqual(['/svc/v1/auth', '/svc/v1/orders/ord_1']);
  });

  it('rejects with AuthenticationError on wrong credentials', async () => {
    service.reply('POST', '/v1/auth', 401, { error: 'invalid credentials' });

    await rejectionOf(Client.login({ baseUrl: BASE_URL, maxRetries: 0, ...credentials }), AuthenticationError);
    expect(service.requests).toHaveLength(1);
  });

  it('refuses credentials without email with ValidationError, sending nothing', async () => {
    const error = await rejectionOf(Client.login({ baseUrl: BASE_URL, password: 'pw' } as never), ValidationError);

    expect(error.field).toBe('email');
    expect(service.requests).toHaveLength(0);
  });
});
