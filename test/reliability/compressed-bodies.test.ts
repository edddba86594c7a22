/**
 * Compressed bodies: `maxResponseBytes` (and the 64 KiB cut of error bodies) counts bytes as decoded, not as
 * sent. Each server answers with a compression bomb, 1 GiB of zeros that is a few KB on the wire, with a true
 * `Content-Length`, and the call must end in the documented error after reading no more than the limit.
 */
import { constants, createBrotliCompress, createDeflate, createGzip, gzipSync, type Gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InternalServerError, ResponseValidationError } from '../../src/index.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { gc } from './gc.js';
import { activeHandles, attacked, count, figure, openHandlesSince, recordOpenHandles } from './summary.js';

const GiB = 1024 ** 3;
const MB = 1024 * 1024;
/** What a bounded read may cost: the limit, the stream's buffers and inflate's window, far below a GiB. */
const RSS_BOUND = 200 * MB;

/** Compresses `bytes` zeros, streamed through the compressor so the test never holds them. */
function bomb(make: () => Gzip | ReturnType<typeof createBrotliCompress>, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const stream = make();
    const out: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(out)));
    stream.on('error', reject);
    const chunk = Buffer.alloc(MB);
    let left = bytes / MB;
    const write = (): void => {
      while (left > 0) {
        left--;
        if (!stream.write(chunk)) {
          stream.once('drain', write);
          return;
        }
      }
      stream.end();
    };
    write();
  });
}

const bombs = new Map<string, Buffer>();
let baseline: Map<string, number>;
let worstRss = 0;

beforeAll(async () => {
  baseline = activeHandles();
  const gzip = await bomb(() => createGzip({ level: 9 }), GiB);
  bombs.set('gzip', gzip);
  bombs.set('gzip, gzip', gzipSync(gzip));
  bombs.set('deflate', await bomb(() => createDeflate({ level: 9 }), GiB));
  // Quality 5, not the default 11: the same 1.6 KB bomb in about 1 s instead of 46 s, which under CI's load ran
  // this setup past its minute.
  bombs.set('br', await bomb(() => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), GiB));
}, 60_000);

afterAll(async () => {
  figure({ name: 'memory: 1 GiB compression bombs, worst peak RSS', value: worstRss, unit: 'bytes', bound: RSS_BOUND });
  recordOpenHandles('compressed-bodies.test.ts', await openHandlesSince(baseline));
});

/** Runs `work`, sampling the resident set every 2 ms; returns its outcome and the peak growth. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ outcome: T; rss: number }> {
  for (let i = 0; i < 3; i++) gc();
  const base = process.memoryUsage.rss();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss() - base);
  };
  const timer = setInterval(sample, 2);
  try {
    const outcome = await work();
    sample();
    return { outcome, rss: peak };
  } finally {
    clearInterval(timer);
  }
}

const ENCODINGS = ['gzip', 'br', 'deflate', 'gzip, gzip'] as const;

describe('a compression bomb stops at the limit, as decoded', () => {
  let server: FaultServer;
  afterAll(async () => server?.close());

  /**
   * Serves the bomb with `status` and `headers`, makes the call with `maxRetries`, and runs `check` on what it
   * rejected with; records the attack and the peak RSS whichever way it ends.
   */
  async function attack(
    encoding: string,
    withLength: boolean,
    method: 'GET' | 'POST',
    answer: { status: number; headers: Record<string, string>; maxRetries: number },
    check: (outcome: unknown, attempts: number) => void,
  ): Promise<void> {
    server ??= await startFaultServer();
    const body = bombs.get(encoding)!;
    server.reset();
    server.otherwise({
      kind: 'custom',
      handle: (_req, res) => {
        const headers: Record<string, string | number> = { ...answer.headers, 'content-encoding': encoding };
        if (withLength) headers['content-length'] = body.length;
        res.writeHead(answer.status, headers).end(body);
      },
    });
    const client = new Client({ baseUrl: server.url, apiKey: 'wfa_live_bomb_Zx81', apiPrefix: '/v1', maxRetries: answer.maxRetries });
    let held = false;
    try {
      const call =
        method === 'GET' ? client.workflows.get('wf_1') : client.request({ method: 'POST', path: '/workflows', body: { name: 'x' } });
      const { outcome, rss } = await peakRss(() =>
        call.then(
          () => 'resolved',
          (error: unknown) => error,
        ),
      );
      check(outcome, server.log.length);
      expect(rss).toBeLessThan(RSS_BOUND);
      worstRss = Math.max(worstRss, rss);
      held = true;
    } finally {
      count('faultsInjected');
      if (held) count('faultsSurvived');
      attacked('compressed bodies', held);
    }
  }

  for (const encoding of ENCODINGS) {
    for (const withLength of [true, false]) {
      for (const method of ['GET', 'POST'] as const) {
        const name = `${encoding}, ${withLength ? 'with' : 'without'} Content-Length, ${method}`;

        it(`a 200: ${name} is a ResponseValidationError naming maxResponseBytes, after one attempt`, () =>
          attack(
            encoding,
            withLength,
            method,
            { status: 200, headers: { 'content-type': 'application/json' }, maxRetries: 2 },
            (outcome, attempts) => {
              expect(outcome).toBeInstanceOf(ResponseValidationError);
              expect((outcome as Error).message).toContain(`maxResponseBytes (${4 * MB} bytes)`);
              expect(attempts).toBe(1);
            },
          ));

        it(`a 503 page: ${name} keeps the first 64 KiB of each attempt's body, and retries as a 503`, () =>
          attack(
            encoding,
            withLength,
            method,
            { status: 503, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, maxRetries: 1 },
            (outcome, attempts) => {
              expect(outcome).toBeInstanceOf(InternalServerError);
              expect((outcome as InternalServerError).retryAfterMs).toBe(0);
              expect(String((outcome as InternalServerError).body).length).toBeLessThanOrEqual(64 * 1024);
              // A 503 is retried for a GET, never for a POST.
              expect(attempts).toBe(method === 'GET' ? 2 : 1);
            },
          ));
      }
    }
  }
});
