/**
 * The Deployments guide's proxy recipe (`examples/docs/deployments-proxy.ts`) through a real tinyproxy on
 * 127.0.0.1, open and with `BasicAuth`: the key reaches the mock service behind it, and neither the key nor
 * the proxy's credentials appear in an error or a log line, whether the proxy answers 407 or is not there.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientBehindProxy, clientFromProxyEnv } from '../../examples/docs/deployments-proxy.js';
import { ConnectionError, type Client } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { freePort } from '../helpers/daemon.js';
import { captureLogger } from '../helpers/logger.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';

const USER = 'corp-user';
const PASSWORD = 'Pr0xy-S3cret-Passw0rd';

let service: MockServer;
let open: Tinyproxy;
let guarded: Tinyproxy;
beforeAll(async () => {
  [service, open, guarded] = await Promise.all([startMockServer(), startTinyproxy(), startTinyproxy({ user: USER, password: PASSWORD })]);
});
afterAll(async () => {
  await Promise.all([service?.close(), open?.stop(), guarded?.stop()]);
});

const withCredentials = (proxy: Tinyproxy, password: string) =>
  proxy.url.replace('http://', `http://${USER}:${encodeURIComponent(password)}@`);

/** A client behind `proxyUrl`, logging at debug into `lines`. */
function loggedClient(proxyUrl: string, options: { maxRetries?: number } = {}): { client: Client; lines: string[] } {
  const { lines, logger } = captureLogger();
  const client = clientBehindProxy(proxyUrl, {
    baseUrl: service.url,
    apiKey: service.apiKey,
    apiPrefix: '/v1',
    logger,
    logLevel: 'debug',
    ...options,
  });
  return { client, lines };
}

// Every form a credential could leak in: as is, as user:password, in Basic auth, percent-encoded.
function secretForms(): string[] {
  const pair = `${USER}:${PASSWORD}`;
  return [
    PASSWORD,
    pair,
    Buffer.from(pair).toString('base64'),
    Buffer.from(PASSWORD).toString('base64'),
    encodeURIComponent(pair),
    service.apiKey,
  ];
}

function expectNoSecret(text: string) {
  for (const secret of secretForms()) expect(text).not.toContain(secret);
}

async function smokeFlow(client: Client) {
  const created = await client.workflows.create({
    name: 'Via proxy',
    platform: 'make',
    trigger: { type: 'webhook' },
    actions: [{ app: 'gmail', action: 'send_email' }],
  });
  await expect(client.workflows.get(created.id)).resolves.toMatchObject({ name: 'Via proxy' });
  return created.id;
}

describe('through an open proxy', () => {
  it('the key reaches the service behind it, the calls pass through the proxy, and no log line holds the key', async () => {
    const { client, lines } = loggedClient(open.url);
    await smokeFlow(client);
    // undici tunnels with CONNECT, which tinyproxy logs with the target's port.
    expect(open.log()).toContain(`CONNECT ${new URL(service.url).host}`);
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret(lines.join('\n'));
  });

  it('HTTP_PROXY, when the user opts in with EnvHttpProxyAgent', async () => {
    vi.stubEnv('HTTP_PROXY', open.url);
    vi.stubEnv('NO_PROXY', '');
    const before = open.log().split('\n').length;
    await smokeFlow(clientFromProxyEnv({ baseUrl: service.url, apiKey: service.apiKey, apiPrefix: '/v1' }));
    expect(
      open
        .log()
        .split('\n')
        .slice(before - 1)
        .join('\n'),
    ).toContain(`CONNECT ${new URL(service.url).host}`);
  });
});

describe('through a proxy that needs Proxy-Authorization', () => {
  it('with the right credentials: the calls go through, and no log line holds them or the key', async () => {
    const { client, lines } = loggedClient(withCredentials(guarded, PASSWORD));
    await smokeFlow(client);
    expect(guarded.log()).toContain(`CONNECT ${new URL(service.url).host}`);
    expectNoSecret(lines.join('\n'));
  });

  it.each([
    ['refused with 407 (wrong password)', () => withCredentials(guarded, `${PASSWORD}-wrong`)],
    ['refused with 407 (no credentials)', () => guarded.url],
    ['unreachable', async () => `http://${USER}:${PASSWORD}@127.0.0.1:${await freePort()}`],
  ])('%s: a ConnectionError, after the retries, with no credential in it or in any log line', async (_what, proxyUrl) => {
    const { client, lines } = loggedClient(await proxyUrl(), { maxRetries: 1 });
    const error = await client.workflows.get('wf_1').catch((e: unknown) => e);
    expect(ConnectionError.is(error)).toBe(true);
    expect(lines.some((line) => /retr/i.test(line))).toBe(true);
    const shown = [
      String(error),
      (error as Error).stack,
      inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(error),
      ...lines,
    ];
    for (const text of shown) expectNoSecret(text ?? '');
  });
});
