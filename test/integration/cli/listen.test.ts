/**
 * `wfa listen` as a real process against the mock service over real sockets: it forwards exactly one signed
 * delivery per completed build, the same body the service itself sends, to a receiver that verifies it, and
 * stops cleanly on SIGINT (130) or SIGTERM (143).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type TestContext } from 'vitest';
import { Client } from '../../../src/index.js';
import { createMockService, startMockServer, type MockService } from '../../../src/testing/index.js';
import { createWebhookHandler, hmacSha256, standardWebhooks, type WebhookSignaturePreset } from '../../../src/webhooks/index.js';
import { startCli } from '../../cli/process.js';

const SW_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const HMAC_SECRET = 'listen-hmac-secret-93b1d0';
const INPUT = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

/** The mock on 127.0.0.1, counting the workflow lists and reads it answers (each is one poll round of `wfa listen`). */
async function countingMock(context: Pick<TestContext, 'onTestFinished'>, webhookUrl?: string) {
  const service = createMockService({ buildDurationMs: 300, webhookUrl });
  let polls = 0;
  const counted: MockService = {
    ...service,
    handle(request) {
      if (request.method === 'GET' && /\/workflows(\/wf_[^/]+)?$/.test(new URL(request.url).pathname)) polls += 1;
      return service.handle(request);
    },
  };
  const server = await startMockServer({ service: counted });
  context.onTestFinished(async () => {
    await server.close();
    service.close();
  });
  return { server, service, polls: () => polls, client: new Client({ baseUrl: server.url, apiKey: server.apiKey }) };
}

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A receiver on 127.0.0.1: `/webhooks` verifies with `verify` through the SDK's handler (and records only what
 * it accepted, in `handled`); `/from-service` records what the mock service sends by itself.
 */
async function receiver(context: Pick<TestContext, 'onTestFinished'>, verify: WebhookSignaturePreset) {
  const handled: Received[] = [];
  const fromService: Received[] = [];
  const answered: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const received = { path: req.url ?? '', headers: req.headers, body };
      if (req.url !== '/webhooks') {
        fromService.push(received);
        res.end('{}');
        return;
      }
      // The SDK's Fetch handler on the bytes received, so the test keeps the exact body to compare.
      const handler = createWebhookHandler({ verify, on: { 'build.completed': () => void handled.push(received) } });
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers, body }));
      answered.push(response.status);
      res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  context.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, handled, fromService, answered };
}

/** Polls `condition` every 50 ms, at most `ms`: the bound that keeps a broken `wfa listen` from hanging the test. */
async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  for (const started = Date.now(); !condition(); ) {
    if (Date.now() - started > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { build_id: string; status: number; payload: { workflow_id: string } });

test('forwards each completed build of workflows created after it started once, signed (Standard Webhooks), and stops on SIGINT', async ({
  onTestFinished,
}) => {
  const rx = await receiver({ onTestFinished }, standardWebhooks({ secret: SW_SECRET }));
  const mock = await countingMock({ onTestFinished }, `${rx.origin}/from-service`);
  const before = await mock.client.workflows.create(INPUT); // exists before: not followed

  const running = startCli(['listen', '--forward-to', `${rx.origin}/webhooks`, '--interval', '100ms', '--sign', 'standard-webhooks'], {
    env: { WFA_BASE_URL: mock.server.url, WFA_API_KEY: mock.server.apiKey, WFA_WEBHOOK_SECRET: SW_SECRET },
    timeoutMs: 60_000,
  });
  onTestFinished(() => void running.child.kill('SIGKILL'));
  await running.waitFor(/Forwarding build\.completed .* signed \(standard-webhooks\)/, { from: 'stderr', ms: 30_000 });

  const created = await Promise.all([1, 2, 3].map(() => mock.client.workflows.create(INPUT)));
  await until(() => rx.handled.length >= 3, 'three verified deliveries');
  // Then several more poll rounds: a build forwarded twice would show up by now.
  const polled = mock.polls();
  await until(() => mock.polls() >= polled + 5, 'five more poll rounds');
  await until(() => rx.fromService.length >= 4, "the service's own four deliveries");

  running.child.kill('SIGINT');
  const result = await running.finished;

  expect(result.code).toBe(130);
  expect(result.stderr).toContain('Stopped listening (3 deliveries forwarded).');
  expect(rx.answered).toEqual([200, 200, 200]);
  expect(rx.handled.map((delivery) => JSON.parse(delivery.body).workflow_id).sort()).toEqual(created.map((wf) => wf.id).sort());
  // Byte for byte the body the service sends for the same build.
  for (const delivery of rx.handled) {
    const workflowId = JSON.parse(delivery.body).workflow_id;
    expect(rx.fromService.find((sent) => JSON.parse(sent.body).workflow_id === workflowId)?.body).toBe(delivery.body);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['webhook-id']).toMatch(/^msg_bld_/);
  }
  expect(rx.handled.some((delivery) => delivery.body.includes(before.id))).toBe(false);
  // One JSON line per delivery on stdout, with the receiver's answer.
  const lines = jsonLines(result.stdout);
  expect(lines.map((line) => line.status)).toEqual([200, 200, 200]);
  expect(new Set(lines.map((line) => line.build_id))).toEqual(new Set(created.map((wf) => wf.build_id)));
  expect(result.stdout + result.stderr).not.toContain(SW_SECRET.slice('whsec_'.length));
});

test('--workflow follows only the named workflows, signs with hmac-sha256, prints refusals, and stops on SIGTERM', async ({
  onTestFinished,
}) => {
  const rx = await receiver({ onTestFinished }, hmacSha256({ secret: HMAC_SECRET, header: 'x-hub-signature-256', prefix: 'sha256=' }));
  const mock = await countingMock({ onTestFinished });
  const [followed, other] = await Promise.all([mock.client.workflows.create(INPUT), mock.client.workflows.create(INPUT)]);
  await mock.service.flush(); // both builds have completed before `wfa listen` starts

  const args = [
    'listen',
    '--forward-to',
    `${rx.origin}/webhooks`,
    '--workflow',
    followed.id,
    '--interval',
    '100ms',
    '--sign',
    'hmac-sha256',
  ];
  const running = startCli(
    [...args, '--signature-header', 'x-hub-signature-256', '--signature-prefix', 'sha256=', '--secret-env', 'MY_SECRET'],
    {
      env: { WFA_BASE_URL: mock.server.url, WFA_API_KEY: mock.server.apiKey, MY_SECRET: HMAC_SECRET },
      timeoutMs: 60_000,
    },
  );
  onTestFinished(() => void running.child.kill('SIGKILL'));
  await until(() => rx.handled.length >= 1, 'the verified delivery');
  const polled = mock.polls();
  await until(() => mock.polls() >= polled + 5, 'five more poll rounds');

  running.child.kill('SIGTERM');
  const result = await running.finished;

  expect(result.code).toBe(143);
  expect(rx.handled.map((delivery) => JSON.parse(delivery.body).workflow_id)).toEqual([followed.id]);
  expect(rx.answered).toEqual([200]);
  expect(result.stdout).not.toContain(other.id);
  expect(result.stderr).toContain(`build.completed ${followed.id} (${followed.build_id}) -> ${rx.origin}/webhooks: 200`);
  expect(result.stdout + result.stderr).not.toContain(HMAC_SECRET);
});

test('a receiver that refuses the signature gets the delivery once, and the 401 is printed', async ({ onTestFinished }) => {
  const rx = await receiver({ onTestFinished }, standardWebhooks({ secret: SW_SECRET }));
  const mock = await countingMock({ onTestFinished });
  const workflow = await mock.client.workflows.create(INPUT);
  await mock.service.flush();

  // Signed with another secret than the receiver's.
  const running = startCli(
    ['listen', '--forward-to', `${rx.origin}/webhooks`, '--workflow', workflow.id, '--interval', '100ms', '--sign', 'standard-webhooks'],
    {
      env: { WFA_BASE_URL: mock.server.url, WFA_API_KEY: mock.server.apiKey, WFA_WEBHOOK_SECRET: 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCEh' },
      timeoutMs: 60_000,
    },
  );
  onTestFinished(() => void running.child.kill('SIGKILL'));
  await running.waitFor(/"status":401/, { ms: 30_000 });
  const polled = mock.polls();
  await until(() => mock.polls() >= polled + 5, 'five more poll rounds');
  running.child.kill('SIGINT');
  const result = await running.finished;

  expect(result.code).toBe(130);
  expect(rx.answered).toEqual([401]);
  expect(rx.handled).toEqual([]);
  expect(result.stderr).toContain(': 401');
});

test("a receiver's endless answer is read up to 64 KiB, then the connection is dropped: the delivery is printed with its status", async ({
  onTestFinished,
}) => {
  let written = 0;
  let closed = false;
  const endless = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = (): void => {
      while (!res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => (closed = true));
    pump();
  });
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    endless.closeAllConnections();
    return new Promise<void>((resolve) => endless.close(() => resolve()));
  });
  const mock = await countingMock({ onTestFinished });
  const workflow = await mock.client.workflows.create(INPUT);
  await mock.service.flush();

  const forwardTo = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hooks`;
  const running = startCli(['listen', '--forward-to', forwardTo, '--workflow', workflow.id, '--interval', '100ms'], {
    env: { WFA_BASE_URL: mock.server.url, WFA_API_KEY: mock.server.apiKey },
    timeoutMs: 60_000,
  });
  onTestFinished(() => void running.child.kill('SIGKILL'));
  await running.waitFor(/"status":200/, { ms: 30_000 });
  await until(() => closed, "the receiver's connection closed");
  running.child.kill('SIGINT');
  await running.finished;

  // What the sockets buffer between the two, at most a few MiB on loopback: never the whole answer.
  expect(written).toBeLessThan(32 * 1024 * 1024);
});
