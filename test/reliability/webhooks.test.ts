/**
 * Webhook deliveries that stall, methods a `Request` cannot carry, and user callbacks that hang, reject or
 * throw, against the Node face (`toNodeHandler`) on a real `node:http` server, driven by raw sockets.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WfaError } from '../../src/index.js';
import { createWebhookHandler, toNodeHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';
import { activeHandles, attacked, openHandlesSince, recordOpenHandles } from './summary.js';

const EVENT = JSON.stringify({ event: 'build.completed', workflow_id: 'wf_1', data: { download_url: 'https://cdn.example.com/a.zip' } });
let baseline: Map<string, number>;
beforeAll(() => {
  baseline = activeHandles();
});
afterAll(async () => {
  recordOpenHandles('webhooks.test.ts', await openHandlesSince(baseline));
});

/** Starts a server with the Node face of a handler; `close()` destroys every connection. */
async function receiver(options: Partial<WebhookHandlerOptions>): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer(toNodeHandler(createWebhookHandler({ on: {}, ...options })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `head` (and then `dribble`, one byte every `everyMs`) on a raw socket; resolves with all it read. */
function raw(port: number, head: string, dribble = '', everyMs = 200): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    const guard = setTimeout(() => socket.destroy(new Error('no answer within 15 s')), 15_000);
    socket.on('connect', () => {
      socket.write(head);
      let i = 0;
      if (dribble) {
        timer = setInterval(() => {
          if (i < dribble.length && !socket.destroyed) socket.write(dribble[i++]!);
        }, everyMs);
      }
    });
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', (error) => (text ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      resolve({ text, ms: performance.now() - started });
    });
  });
}

// Every method Node's server hands to a request listener (CONNECT goes to its 'connect' event, and a method
// token it does not know is answered 400 by its parser, before any listener runs).
describe('a method other than POST', () => {
  for (const method of ['TRACE', 'PROPFIND', 'OPTIONS', 'GET', 'HEAD', 'PATCH', 'M-SEARCH']) {
    it(`${method} gets 405 with Allow: POST, and nothing on the console`, async () => {
      const server = await receiver({});
      const errors = vi.spyOn(console, 'error');
      try {
        const { text } = await raw(server.port, `${method} /webhooks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        const ok = text.startsWith('HTTP/1.1 405') && /\r\nallow: POST\r\n/i.test(text) && errors.mock.calls.length === 0;
        attacked('webhook deliveries that stall', ok);
        expect(text).toMatch(/^HTTP\/1\.1 405/);
        expect(text).toMatch(/\r\nallow: POST\r\n/i);
        expect(errors).not.toHaveBeenCalled();
      } finally {
        errors.mockRestore();
        await server.close();
      }
    });
  }
});

describe('a body that does not arrive', () => {
  it('one byte every 200 ms: 408 at bodyTimeoutMs, and the connection closed', async () => {
    const server = await receiver({ bodyTimeoutMs: 500 });
    try {
      const head = `POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${EVENT.length}\r\n\r\n`;
      const { text, ms } = await raw(server.port, head, EVENT, 200);
      const ok = text.startsWith('HTTP/1.1 408') && ms < 10_000;
      attacked('webhook deliveries that stall', ok);
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(text).toContain('did not arrive within 500 ms');
      expect(ms).toBeLessThan(10_000);
    } finally {
      await server.close();
    }
  });

  it('a Content-Length longer than what is sent, then silence: 408', async () => {
    const server = await receiver({ bodyTimeoutMs: 500 });
    try {
      const head = `POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Length: ${EVENT.length + 100}\r\n\r\n${EVENT}`;
      const { text } = await raw(server.port, head);
      attacked('webhook deliveries that stall', text.startsWith('HTTP/1.1 408'));
      expect(text).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await server.close();
    }
  });
});

/** POSTs the event with `http.request`; resolves with the status. */
function post(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { port, host: '127.0.0.1', method: 'POST', path: '/webhooks', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(EVENT);
  });
}

describe('user callbacks that hang, reject or throw', () => {
  const never = () => new Promise<void>(() => undefined);

  it('a handler that never settles: 503 at handlerTimeoutMs, and onError gets a WfaError naming the bound', async () => {
    const errors: unknown[] = [];
    const server = await receiver({ on: { 'build.completed': never }, handlerTimeoutMs: 300, onError: (error) => void errors.push(error) });
    try {
      const status = await post(server.port);
      const ok = status === 503 && WfaError.is(errors[0]) && /handlerTimeoutMs/.test(String((errors[0] as Error).message));
      attacked('user callbacks that hang, reject or throw', ok);
      expect(status).toBe(503);
      expect(WfaError.is(errors[0])).toBe(true);
      expect((errors[0] as Error).message).toContain('did not settle within 300 ms (handlerTimeoutMs)');
    } finally {
      await server.close();
    }
  });

  it('a verify that never settles: 503', async () => {
    const server = await receiver({ verify: never as never, handlerTimeoutMs: 300, onError: () => undefined });
    try {
      const status = await post(server.port);
      attacked('user callbacks that hang, reject or throw', status === 503);
      expect(status).toBe(503);
    } finally {
      await server.close();
    }
  });

  const failing: [string, Partial<WebhookHandlerOptions>, number][] = [
    [
      'a handler that rejects with a non-Error, and an onError that throws',
      {
        on: { 'build.completed': () => Promise.reject('nope') },
        onError: () => {
          throw new Error('hook down');
        },
      },
      500,
    ],
    [
      'a handler that throws, and an onError that rejects',
      {
        on: {
          'build.completed': () => {
            throw new Error('db down');
          },
        },
        onError: () => Promise.reject(new Error('hook down')),
      },
      500,
    ],
    [
      'a handler that throws, and an onError that never settles',
      {
        on: {
          'build.completed': () => {
            throw new Error('db down');
          },
        },
        onError: never,
        handlerTimeoutMs: 300,
      },
      500,
    ],
    [
      'a handler that never settles, and an onError that never settles',
      { on: { 'build.completed': never }, onError: never, handlerTimeoutMs: 300 },
      503,
    ],
  ];
  for (const [name, options, expected] of failing) {
    it(`${name}: the answer is still ${expected}`, async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const server = await receiver(options);
      try {
        const status = await post(server.port);
        attacked('user callbacks that hang, reject or throw', status === expected);
        expect(status).toBe(expected);
      } finally {
        logged.mockRestore();
        await server.close();
      }
    });
  }
});
