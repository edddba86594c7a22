/**
 * Ids and query values that try to escape their endpoint (`../auth`, `%2F`, `?x=`, `#`, unicode, 1024
 * characters, CR LF) stay inside it: the server receives exactly the intended path, with the id as one
 * percent-encoded segment that decodes back to the id, and query values that parse back to what was given.
 * The raw request target is read off the wire by a real `node:http` server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, ValidationError, WfaError } from '../../src/index.js';
import { ENDPOINTS, type Endpoint } from '../../src/resources/endpoints.js';
import type { ModelName } from '../../src/resources/models.js';
import { faults, startFaultServer, workflowBody, type FaultServer, type LoggedRequest } from './fault-server.js';
import { activeHandles, count, openHandlesSince, recordOpenHandles } from './summary.js';

const API_KEY = 'wfa_live_escape_Hn3kLp0qRs';
let baseline: Map<string, number>;
let server: FaultServer;
let client: Client;

/** Answers whatever the SDK needs for a call to succeed, so every call reaches its end. */
function answer(r: LoggedRequest) {
  if (r.path.startsWith('/v1/builds/'))
    return faults.ok({ id: 'bld_x', status: 'completed', progress: 100, download_url: 'https://files.example.com/x.zip' });
  if (r.path.startsWith('/v1/orders/')) return faults.ok({ id: 'ord_x', status: 'paid' });
  if (r.method === 'DELETE') return faults.noContent();
  if (/^\/v1\/(workflows|orders|integrations)$/.test(r.path)) return faults.ok({ data: [], has_more: false });
  return faults.ok(workflowBody('wf_x'));
}

beforeAll(async () => {
  baseline = activeHandles();
  server = await startFaultServer({ otherwise: answer });
  client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
  recordOpenHandles('escaping.test.ts', await openHandlesSince(baseline));
});

// A body each id endpoint with one can be sent with: an endpoint added with another body model fails here first.
const SAMPLE_BODIES: Partial<Record<ModelName, unknown>> = { WorkflowUpdate: { name: 'x' } };
type Method = (id: string, body?: unknown) => Promise<unknown>;

/** Every method that puts a caller's id in a path (each endpoint of the table with `{id}`, and build waits), and the endpoint it must stay in. */
const ID_METHODS: [string, string, string, (id: string) => Promise<unknown>][] = [
  ...Object.entries(ENDPOINTS as Record<string, Endpoint>)
    .filter(([, endpoint]) => endpoint.path.includes('{id}'))
    .map(([name, { method, path, body }]): [string, string, string, (id: string) => Promise<unknown>] => {
      const [namespace = '', verb = ''] = name.split('.');
      if (body && !(body in SAMPLE_BODIES)) throw new Error(`${name}: add a sample ${body} to SAMPLE_BODIES`);
      const call = (id: string) =>
        (client as unknown as Record<string, Record<string, Method>>)[namespace]![verb]!(id, body && SAMPLE_BODIES[body]);
      return [name, method, `/v1${path.replace('{id}', '')}`, call];
    }),
  ['waitForBuild', 'GET', '/v1/builds/', (id) => client.waitForBuild(id, { intervalMs: 5, timeoutMs: 2_000 })],
];

/** Hostile ids and the exact path segment each must become. */
const HOSTILE_IDS: [string, string][] = [
  ['%2F', '%252F'],
  ['..%', '..%25'],
  ['ü', '%C3%BC'],
  ['日本語-🙂', '%E6%97%A5%E6%9C%AC%E8%AA%9E-%F0%9F%99%82'],
  [' spaced id ', '%20spaced%20id%20'],
  ['wf\r\nX-Injected: 1', 'wf%0D%0AX-Injected%3A%201'],
  ['\u0000', '%00'],
  ['a;b=c', 'a%3Bb%3Dc'],
  ['@evil.example', '%40evil.example'],
  ['http:evil.example', 'http%3Aevil.example'],
  ['a'.repeat(1_024), 'a'.repeat(1_024)],
  ['€'.repeat(800), '%E2%82%AC'.repeat(800)],
];

const label = (id: string) => (id.length > 40 ? `${JSON.stringify(id.slice(0, 3))}×${id.length}` : JSON.stringify(id));

describe('ids stay inside their endpoint', () => {
  for (const [name, method, endpoint, call] of ID_METHODS) {
    describe(name, () => {
      it.for(HOSTILE_IDS.map(([id, segment]) => [label(id), id, segment] as const))('%s', async ([, id, segment], { expect }) => {
        const before = server.log.length;
        await call(id);
        const received = server.log.slice(before);
        count('requests', received.length);
        expect(received.length).toBeGreaterThanOrEqual(1);
        for (const r of received) {
          expect(r.method).toBe(method);
          // The exact request target: the endpoint, one encoded segment, no query, no fragment.
          expect(r.rawUrl).toBe(`${endpoint}${segment}`);
          const parts = r.path.split('/');
          expect(parts).toHaveLength(endpoint.split('/').length);
          expect(decodeURIComponent(parts.at(-1)!)).toBe(id);
        }
      });
    });
  }

  it.for(['.', '..', '', '   '])('the id %j is refused before anything is sent', async (id, { expect }) => {
    const before = server.log.length;
    for (const [, , , call] of ID_METHODS) {
      const error = await call(id).catch((e: unknown) => e);
      expect(WfaError.is(error) && error.name).toBe('ValidationError');
    }
    expect(server.log.length).toBe(before);
  });

  // An id is one path segment: a dot segment (plain or percent-encoded) or a separator would be sent encoded
  // (`..%2F..%2Fadmin`), which gateways that decode before normalising resolve, as client.request refuses.
  it.for([
    '../../admin',
    '../auth',
    '..%2Fauth',
    '%2e%2e',
    '.%2E',
    'a/b',
    '\\..\\auth',
    'a\\b',
    '?x=',
    'wf_1?page=2&x=1',
    '#',
    'wf_1#frag',
    'http://evil.example/x',
    '//evil.example',
  ])('the id %j is refused with a ValidationError naming the id, before anything is sent', async (id, { expect }) => {
    const before = server.log.length;
    const outcomes: string[] = [];
    for (const [name, , , call] of ID_METHODS) {
      const error = await call(id).catch((e: unknown) => e);
      outcomes.push(`${name}: ${error instanceof ValidationError && error.field === 'id' ? 'refused' : String(error)}`);
    }
    expect(outcomes).toEqual(ID_METHODS.map(([name]) => `${name}: refused`));
    expect(server.log.length).toBe(before);
  });

  it('an id that is not well-formed unicode (a lone surrogate) is refused with ValidationError before anything is sent', async ({
    expect,
  }) => {
    const before = server.log.length;
    const outcomes: string[] = [];
    for (const [name, , , call] of ID_METHODS) {
      const error = await call('wf_\uD800').catch((e: unknown) => e);
      outcomes.push(`${name}: ${WfaError.is(error) ? error.name : `not an SDK error: ${String(error)}`}`);
    }
    expect(outcomes).toEqual(ID_METHODS.map(([name]) => `${name}: ValidationError`));
    expect(server.log.length).toBe(before);
  });

  it('property: any well-formed string id reaches exactly /v1/workflows/<that id, encoded>', async ({ expect }) => {
    const runs = 300;
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), async (id) => {
        fc.pre(id.trim() !== '' && id !== '.' && id !== '..' && !/[/\\?#]|%2e|%2f|%5c/i.test(id));
        const before = server.log.length;
        await client.workflows.get(id);
        const received = server.log.slice(before);
        expect(received).toHaveLength(1);
        const parts = received[0]!.rawUrl.split('/');
        expect(parts.slice(0, 3)).toEqual(['', 'v1', 'workflows']);
        expect(parts).toHaveLength(4);
        expect(decodeURIComponent(parts[3]!)).toBe(id);
      }),
      { numRuns: runs },
    );
    count('propertyRuns', runs);
    count('requests', runs);
  });
});

/** Hostile query values. */
const HOSTILE_VALUES = [
  '../auth',
  'a&page=9&limit=1',
  'x#y',
  '?x=',
  '%2F',
  'a=b',
  '+ plus +',
  'ü 日本 🙂',
  '\r\nX-Injected: 1',
  'a'.repeat(5_000),
];

describe('query values stay values', () => {
  it.for(HOSTILE_VALUES.map((v) => [label(v), v] as const))(
    'status %s: one `status` parameter with exactly that value, on the list endpoint',
    async ([, value], { expect }) => {
      const before = server.log.length;
      await client.workflows.list({ status: value, limit: 5 });
      await client.orders.list({ status: value });
      await client.request({ method: 'GET', path: '/workflows', query: { status: value } });
      const received = server.log.slice(before);
      count('requests', received.length);
      expect(received.map((r) => r.path)).toEqual(['/v1/workflows', '/v1/orders', '/v1/workflows']);
      for (const r of received) {
        expect(r.query.getAll('status')).toEqual([value]);
        expect(r.query.has('page')).toBe(false);
        expect(r.query.has('x')).toBe(false);
        // Nothing after a `#` is sent, and nothing in the value became a second parameter.
        expect(r.rawUrl).not.toContain('#');
      }
      expect(received[0]!.query.getAll('limit')).toEqual(['5']);
      expect([...received[1]!.query.keys()]).toEqual(['status']);
    },
  );

  it('property: any well-formed string value round-trips as one parameter', async ({ expect }) => {
    const runs = 200;
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), async (value) => {
        const before = server.log.length;
        await client.orders.list({ status: value });
        const [r] = server.log.slice(before);
        expect(r!.path).toBe('/v1/orders');
        expect([...r!.query.keys()]).toEqual(['status']);
        expect(r!.query.get('status')).toBe(value);
      }),
      { numRuns: runs },
    );
    count('propertyRuns', runs);
    count('requests', runs);
  });
});
