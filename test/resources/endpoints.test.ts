/**
 * The endpoint table is the one list of endpoints: the client has a method for each, the mock serves each,
 * openapi.json describes each, and none of them has one the table lacks.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { Client, ValidationError } from '../../src/index.js';
import { ENDPOINTS, type Endpoint } from '../../src/resources/endpoints.js';
import { HANDLERS } from '../../src/testing/endpoints.js';
import { createMockService } from '../../src/testing/index.js';

const TABLE = Object.entries(ENDPOINTS as Record<string, Endpoint>);
// What a namespace has beside its endpoints: waits and downloads, made of several requests, and notify, of none.
const NOT_ENDPOINTS = [
  'workflows.createAndWait',
  'builds.wait',
  'builds.watch',
  'builds.download',
  'builds.downloadToFile',
  'builds.waitForAll',
  'builds.notify',
];

/** `GET /v1/workflows/{id}` with the id filled in. */
const where = (endpoint: Endpoint, prefix = '/v1') => `${endpoint.auth === false ? '' : prefix}${endpoint.path.replace('{id}', 'x_1')}`;

describe('the endpoint table', () => {
  test('names every single-request method of the client, and only methods it has', () => {
    const client = new Client({ baseUrl: 'http://127.0.0.1:9', apiKey: 'wfa_test_key' }) as unknown as Record<string, object>;
    const methods = ['workflows', 'orders', 'builds', 'integrations', 'auth'].flatMap((namespace) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[namespace]))
        .filter((name) => name !== 'constructor')
        .map((name) => `${namespace}.${name}`),
    );
    expect(methods.filter((name) => !NOT_ENDPOINTS.includes(name)).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  test('openapi.json has an operation for each endpoint under both prefixes (key issuing at its own path), and no other', () => {
    const document = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.mts'], { encoding: 'utf8' })) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const declared = TABLE.flatMap(([, endpoint]) =>
      endpoint.auth === false
        ? [`${endpoint.method} ${endpoint.path}`]
        : ['/api/v1', '/v1'].map((p) => `${endpoint.method} ${p}${endpoint.path}`),
    );
    expect(documented.sort()).toEqual(declared.sort());
  });

  test('the mock has a handler for each endpoint, and no other', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  test.each(TABLE)('the mock routes %s: past the path and method, to the key check or the body check', async (_, endpoint) => {
    const service = createMockService();
    const body = endpoint.body ? '{}' : undefined;
    const res = await service.handle(new Request(`http://mock.test${where(endpoint)}`, { method: endpoint.method, body }));
    // Key issuing needs no key, so its empty body is what is refused.
    expect(res.status).toBe(endpoint.auth === false ? 422 : 401);
    service.close();
  });

  test.each(TABLE)(
    'the mock has no endpoint two segments below %s, and another method on its path is 405 with the methods of the table',
    async (_, endpoint) => {
      const service = createMockService();
      const call = (path: string, method: string) => service.handle(new Request(`http://mock.test${path}`, { method }));
      expect((await call(`${where(endpoint)}/more/more`, endpoint.method)).status).toBe(404);
      const onPath = TABLE.filter(([, other]) => other.path === endpoint.path).map(([, other]) => other.method);
      const refused = await call(where(endpoint), 'PATCH');
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe(onPath.join(', '));
      service.close();
    },
  );
});

describe('a call whose options or params cannot be read', () => {
  /** Options whose `timeoutMs` getter throws, with a secret in its message. */
  const throwing = <T extends object>(base = {} as T): T =>
    Object.defineProperty({ ...base }, 'timeoutMs', {
      enumerable: true,
      get(): never {
        throw new Error('getter failed: sk_secret_in_getter');
      },
    });
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const setup = () => {
    const sent: string[] = [];
    const fetch = async (input: RequestInfo | URL) => {
      sent.push(String(input));
      return new Response('{}');
    };
    return { sent, client: new Client({ baseUrl: 'http://127.0.0.1:9', apiKey: 'wfa_test_key', fetch }) };
  };
  const refusal = async (promise: PromiseLike<unknown>) => {
    const error = await Promise.resolve(promise).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('could not be read');
    expect((error as ValidationError).message).not.toContain('sk_secret_in_getter');
    return error as ValidationError;
  };
  const SINGLE = TABLE.filter(([, endpoint]) => !endpoint.list);

  test.each(SINGLE)('%s: options with a throwing getter or a revoked Proxy are a ValidationError, nothing sent', async (name, endpoint) => {
    const { sent, client } = setup();
    const [namespace, method] = name.split('.') as [string, string];
    const args = [...(endpoint.path.includes('{id}') ? ['x_1'] : []), ...(endpoint.body ? [{}] : [])];
    const call = (options: unknown) =>
      (client as unknown as Record<string, Record<string, (...a: unknown[]) => PromiseLike<unknown>>>)[namespace]![method]!(
        ...args,
        options,
      );

    expect((await refusal(call(throwing()))).field).toBe('timeoutMs');
    await refusal(call(revoked()));
    expect(sent).toEqual([]);
  });

  test('createAndWait, a list given unreadable params, and request: a ValidationError naming the field, nothing sent', async () => {
    const { sent, client } = setup();
    const input = { name: 'n', platform: 'zapier', trigger: { type: 'webhook' }, actions: [{ type: 'noop' }] } as never;

    expect((await refusal(client.workflows.createAndWait(input, throwing()))).field).toBe('timeoutMs');
    expect((await refusal(client.workflows.list(throwing() as never))).field).toBe('timeoutMs');
    await refusal(client.workflows.list(revoked() as never));
    expect((await refusal(client.request(throwing({ method: 'GET', path: '/v1/x' })))).field).toBe('timeoutMs');
    await refusal(client.request(revoked() as never));
    await refusal(client.request({ method: 'GET', path: '/v1/x', query: revoked() as never }));
    expect(sent).toEqual([]);
  });
});
