import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Client, ConnectionError } from '../../src/index.js';

// No msw in this file: these failures need real sockets.
const input = { name: 'n', platform: 'p', trigger: { type: 'webhook' }, actions: [] };

/** A real loopback server, for failures msw cannot produce: refused and reset connections. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const s = createServer((req, res) => {
    hits++;
    handler!(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s, hits: () => hits };
}

const close = (s: Server) =>
  new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  });

describe('connection failures (real sockets on 127.0.0.1)', () => {
  it('a POST whose connection was refused is retried: it was never sent', async () => {
    const { url, server: s } = await listen(() => undefined);
    await close(s);
    let attempts = 0;
    const counting = (input: Request | string | URL, init?: RequestInit) => {
      attempts++;
      return fetch(input, init);
    };
    const c = new Client({ baseUrl: url, apiKey: 'k_123456', apiPrefix: '/v1', fetch: counting });
    const error = await c.workflows.create(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(attempts).toBe(3);
  });

  it('a POST whose connection was reset after sending is not retried: the service may have acted', async () => {
    const { url, server: s, hits } = await listen((req) => req.socket.destroy());
    try {
      const c = new Client({ baseUrl: url, apiKey: 'k_123456', apiPrefix: '/v1' });
      await expect(c.workflows.create(input)).rejects.toBeInstanceOf(ConnectionError);
      expect(hits()).toBe(1);
    } finally {
      await close(s);
    }
  });

  it('a GET whose connection was reset is retried', async () => {
    const { url, server: s, hits } = await listen((req) => req.socket.destroy());
    try {
      const c = new Client({ baseUrl: url, apiKey: 'k_123456', apiPrefix: '/v1' });
      await expect(c.workflows.get('wf_1')).rejects.toBeInstanceOf(ConnectionError);
      expect(hits()).toBe(3);
    } finally {
      await close(s);
    }
  });
});
