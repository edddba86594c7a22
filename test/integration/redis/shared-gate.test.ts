/**
 * The rate gate shared through a real redis-server by real processes (test/integration/fixtures/rate-runner.ts)
 * against the mock over loopback: they pace together on one key, a 429 one of them sees closes the gate for the
 * others, and no API key reaches Redis. Then Redis killed, stalled and restarted under a client's calls: they go
 * on, with one warning. The mock logs every request's arrival and sender.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '../../../src/index.js';
import { redisRateStore } from '../../../src/redis/index.js';
import { startMockServer, type MockServer } from '../../../src/testing/index.js';
import { startScript, type Running } from '../../cli/process.js';
import { startLoggedMock } from '../../helpers/logged-mock.js';
import { captureLogger } from '../../helpers/logger.js';
import { startRedis, type RedisServer } from '../../helpers/redis.js';

interface Outcome {
  ok: number;
  failed: Record<string, number>;
  warnings: string[];
}

/** Starts the runners, lets them go at once on SIGUSR2, and returns what each printed at its end. */
async function runAll(server: MockServer, runners: { name: string; task: string; store: 'redis' | 'memory' }[], redisUrl: string) {
  const started: Running[] = runners.map(({ name, task, store }) =>
    startScript('test/integration/fixtures/rate-runner.ts', [server.url, server.apiKey, name, task, store, redisUrl], {
      timeoutMs: 50_000,
    }),
  );
  try {
    await Promise.all(started.map((runner) => runner.waitFor(/^ready$/m, { ms: 20_000 })));
    for (const runner of started) runner.child.kill('SIGUSR2');
    const finished = await Promise.all(started.map((runner) => runner.finished));
    return finished.map(({ stdout, stderr, code }) => {
      expect(stderr, 'a runner wrote to stderr').toBe('');
      expect(code).toBe(0);
      return JSON.parse(stdout.split('\n').filter(Boolean).at(-1)!) as Outcome;
    });
  } finally {
    for (const runner of started) runner.child.kill('SIGKILL');
  }
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('processes sharing one key and one Redis', () => {
  // The service tells its rate (RateLimit headers), so each process knows it at once: the budget is what they
  // share. Each alone at the told rate would send three times it. (The learned path: bench/fleet.ts, (b) and (c).)
  test('3 processes, 60 calls each at once, told 20 requests a second: they pace together, nothing fails', {
    timeout: 60_000,
  }, async () => {
    const mock = await startLoggedMock({ rateLimit: { requestsPerSecond: 20 }, rateLimitHeaders: true });
    const inspect = new Redis(redis.url);
    try {
      const outcomes = await runAll(
        mock.server,
        ['a', 'b', 'c'].map((name) => ({ name, task: 'burst:60', store: 'redis' })),
        redis.url,
      );
      expect(outcomes.map((o) => o.failed)).toEqual([{}, {}, {}]);
      expect(outcomes.map((o) => o.ok)).toEqual([60, 60, 60]);
      const refused = mock.arrivals.filter((a) => a.status === 429).length;
      expect(refused / mock.arrivals.length, `${refused} of ${mock.arrivals.length} requests refused`).toBeLessThanOrEqual(0.03);
      // The budget lives in Redis under a name made from the key, never the key itself.
      const keys = await inspect.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      const stored = JSON.stringify([keys, await Promise.all(keys.map((key) => inspect.hgetall(key)))]);
      expect(stored).not.toContain(mock.server.apiKey);
    } finally {
      inspect.disconnect();
      await mock.close();
    }
  });

  test('a 429 one process sees closes the gate of the others until its Retry-After ends', { timeout: 60_000 }, async () => {
    const mock = await startLoggedMock({});
    try {
      const running = runAll(
        mock.server,
        ['a', 'b'].map((name) => ({ name, task: 'steady:6000', store: 'redis' })),
        redis.url,
      );
      // Once both are sending, the next request, whoever sends it, is refused for 3 s.
      await expect.poll(() => new Set(mock.arrivals.map((a) => a.runner)).size, { timeout: 20_000 }).toBe(2);
      mock.server.service.failNext(1, 429, { retryAfterSeconds: 3 });
      const outcomes = await running;
      expect(outcomes.map((o) => o.failed)).toEqual([{}, {}]);
      const refusal = mock.arrivals.find((a) => a.status === 429)!;
      const other = refusal.runner === 'a' ? 'b' : 'a';
      // The other learns of the close within about a second (it reads the store while it sends); from then
      // until the close ends, it sends nothing. The bounds leave half a second either side for a busy machine.
      const during = mock.arrivals.filter((a) => a.runner === other && a.at > refusal.at + 1_500 && a.at < refusal.at + 2_500);
      expect(during, `${other} sent during the close`).toEqual([]);
      expect(mock.arrivals.filter((a) => a.runner === other && a.at > refusal.at + 3_000).length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});

describe.each(['ioredis', 'node-redis'])('Redis failing under a client’s calls (%s)', (kind) => {
  /** A client sharing its gate through its own redis-server, which the test stops, stalls and restarts. */
  async function setUp() {
    const own = await startRedis();
    const port = Number(new URL(own.url).port);
    const connection = kind === 'ioredis' ? new Redis(own.url, { lazyConnect: true }) : createClient({ url: own.url });
    connection.on('error', () => {});
    await connection.connect();
    const mock = await startMockServer({ rateLimit: { requestsPerSecond: 20 } });
    const { lines, logger } = captureLogger();
    const client = new Client({
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      rateLimit: { store: redisRateStore(connection) },
      logger,
      logLevel: 'warn',
    });
    return { own, port, connection, mock, client, lines };
  }

  /** Three loops of calls for `ms`; the count of calls that ended, and of those that failed. */
  async function callFor(client: Client, ms: number) {
    const end = Date.now() + ms;
    const counts = { ok: 0, failed: [] as unknown[] };
    const loop = async () => {
      while (Date.now() < end) {
        await client.workflows.list({ limit: 1 }).then(
          () => counts.ok++,
          (error: unknown) => counts.failed.push(error),
        );
      }
    };
    await Promise.all([loop(), loop(), loop()]);
    return counts;
  }

  const storeWarnings = (lines: string[]) => lines.filter((line) => /rate store/i.test(line));

  test('killed mid-run, then restarted: every call succeeds, with one warning', { timeout: 60_000 }, async () => {
    const { own, port, connection, mock, client, lines } = await setUp();
    let restarted: RedisServer | undefined;
    try {
      const calls = callFor(client, 6_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await own.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      restarted = await startRedis(port);
      const { ok, failed } = await calls;
      expect(failed).toEqual([]);
      expect(ok).toBeGreaterThan(20);
      expect(storeWarnings(lines)).toHaveLength(1);
    } finally {
      kind === 'ioredis' ? (connection as Redis).disconnect() : await (connection as ReturnType<typeof createClient>).destroy();
      await mock.close();
      await restarted?.stop();
      await own.stop();
    }
  });

  test('stalled (no answer for 2 s): every call succeeds, with one warning', { timeout: 60_000 }, async () => {
    const { own, connection, mock, client, lines } = await setUp();
    try {
      const calls = callFor(client, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      own.pause();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      own.resume();
      const { ok, failed } = await calls;
      expect(failed).toEqual([]);
      expect(ok).toBeGreaterThan(20);
      expect(storeWarnings(lines)).toHaveLength(1);
    } finally {
      own.resume();
      kind === 'ioredis' ? (connection as Redis).disconnect() : await (connection as ReturnType<typeof createClient>).destroy();
      await mock.close();
      await own.stop();
    }
  });
});
