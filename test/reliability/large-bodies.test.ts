/**
 * Large bodies: a 50 MB response and a 50 MB webhook delivery do not exhaust memory. The figure is the peak
 * growth of the JavaScript heap plus external memory (Buffers, ArrayBuffers), sampled every millisecond from a
 * baseline taken after a full GC, and the peak growth of the resident set.
 *
 * The bound for a response is half the body's size: whatever the SDK does with a 50 MB body (return it, cap it,
 * keep the head of an error page), it must not hold the whole body in memory at once, let alone several copies.
 * The webhook handler documents its own cap (`maxBodyBytes`, default 1 MiB) and must stop reading past it.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { Client, WfaError } from '../../src/index.js';
import { createWebhookHandler, toNodeHandler } from '../../src/webhooks/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { gc } from './gc.js';
import { activeHandles, count, figure, openHandlesSince, recordOpenHandles } from './summary.js';

const API_KEY = 'wfa_live_large_Bd4sWq1zXc';
const MB = 1024 * 1024;
const BODY_BYTES = 50 * MB;
/** A response may not cost more than half its size at any moment. */
const RESPONSE_BOUND = BODY_BYTES / 2;
/** Rejecting a webhook past its 1 MiB limit may cost a few MB of buffers, not the body. */
const WEBHOOK_BOUND = 8 * MB;
const WEBHOOK_LIMIT = 1024 * 1024;
const CHUNK = new Uint8Array(64 * 1024).fill(0x61);

let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('large-bodies.test.ts', await openHandlesSince(baseline));
});

interface Measured<T> {
  outcome: T;
  /** Peak growth of heapUsed + external over the baseline, in bytes. */
  heap: number;
  /** Peak growth of the resident set over the baseline, in bytes. */
  rss: number;
}

/** Runs `work`, sampling memory every millisecond (and once right after it settles). */
async function measure<T>(work: () => Promise<T>): Promise<Measured<T>> {
  for (let i = 0; i < 3; i++) gc();
  const base = process.memoryUsage();
  const baseHeap = base.heapUsed + base.external;
  let heap = 0;
  let rss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed + m.external - baseHeap);
    rss = Math.max(rss, m.rss - base.rss);
  };
  const timer = setInterval(sample, 1);
  try {
    const outcome = await work();
    sample();
    return { outcome, heap, rss };
  } finally {
    clearInterval(timer);
  }
}

const outcomeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (WfaError.is(e) ? e.name : `not an SDK error: ${String(e)}`),
  );

describe('a 50 MB response body', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('as a 200 (a workflow with a 50 MB field): memory stays under half the body', async ({ expect }) => {
    server.otherwise({
      kind: 'stream',
      status: 200,
      contentType: 'application/json',
      head: '{"id":"wf_1","name":"n","platform":"zapier","status":"active","created_at":"2024-01-01T00:00:00Z","padding":"',
      fillBytes: BODY_BYTES,
      tail: '"}',
    });
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, timeoutMs: 30_000 });
    const m = await measure(() => outcomeOf(client.workflows.get('wf_1')));
    count('requests', 1);
    figure({ name: 'memory: 50 MB response (200), peak heap+external', value: m.heap, unit: 'bytes', bound: RESPONSE_BOUND });
    figure({ name: 'memory: 50 MB response (200), peak RSS', value: m.rss, unit: 'bytes' });
    expect(m.outcome).toMatch(/^(ok|[A-Za-z]+Error)$/);
    expect(m.heap, `peak growth ${(m.heap / MB).toFixed(1)} MB`).toBeLessThanOrEqual(RESPONSE_BOUND);
  });

  it('as a 500 HTML page (the error needs its first 10 000 characters): memory stays under half the body', async ({ expect }) => {
    server.otherwise({
      kind: 'stream',
      status: 500,
      contentType: 'text/html',
      head: '<html><head><title>Internal error</title></head><body><pre>',
      fillBytes: BODY_BYTES,
      tail: '</pre></body></html>',
    });
    const client = new Client({ baseUrl: server.url, apiKey: API_KEY, apiPrefix: '/v1', maxRetries: 0, timeoutMs: 30_000 });
    const m = await measure(() => outcomeOf(client.workflows.get('wf_1')));
    count('requests', 1);
    figure({ name: 'memory: 50 MB response (500 page), peak heap+external', value: m.heap, unit: 'bytes', bound: RESPONSE_BOUND });
    figure({ name: 'memory: 50 MB response (500 page), peak RSS', value: m.rss, unit: 'bytes' });
    expect(m.outcome).toBe('InternalServerError');
    expect(m.heap, `peak growth ${(m.heap / MB).toFixed(1)} MB`).toBeLessThanOrEqual(RESPONSE_BOUND);
  });
});

describe('a response announced past maxResponseBytes', () => {
  // Refused by its Content-Length before a byte is read: the connection must go with it, or each refusal keeps
  // a socket (and the process) busy until the server gives up.
  it('is refused unread, and its connection is closed', async ({ expect }) => {
    let closed!: Promise<void>;
    const server: Server = createServer((req, res) => {
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY_BYTES) }).write('[');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const client = new Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY, maxRetries: 0, maxResponseBytes: 1000 });
      expect(await outcomeOf(client.workflows.list())).toBe('ResponseValidationError');
      await closed; // the test's timeout is the bound
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** A 50 MB body produced on demand, counting what the reader actually pulled. */
function lazyBody(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) {
          controller.close();
          return;
        }
        pulled += CHUNK.byteLength;
        controller.enqueue(CHUNK.slice());
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

describe('a webhook body past the limit', () => {
  const handler = createWebhookHandler({ on: {}, maxBodyBytes: WEBHOOK_LIMIT });

  it('streamed with no Content-Length: 413 after reading just past the limit', async ({ expect }) => {
    const { stream, pulled } = lazyBody(BODY_BYTES);
    const m = await measure(() =>
      handler(new Request('http://127.0.0.1/hooks', { method: 'POST', body: stream, duplex: 'half' } as RequestInit & { duplex: 'half' })),
    );
    figure({ name: 'memory: 50 MB webhook (streamed), peak heap+external', value: m.heap, unit: 'bytes', bound: WEBHOOK_BOUND });
    figure({
      name: 'webhook: bytes read of a 50 MB delivery (limit 1 MiB)',
      value: pulled(),
      unit: 'size',
      bound: WEBHOOK_LIMIT + CHUNK.byteLength,
    });
    expect(m.outcome.status).toBe(413);
    expect(pulled()).toBeLessThanOrEqual(WEBHOOK_LIMIT + CHUNK.byteLength);
    expect(m.heap).toBeLessThanOrEqual(WEBHOOK_BOUND);
  });

  it('announced by Content-Length: 413 without reading a byte', async ({ expect }) => {
    const { stream, pulled } = lazyBody(BODY_BYTES);
    const response = await handler(
      new Request('http://127.0.0.1/hooks', {
        method: 'POST',
        body: stream,
        duplex: 'half',
        headers: { 'content-length': String(BODY_BYTES) },
      } as RequestInit & { duplex: 'half' }),
    );
    expect(response.status).toBe(413);
    expect(pulled()).toBe(0);
  });

  it('sent over HTTP to the Node adapter: 413, and the server does not buffer the body', async ({ expect }) => {
    const server: Server = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const m = await measure(
        () =>
          new Promise<{ status: number | undefined; sent: number }>((resolve) => {
            let sent = 0;
            let status: number | undefined;
            const req = httpRequest({
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/hooks',
              headers: { 'content-type': 'application/json' },
            });
            const done = () => resolve({ status, sent });
            req.on('response', (res) => {
              status = res.statusCode;
              res.resume();
              res.on('end', done);
              res.on('error', done);
            });
            // The server may close while we are still sending: that is the point.
            req.on('error', done);
            const pump = () => {
              while (sent < BODY_BYTES && status === undefined && !req.destroyed) {
                sent += CHUNK.byteLength;
                if (!req.write(CHUNK)) {
                  req.once('drain', pump);
                  return;
                }
              }
              req.end();
            };
            pump();
          }),
      );
      figure({ name: 'memory: 50 MB webhook over HTTP, peak heap+external', value: m.heap, unit: 'bytes', bound: WEBHOOK_BOUND });
      expect(m.outcome.status).toBe(413);
      expect(m.outcome.sent).toBeLessThan(BODY_BYTES);
      expect(m.heap).toBeLessThanOrEqual(WEBHOOK_BOUND);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
