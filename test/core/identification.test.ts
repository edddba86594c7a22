import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now' };
const API_KEY = 'k_identification_secret_42';
const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl: BASE, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, ...options });
const ok = () => server.use(http.get(`${BASE}/v1/workflows/:id`, () => HttpResponse.json(workflow)));

describe('User-Agent', () => {
  it("names the SDK at package.json's version, the runtime, the OS and the architecture", async () => {
    ok();
    await client().workflows.get('wf_1');
    expect(server.requests[0]?.headers['user-agent']).toBe(
      `workflow-automation-sdk/${version} (node ${process.versions.node}; ${process.platform}; ${process.arch})`,
    );
  });

  it('puts appInfo in front', async () => {
    ok();
    await client({ appInfo: { name: 'order-sync', version: '1.4.0' } }).workflows.get('wf_1');
    expect(server.requests[0]?.headers['user-agent']).toMatch(/^order-sync\/1\.4\.0 workflow-automation-sdk\//);
  });

  it('gives way to a User-Agent the caller sets', async () => {
    ok();
    await client({ headers: { 'User-Agent': 'mine/1' } }).workflows.get('wf_1');
    expect(server.requests[0]?.headers['user-agent']).toBe('mine/1');
  });

  it.each([[{ name: 'has space', version: '1' }], [{ name: 'x', version: '' }], [{ name: 'x' }], ['x']])(
    'rejects appInfo %j when the client is made',
    (appInfo) => {
      expect(() => client({ appInfo: appInfo as { name: string; version: string } })).toThrow(WfaError);
    },
  );

  it('is not sent where there is a document (a browser)', async () => {
    ok();
    vi.stubGlobal('document', {});
    try {
      await client({ appInfo: { name: 'app', version: '1' } }).workflows.get('wf_1');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(server.requests[0]?.headers['user-agent'] ?? '').not.toMatch(/workflow-automation-sdk|app\/1/);
  });
});

describe('WFA_LOG', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('logs to console at the level it names when no logger is given', async () => {
    vi.stubEnv('WFA_LOG', 'debug');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    ok();
    await client().workflows.get('wf_1');
    expect(debug.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/GET .*\/v1\/workflows\/wf_1/);
  });

  it('leaves a given logger alone', async () => {
    vi.stubEnv('WFA_LOG', 'debug');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    ok();
    await client({ logger: { error() {}, warn() {}, info() {}, debug() {} }, logLevel: 'error' }).workflows.get('wf_1');
    expect(debug).not.toHaveBeenCalled();
  });

  it('warns once about a value it does not know, without quoting it', () => {
    vi.stubEnv('WFA_LOG', API_KEY);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    client();
    client();
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines.filter((l) => l.includes('WFA_LOG'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(API_KEY);
  });
});

describe('Deprecation and Sunset', () => {
  const lines: string[] = [];
  const logger = { error: () => {}, warn: (m: string) => lines.push(m), info: () => {}, debug: () => {} };
  afterEach(() => {
    lines.length = 0;
  });

  it('are logged once per endpoint, at warn, without secrets', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/:id`, () =>
        HttpResponse.json(workflow, {
          headers: {
            deprecation: '@1767225600',
            sunset: 'Thu, 01 Jan 2027 00:00:00 GMT',
            link: `<${BASE}/docs?k=${API_KEY}>; rel="deprecation"`,
          },
        }),
      ),
      http.get(`${BASE}/v1/orders/:id`, () => HttpResponse.json({ id: 'ord_1', status: 'paid' }, { headers: { sunset: 'soon' } })),
    );
    const c = client({ logger, logLevel: 'warn' });
    await c.workflows.get('wf_1');
    await c.workflows.get('wf_2');
    await c.orders.get('ord_1');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/GET \/workflows\/\{id\} is deprecated.*deprecation: @1767225600; sunset: Thu, 01 Jan 2027/);
    expect(lines[1]).toMatch(/GET \/orders\/\{id\} is deprecated.*sunset: soon/);
    expect(lines.join('\n')).not.toContain(API_KEY);
  });

  it('say nothing when absent', async () => {
    ok();
    await client({ logger, logLevel: 'warn' }).workflows.get('wf_1');
    expect(lines).toHaveLength(0);
  });
});
