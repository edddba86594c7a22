import { createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookBody,
  createWebhookHandler,
  createWebhookPayload,
  toNodeHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';

let server: Server | undefined;

/** Starts a real server on 127.0.0.1, on a free port; `afterEach` closes it. */
async function listen(listener: RequestListener): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

afterEach(async () => {
  const closing = server;
  server = undefined;
  if (!closing) return;
  closing.closeAllConnections();
  await new Promise((resolve) => closing.close(resolve));
});

function serve(options: WebhookHandlerOptions): Promise<string> {
  return listen(toNodeHandler(createWebhookHandler(options)));
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

/** Reads a request to the end, as a framework's body parser does before calling the route. */
async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Streams `totalBytes` of chunked body to the server, with backpressure, and stops as soon as a response
 * arrives. Resolves with the status and how many bytes had been written by then.
 */
function streamUntilAnswered(url: string, totalBytes: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; bytesWritten: number; body: string }>((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let bytesWritten = 0;
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => {
      answered = true;
      const writtenWhenAnswered = bytesWritten;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytesWritten: writtenWhenAnswered, body }));
    });
    // Once the server has answered and closed, writes fail with EPIPE or ECONNRESET: that is expected.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = (): void => {
      while (!answered && bytesWritten < totalBytes) {
        bytesWritten += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

describe('toNodeHandler on a node:http server', () => {
  it('answers 200 and calls the handler with the parsed event', async () => {
    const onBuildCompleted = vi.fn();
    const url = await serve({ on: { 'build.completed': onBuildCompleted } });

    const response = await post(url, createWebhookBody({ workflow_id: 'wf_node' }));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(onBuildCompleted.mock.calls[0]?.[0]).toEqual(createWebhookPayload({ workflow_id: 'wf_node' }));
  });

  it('gives the handler a Request with the method, URL and headers received', async () => {
    let seen: Request | undefined;
    const url = await serve({
      on: {
        'build.completed': (_event, request) => {
          seen = request;
        },
      },
    });

    await post(`${url}?attempt=2`, createWebhookBody(), { 'x-delivery-id': 'd_1' });

    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe(`${url}?attempt=2`);
    expect(seen?.headers.get('x-delivery-id')).toBe('d_1');
  });

  it('answers 400 with the reason on a bad payload', async () => {
    const url = await serve({ on: {} });
    const response = await post(url, '{"event":');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Webhook body is not valid JSON' });
  });

  it('answers 401 when verify rejects, having given it the exact bytes sent', async () => {
    const verify = vi.fn((_rawBody: Uint8Array, _headers: Headers) => false);
    const url = await serve({ on: {}, verify });
    const raw = ` ${createWebhookBody()}\n`;

    const response = await post(url, raw, { 'x-signature': 'sig' });

    expect(response.status).toBe(401);
    expect(Buffer.from(verify.mock.calls[0]?.[0] ?? []).toString()).toBe(raw);
    expect(verify.mock.calls[0]?.[1].get('x-signature')).toBe('sig');
  });

  it('answers 405 with Allow: POST for GET', async () => {
    const url = await serve({ on: {} });
    const response = await fetch(url);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 413 by Content-Length, before the body is sent', async () => {
    const url = await serve({ on: {}, maxBodyBytes: 1024 });
    // The declared length is never sent in full: only an answer that does not wait for the body can arrive.
    const result = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'content-length': '1000000' } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"event":');
    });
    expect(result).toBe(413);
  });

  it('answers 413 while a chunked body is still streaming in, long before the client is done', async () => {
    const onBuildCompleted = vi.fn();
    const url = await serve({ on: { 'build.completed': onBuildCompleted }, maxBodyBytes: 256 * 1024 });
    const totalBytes = 64 * 1024 * 1024;

    const result = await streamUntilAnswered(url, totalBytes);

    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ error: 'Webhook body is larger than 262144 bytes' });
    // The server stopped reading: the client could not push its 64 MiB through (socket buffers hold a few MiB).
    expect(result.bytesWritten).toBeLessThan(totalBytes / 4);
    expect(onBuildCompleted).not.toHaveBeenCalled();
  });

  /** POSTs `body` with `Expect: 100-continue`, sending it only on `100 Continue`, as curl does above 1 MiB. */
  function postExpectingContinue(url: string, body: string, declared = body.length) {
    return new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(url, { method: 'POST', headers: { 'content-length': String(declared), expect: '100-continue' } });
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
      });
      req.on('error', reject);
    });
  }

  it('as the checkContinue listener: 100 Continue when the handler reads the body, then 200', async () => {
    const onBuildCompleted = vi.fn();
    const webhooks = toNodeHandler(createWebhookHandler({ on: { 'build.completed': onBuildCompleted } }));
    const url = await listen(webhooks);
    server?.on('checkContinue', webhooks.checkContinue);

    expect(await postExpectingContinue(url, createWebhookBody())).toEqual({ status: 200, continued: true });
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });

  it('as the checkContinue listener: a Content-Length over maxBodyBytes gets 413 without 100 Continue', async () => {
    const webhooks = toNodeHandler(createWebhookHandler({ on: {}, maxBodyBytes: 1024 }));
    const url = await listen(webhooks);
    server?.on('checkContinue', webhooks.checkContinue);

    expect(await postExpectingContinue(url, '', 2 * 1024 * 1024)).toEqual({ status: 413, continued: false });
  });

  it('answers 500 when the handler throws, and reports the error', async () => {
    const failure = new Error('database down');
    const onError = vi.fn();
    const url = await serve({
      on: {
        'build.completed': () => {
          throw failure;
        },
      },
      onError,
    });

    const response = await post(url, createWebhookBody());

    expect(response.status).toBe(500);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure, createWebhookPayload());
  });

  it('keeps serving on the same server after a 413', async () => {
    const url = await serve({ on: {}, maxBodyBytes: 1024 });
    await streamUntilAnswered(url, 1024 * 1024);
    expect((await post(url, createWebhookBody())).status).toBe(200);
  });

  it('answers 500 and logs when the Fetch handler itself rejects', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('bug');
    const url = await listen(toNodeHandler(() => Promise.reject(failure)));

    const response = await post(url, createWebhookBody());

    expect(response.status).toBe(500);
    expect(log).toHaveBeenCalledWith('workflow-automation-sdk: webhook request failed', failure);
  });
});

describe('toNodeHandler after a body parser (Express style)', () => {
  /** Mimics a body parser middleware: reads the stream, stores what it parsed, then calls the route. */
  function afterBodyParser(store: (req: IncomingMessage & { body?: unknown; rawBody?: unknown }, raw: Buffer) => void) {
    return (options: WebhookHandlerOptions): Promise<string> => {
      const route = toNodeHandler(createWebhookHandler(options));
      return listen((req, res) => {
        readAll(req).then(
          (raw) => {
            store(req, raw);
            route(req, res);
          },
          () => res.destroy(),
        );
      });
    };
  }

  it('uses an object body that express.json() parsed', async () => {
    const onBuildCompleted = vi.fn();
    const url = await afterBodyParser((req, raw) => (req.body = JSON.parse(raw.toString())))({
      on: { 'build.completed': onBuildCompleted },
    });

    expect((await post(url, createWebhookBody())).status).toBe(200);
    expect(onBuildCompleted.mock.calls[0]?.[0]).toEqual(createWebhookPayload());
  });

  it('gives verify the exact bytes from express.raw()', async () => {
    const verify = vi.fn((_rawBody: Uint8Array) => true);
    const url = await afterBodyParser((req, raw) => (req.body = raw))({ on: {}, verify });
    const raw = `${createWebhookBody()}   `;

    expect((await post(url, raw)).status).toBe(200);
    expect(Buffer.from(verify.mock.calls[0]?.[0] ?? []).toString()).toBe(raw);
  });

  it('uses a string body from express.text()', async () => {
    const url = await afterBodyParser((req, raw) => (req.body = raw.toString()))({ on: {} });
    expect((await post(url, 'not json')).status).toBe(400);
  });

  it('prefers req.rawBody over a parsed req.body, so verify sees the bytes sent', async () => {
    const verify = vi.fn((_rawBody: Uint8Array) => true);
    const url = await afterBodyParser((req, raw) => {
      req.rawBody = raw;
      req.body = JSON.parse(raw.toString());
    })({ on: {}, verify });
    const raw = `{ "event": "build.completed", "workflow_id": "wf_1", "data": { "download_url": "https://x.example/a" } }`;

    expect((await post(url, raw)).status).toBe(200);
    expect(Buffer.from(verify.mock.calls[0]?.[0] ?? []).toString()).toBe(raw);
  });

  it('applies maxBodyBytes to a body the framework already read', async () => {
    const url = await afterBodyParser((req, raw) => (req.body = raw))({ on: {}, maxBodyBytes: 10 });
    expect((await post(url, createWebhookBody())).status).toBe(413);
  });

  it('reads the stream itself when a body parser skipped the request but set req.body = {}', async () => {
    const onBuildCompleted = vi.fn();
    const route = toNodeHandler(createWebhookHandler({ on: { 'build.completed': onBuildCompleted } }));
    const url = await listen((req, res) => {
      (req as IncomingMessage & { body?: unknown }).body = {};
      route(req, res);
    });

    expect((await post(url, createWebhookBody(), { 'content-type': 'text/plain' })).status).toBe(200);
    expect(onBuildCompleted).toHaveBeenCalledOnce();
  });
});
