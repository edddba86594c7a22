/**
 * The smallest service that limits a rate, on 127.0.0.1: a token bucket (`rate` a second, `rate` at most
 * saved), refusing beyond it with 429 and `Retry-After` in whole seconds; with `headers`, the IETF draft's
 * `RateLimit-Policy` and `RateLimit` on every response. `POST /v1/workflows` creates, anything else is a 200.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RateLimitServer {
  url: string;
  /** Requests received, and of them refused. */
  readonly received: number;
  readonly refused: number;
  /** The names of the workflows created, once per creation. */
  readonly created: readonly string[];
  close(): Promise<void>;
}

export async function startRateLimitServer(options: { rate: number; headers?: boolean }): Promise<RateLimitServer> {
  const { rate, headers = false } = options;
  let tokens = rate;
  let at = performance.now();
  const state = { received: 0, refused: 0, created: [] as string[] };
  const policy = (remaining: number, reset: number): Record<string, string> =>
    headers ? { 'ratelimit-policy': `"default";q=${rate};w=1`, ratelimit: `"default";r=${remaining};t=${reset}` } : {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.received++;
      const time = performance.now();
      tokens = Math.min(rate, tokens + ((time - at) / 1000) * rate);
      at = time;
      if (tokens < 1) {
        state.refused++;
        const wait = Math.max(1, Math.ceil((1 - tokens) / rate));
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(wait), ...policy(0, wait) });
        res.end('{"message":"Too many requests"}');
        return;
      }
      tokens -= 1;
      const told = policy(Math.floor(tokens), Math.ceil((rate - tokens) / rate));
      const name = req.method === 'POST' ? (JSON.parse(Buffer.concat(chunks).toString()) as { name: string }).name : 'wf';
      if (req.method === 'POST') state.created.push(name);
      const id = `wf_${state.received}`;
      const body = { id, name, platform: 'zapier', status: 'building', created_at: new Date().toISOString(), build_id: `bld_${id}` };
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', ...told });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get received() {
      return state.received;
    },
    get refused() {
      return state.refused;
    },
    created: state.created,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
