/**
 * A wait leaves nothing that keeps a Node process alive: a child process that runs one wait against its own
 * local HTTP server, then closes the server and does nothing else, must exit on its own, however the wait
 * ended. A leaked timer (a 60 s sleep, the 10-minute deadline) or a leaked handle would hold it open for a
 * minute or more; the harness gives it 3 s, a margin no busy machine uses up. Aborts are triggered by the
 * server when the poll they interrupt arrives, so no scenario depends on the machine's speed.
 *
 * The child runs the SDK as shipped code: `src/index.ts` bundled by esbuild into a temporary directory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildExit, runChildUntilExit } from '../helpers/child-exit.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How long after the wait ends the child is given to exit before it is taken for kept alive and killed. */
const EXIT_WITHIN_MS = 3_000;

let dir = '';

/**
 * The child: serves `GET /v1/builds/:id` per scenario, runs one `waitForBuild`, closes its server, prints a
 * JSON line with the outcome and the signal's leftover listeners, and then simply stops having work to do.
 */
const CHILD = String.raw`
import http from 'node:http';
import { getEventListeners } from 'node:events';
import { Client } from './sdk.mjs';

const scenario = process.argv[2];
let polls = 0;
const building = { status: 'building', progress: 10 };

const server = http.createServer((req, res) => {
  polls++;
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  switch (scenario) {
    case 'completed':
    case 'leaky-control':
      return polls < 3 ? send(200, { status: 'building', progress: polls * 30 }) : send(200, { status: 'completed', download_url: 'http://127.0.0.1/x.zip' });
    case 'failed':
      return polls < 2 ? send(200, building) : send(200, { status: 'failed', logs: ['boom'] });
    case 'not-found':
      return send(404, { message: 'no such build' });
    case 'abort-mid-sleep':
      // Answered, then aborted while the wait sleeps its 60 s interval.
      send(200, building);
      return setTimeout(() => controller.abort(), 50);
    case 'abort-mid-request':
      if (polls === 1) return send(200, building);
      return controller.abort(); // the second poll is never answered: aborted while in flight
    case 'timeout-mid-request':
      return; // never answered: the wait's deadline passes while a poll is in flight
    default:
      return send(200, building);
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = new Client({ baseUrl: 'http://127.0.0.1:' + server.address().port, apiKey: 'wfa_child_key', apiPrefix: '/v1' });

const controller = new AbortController();
const options = { signal: controller.signal, intervalMs: 20 };
if (scenario === 'abort-before-first-poll') controller.abort();
if (scenario === 'abort-mid-sleep') options.intervalMs = 60_000;
if (scenario === 'timeout-mid-request') options.timeoutMs = 300;

let outcome;
try {
  const build = await client.waitForBuild('bld_1', options);
  outcome = build.status;
} catch (error) {
  outcome = error.name;
}
server.close();
server.closeAllConnections();
process.stdout.write(JSON.stringify({ outcome, polls, listeners: getEventListeners(controller.signal, 'abort').length }) + '\n');
// A deliberately leaked timer, to show this harness notices one.
if (scenario === 'leaky-control') setTimeout(() => {}, 60_000);
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfa-build-wait-leaks-'));
  await build({
    entryPoints: [join(ROOT, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: join(dir, 'sdk.mjs'),
    logLevel: 'silent',
  });
  await writeFile(join(dir, 'child.mjs'), CHILD);
}, 30_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface ChildRun extends ChildExit {
  readonly parsed: { outcome: string; polls: number; listeners: number } | undefined;
}

/** Runs the child for one scenario; kills it if it is still alive well after its report. */
async function runChild(scenario: string): Promise<ChildRun> {
  const run = await runChildUntilExit([join(dir, 'child.mjs'), scenario], EXIT_WITHIN_MS + 500, dir);
  return { ...run, parsed: run.report ? (JSON.parse(run.report) as ChildRun['parsed']) : undefined };
}

describe('a Node process that ran a wait exits on its own', () => {
  it.each([
    ['completed', 'completed', 3],
    ['failed', 'BuildFailedError', 2],
    ['not-found', 'NotFoundError', 1],
    ['abort-before-first-poll', 'AbortError', 0],
    ['abort-mid-sleep', 'AbortError', 1],
    ['abort-mid-request', 'AbortError', 2],
    // The one poll was sent; whether it reached the server before the deadline depends on the machine.
    ['timeout-mid-request', 'WaitTimeoutError', [0, 1]],
  ])('after the wait ends: %s', async (scenario, outcome, polls) => {
    const run = await runChild(scenario);

    expect(run.stderr).toBe('');
    expect(run.parsed).toEqual({ outcome, polls: Array.isArray(polls) ? expect.toBeOneOf(polls) : polls, listeners: 0 });
    expect(run.code).toBe(0);
    expect(run.exitedOnItsOwn).toBe(true);
  });

  it('and this harness does notice a process kept alive by a leftover timer', async () => {
    const run = await runChild('leaky-control');
    expect(run.parsed?.outcome).toBe('completed');
    expect(run.exitedOnItsOwn, 'still alive 3 s after the wait: killed').toBe(false);
  });
});
