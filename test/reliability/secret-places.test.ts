/**
 * Secrets where the fourth outside look (issue 35) found them shown; the suite runs once per transport: a copy of
 * a credential field nested past the depth an error body shows; a header whose *name* is a secret; a `Content-Type`
 * carrying one, quoted by a `ResponseValidationError`; the client's own credential-named headers echoed as text.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, type ClientOptions, type Hooks } from '../../src/index.js';
import { type FaultServer, faults, startFaultServer } from './fault-server.js';
import { renderings } from './summary.js';

// Lower case, as a header name comes off the wire.
const API_KEY = 'wfa_live_headkey_4f9a8b7c6d5e';
const GATEWAY_TOKEN = 'gw_tok_ownheader_77aa88bb99';
const SAVED_KEY = 'shpat_savedinhead_0a1b2c3d4e';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const client = (options: ClientOptions = {}) =>
  new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, timeoutMs: 5_000, ...options });

/** Every rendering of what the call threw (or returned) that holds one of `secrets`, cut short for the failure message. */
async function shown(call: PromiseLike<unknown>, secrets: string[]): Promise<string[]> {
  const outcome = await Promise.resolve(call).then(
    (value) => value,
    (error: unknown) => error,
  );
  return renderings(outcome)
    .filter((text) => secrets.some((secret) => text.includes(secret)))
    .map((text) => text.slice(0, 200));
}

/** `{"a": {"a": … value}}`, `depth` objects deep. */
const nested = (depth: number, value: unknown): unknown => (depth === 0 ? value : { a: nested(depth - 1, value) });

describe('a credential field nested deeper than an error body is shown', () => {
  it.for([63, 64, 100, 2_000])('its copy in the message is hidden at depth %i', async (depth, { expect }) => {
    const token = 'tok_DeepCopy_7h3Secret';
    server.otherwise({ kind: 'json', status: 400, body: { error: { message: `token ${token} expired` }, x: nested(depth, { token }) } });
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BadRequestError' });
    expect(await shown(Promise.reject(error), [token])).toEqual([]);
  });
});

describe('a secret in the response head', () => {
  it('a Content-Type carrying the API key or a token= value is not quoted by a ResponseValidationError', async ({ expect }) => {
    server.otherwise({
      kind: 'raw',
      status: 200,
      body: 'not json',
      headers: { 'content-type': `text/plain; x=${API_KEY}; token=tok_ctype_5566778899` },
    });
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ResponseValidationError' });
    expect(String((error as Error).message)).toContain('content-type text/plain');
    expect(await shown(Promise.reject(error), [API_KEY, 'tok_ctype_5566778899'])).toEqual([]);
  });

  it('a saved integration key in the Content-Type of a non-JSON answer to integrations.save is not shown', async ({ expect }) => {
    server.otherwise({ kind: 'raw', status: 201, body: '<ok/>', headers: { 'content-type': `text/xml; k=${SAVED_KEY}` } });
    const call = client().integrations.save({ platform: 'shopify', api_key: SAVED_KEY, label: 'shop' });
    expect(await shown(call, [SAVED_KEY])).toEqual([]);
  });

  it("a header named as the key is left out of err.headers, afterResponse's responseHeaders and onError's error", async ({ expect }) => {
    server.otherwise({ kind: 'json', status: 400, body: { message: 'bad' }, headers: { [API_KEY]: '1', 'x-kept': 'yes' } });
    const seen: string[] = [];
    const hooks: Hooks = {
      afterResponse: ({ responseHeaders }) => void seen.push(JSON.stringify([...responseHeaders])),
      onError: ({ error }) => void seen.push(JSON.stringify(error)),
    };
    const error = await client({ hooks })
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BadRequestError', headers: { 'x-kept': 'yes' } });
    expect(await shown(Promise.reject(error), [API_KEY])).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => text.includes(API_KEY))).toEqual([]);
  });

  it("a header named as the key is left out of withResponse()'s headers", async ({ expect }) => {
    server.otherwise(faults.ok(undefined, 200, { [API_KEY]: '1' }));
    const { response } = await client().workflows.get('wf_1').withResponse();
    expect([...response.headers.keys()].filter((name) => name.includes(API_KEY))).toEqual([]);
  });

  it('a credential header a beforeRequest hook sets, echoed as free text, is hidden as one in headers is', async ({ expect }) => {
    server.otherwise((r) => ({
      kind: 'json',
      status: 400,
      body: { error: { message: `gateway said ${String(r.headers.authorization)}` } },
    }));
    const hooks: Hooks = { beforeRequest: ({ headers }) => headers.set('Authorization', `Bearer ${GATEWAY_TOKEN}`) };
    expect(await shown(client({ hooks }).workflows.get('wf_1'), [GATEWAY_TOKEN])).toEqual([]);
  });

  it('a credential the call sent in its query, echoed bare, is hidden as its named copy is', async ({ expect }) => {
    server.otherwise((r) => ({ kind: 'json', status: 400, body: { error: { message: `bad ${String(r.query.get('access_token'))}` } } }));
    const call = client().request({ method: 'GET', path: '/workflows', query: { access_token: GATEWAY_TOKEN } });
    expect(await shown(call, [GATEWAY_TOKEN])).toEqual([]);
  });

  it("the client's own credential-named header, echoed as free text, is hidden as the API key is", async ({ expect }) => {
    server.otherwise((r) => ({
      kind: 'json',
      status: 400,
      body: { message: `gateway said: ${String(r.headers['x-gateway-token'])} is odd` },
    }));
    const call = client({ headers: { 'X-Gateway-Token': GATEWAY_TOKEN } }).workflows.get('wf_1');
    expect(await shown(call, [GATEWAY_TOKEN])).toEqual([]);
  });
});
