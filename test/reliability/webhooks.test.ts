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

/** Starts a server with the Node face of a handler (also for `checkContinue` if asked); `close()` destroys every connection. */
async function receiver(
  options: Partial<WebhookHandlerOptions>,
  { checkContinue = false } = {},
): Promise<{ port: number; close: () => Promise<void> }> {
  const webhooks = toNodeHandler(createWebhookHandler({ on: {}, ...options }));
  const server: Server = createServer(webhooks);
  if (checkContinue) server.on('checkContinue', webhooks.checkContinue);
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

/**
 * A sender as curl is above 1 MiB: the headers with `Expect: 100-continue`, and the body only after
 * `100 Continue`, in 64 KiB writes 2 ms apart, not reading anything while it uploads (a loaded machine).
 * Resolves with all it read once a final answer is whole or the connection ends; `reset` if the server
 * reset the connection (the sender's writes or reads failed).
 */
function upload(port: number, size: number): Promise<{ text: string; sent: number; reset: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let text = '';
    let sent = 0;
    let reset = false;
    let uploading = false;
    const guard = setTimeout(() => socket.destroy(), 30_000);
    const finish = (): void => {
      clearTimeout(guard);
      socket.destroy();
      resolve({ text, sent, reset });
    };
    const whole = (): boolean => {
      const final = /HTTP\/1\.1 (?!100 )\d{3}[\s\S]*?\r\ncontent-length: (\d+)\r\n[\s\S]*?\r\n\r\n/i.exec(text);
      return final !== null && text.length - (final.index + final[0].length) >= Number(final[1]);
    };
    const step = (): void => {
      if (socket.destroyed) return;
      if (sent >= size) {
        socket.resume();
        if (whole()) finish();
        return;
      }
      const n = Math.min(chunk.length, size - sent);
      socket.write(chunk.subarray(0, n));
      sent += n;
      setTimeout(step, 2);
    };
    socket.on('connect', () => {
      socket.write(
        `POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (!uploading && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        uploading = true;
        socket.pause();
        step();
      } else if ((!uploading || sent >= size) && whole()) finish();
    });
    socket.on('error', () => {
      reset = true;
    });
    socket.on('close', finish);
  });
}

describe('a delivery too large, sent slowly after Expect: 100-continue', () => {
  const size = 2 * 1024 * 1024;

  it('on a plain listener: 100 Continue, then the 413 reaches the sender, which uploads to the end without a reset', async () => {
    const server = await receiver({});
    try {
      const { text, sent, reset } = await upload(server.port, size);
      const ok = /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 413 /.test(text) && sent === size && !reset;
      attacked('webhook deliveries too large, sent slowly with Expect: 100-continue', ok);
      expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 413 /);
      expect(text).toContain('Webhook body is larger than 1048576 bytes');
      expect({ sent, reset }).toEqual({ sent: size, reset: false });
    } finally {
      await server.close();
    }
  });

  it('with checkContinue: 413 at once, no 100 Continue, nothing uploaded, and the connection closed', async () => {
    const server = await receiver({}, { checkContinue: true });
    try {
      const { text, sent, reset } = await upload(server.port, size);
      const ok = text.startsWith('HTTP/1.1 413 ') && sent === 0 && !reset;
      attacked('webhook deliveries too large, sent slowly with Expect: 100-continue', ok);
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text).not.toContain('100 Continue');
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect({ sent, reset }).toEqual({ sent: 0, reset: false });
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
