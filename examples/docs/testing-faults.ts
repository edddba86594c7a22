import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { Client, InternalServerError, RateLimitError } from 'workflow-automation-sdk';
import { createMockService, startMockServer } from 'workflow-automation-sdk/testing';

test('retries a GET through two 503s', async () => {
  const mock = await startMockServer();
  try {
    mock.service.failNext(2, 503); // the next two requests answer 503
    const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
    await expect(client.orders.list()).resolves.toBeDefined();

    mock.service.failNext(1, 503);
    await expect(
      client.workflows.create({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] }),
    ).rejects.toBeInstanceOf(InternalServerError); // a POST is not retried after a 5xx

    mock.service.failNext(1, 'network'); // a dropped connection
    await expect(client.orders.list()).resolves.toBeDefined();

    mock.service.failNext(1, 429, { retryAfterSeconds: 120 }); // longer than the SDK sleeps on its own: no retry
    await expect(client.orders.list()).rejects.toBeInstanceOf(RateLimitError);
    // (the client's rate gate now holds its next calls until that Retry-After, capped at a minute)
  } finally {
    await mock.close();
  }
});

test('knobs for a whole run', async () => {
  const service = createMockService({
    latencyMs: 50, // before each answer
    errorRate: 0.1, // a seeded 10 % of requests answer 500, 502 or 503
    rateLimit: { every: 10, retryAfterSeconds: 1 }, // every 10th request answers 429
    failBuilds: (workflow) => workflow.name.includes('broken'), // or true for all
    listEnvelope: 'items', // { items: [...] } instead of { data: [...] }
    seed: 42, // the same ids and faults on every run
  });
  const mock = await startMockServer({ service });
  try {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
  } finally {
    await mock.close();
    service.close();
  }
});

test('delivers the build.completed webhook', async () => {
  const received: unknown[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => res.writeHead(200).end(() => received.push(JSON.parse(body))));
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  const { port } = receiver.address() as AddressInfo;

  const mock = await startMockServer({ buildDurationMs: 100, webhookUrl: `http://127.0.0.1:${port}/hooks` });
  try {
    const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
    const workflow = await client.workflows.create({ name: 'Hook me', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    await client.waitForBuild(workflow, { intervalMs: 50 });
    await mock.service.flush(); // every delivery in flight has finished
    expect(mock.service.webhookDeliveries()).toEqual([expect.objectContaining({ status: 200 })]);
    expect(received).toEqual([expect.objectContaining({ event: 'build.completed', workflow_id: workflow.id })]);
  } finally {
    await mock.close();
    receiver.close();
  }
});
