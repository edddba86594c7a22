/**
 * Shared by the mock service's tests: mock servers and webhook receivers on 127.0.0.1, closed after each test,
 * and a compact way to call a handler.
 */

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/testing/index.js';

/** One POST the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A webhook receiver the test starts and stops; answers every POST with `status`. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when the receiver has got `count` deliveries in total. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a webhook receiver on 127.0.0.1 (a free port). */
export async function startReceiver(status = 200): Promise<Receiver> {
  const received: Received[] = [];
  let notify = (): void => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(status).end();
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor(count) {
      return new Promise((resolve) => {
        const check = (): void => {
          if (received.length >= count) resolve(received);
        };
        notify = check;
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A parsed response: status, headers and the JSON body (undefined when empty). */
export interface Reply {
  status: number;
  headers: Headers;
  // Tests read deep into bodies; a loose type keeps them short.
  body: any;
}

/** Reads a response into a {@link Reply}. */
export async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** A valid workflow body. */
export const WORKFLOW = {
  name: 'New orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [
    { app: 'slack', action: 'send_message', config: { channel: '#orders' } },
    { app: 'google_sheets', action: 'append_row' },
  ],
};

/** `server()` and `receiver()` for a test file: what they start is closed after each test, last first. */
export function useStarted(): { server(options?: MockServerOptions): Promise<MockServer>; receiver(): Promise<Receiver> } {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const running of started.splice(0).reverse()) await running.close();
  });
  const track = <T extends { close(): Promise<void> }>(running: T): T => {
    started.push(running);
    return running;
  };
  return {
    server: async (options = {}) => track(await startMockServer(options)),
    receiver: async () => track(await startReceiver()),
  };
}
