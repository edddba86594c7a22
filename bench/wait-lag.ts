/**
 * How late `waitForBuild` sees a finished build, and how many polls it sends, against the naive loop
 * (`while (true) { get; sleep intervalMs }`), on a simulated clock: builds whose progress rises, moves in
 * steps or stalls; and 200 waits on one client paced at 20 requests a second. Deterministic (no real time
 * passes), so it is exact. Alone: node --import tsx bench/wait-lag.ts
 */
import { pathToFileURL } from 'node:url';
import { Client } from '../src/index.js';

/** One budget line, as `npm run bench` prints it. */
export interface WaitLagRow {
  name: string;
  measured: string;
  budget: string;
  pass: boolean;
}

type Pattern = 'rising' | 'stepwise' | 'stalled';
const PATTERNS: readonly Pattern[] = ['rising', 'stepwise', 'stalled'];
const BUILD_MS = 10_000;
const DEFAULT_INTERVAL_MS = 2_000;

/** Progress at `t` ms into a build of `duration` ms. Stepwise: 0, then 50 from 10 %, 90 from 60 %. */
function progressAt(pattern: Pattern, t: number, duration: number): number {
  if (pattern === 'rising') return Math.floor((100 * t) / duration);
  if (pattern === 'stepwise') return t < duration * 0.1 ? 0 : t < duration * 0.6 ? 50 : 90;
  return 0;
}

// ---- the simulated clock: setTimeout, Date.now and performance.now, moved only when nothing else can run

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, dateNow: Date.now, setImmediate };

class SimClock {
  now = 0;
  #timers = new Map<number, Timer>();
  #seq = 0;

  /** Replaces the timer globals until `restore()`. */
  install(): () => void {
    const epoch = real.dateNow();
    const g = globalThis as Record<string, unknown>;
    const handle = (id: number) => ({
      id,
      ref: () => handle(id),
      unref: () => handle(id),
      hasRef: () => true,
      [Symbol.toPrimitive]: () => id,
    });
    g['setTimeout'] = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
      const id = ++this.#seq;
      this.#timers.set(id, { at: this.now + Math.max(0, Number(ms) || 0), seq: id, fn: () => fn(...args) });
      return handle(id);
    };
    g['clearTimeout'] = (timer: unknown) => {
      if (timer != null) this.#timers.delete(Number(timer));
    };
    Date.now = () => epoch + this.now;
    Object.defineProperty(performance, 'now', { value: () => this.now, configurable: true, writable: true });
    return () => {
      g['setTimeout'] = real.setTimeout;
      g['clearTimeout'] = real.clearTimeout;
      Date.now = real.dateNow;
      delete (performance as { now?: unknown }).now;
    };
  }

  /** Runs `promise` to its end, moving the clock to the next timer whenever nothing else is left to run. */
  async run<T>(promise: Promise<T>): Promise<T> {
    let done = false;
    const outcome = promise.finally(() => {
      done = true;
    });
    outcome.catch(() => undefined);
    for (let steps = 0; !done; steps++) {
      for (let i = 0; i < 50 && !done; i++) await new Promise((resolve) => real.setImmediate(resolve));
      if (done) break;
      const next = [...this.#timers.values()].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next || steps > 100_000) throw new Error('wait-lag: the wait waits on nothing the clock can move');
      this.#timers.delete(next.seq);
      this.now = Math.max(this.now, next.at);
      next.fn();
    }
    return outcome;
  }
}

// ---- one simulated wait

interface Outcome {
  /** From the build's end to the wait's end, in ms. */
  lagMs: number;
  polls: number;
}

/** A `fetch` serving the build's state at the simulated time, counting polls. */
function buildService(clock: SimClock, pattern: Pattern, duration: number) {
  const service = { polls: 0, fetch: async (_input: unknown, _init?: unknown): Promise<Response> => new Response() };
  service.fetch = async () => {
    service.polls++;
    const t = clock.now;
    const body =
      t >= duration
        ? { status: 'completed', progress: 100, download_url: 'https://downloads.example.com/bld_1.zip' }
        : { status: 'building', progress: progressAt(pattern, t, duration) };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  };
  return service;
}

async function simulate(way: 'sdk' | 'naive', pattern: Pattern, duration: number, intervalMs: number | undefined): Promise<Outcome> {
  const clock = new SimClock();
  const restore = clock.install();
  try {
    const service = buildService(clock, pattern, duration);
    if (way === 'sdk') {
      const client = new Client({ apiKey: 'wfa_bench_key', baseUrl: 'http://sim.test', apiPrefix: '/v1', fetch: service.fetch });
      await clock.run(client.waitForBuild('bld_1', intervalMs === undefined ? {} : { intervalMs }));
    } else {
      const sleep = intervalMs ?? DEFAULT_INTERVAL_MS;
      const naive = async () => {
        while (true) {
          const build = (await (await service.fetch('http://sim.test/v1/builds/bld_1')).json()) as { status: string };
          if (build.status === 'completed') return;
          await new Promise((resolve) => setTimeout(resolve, sleep));
        }
      };
      await clock.run(naive());
    }
    return { lagMs: clock.now - duration, polls: service.polls };
  } finally {
    restore();
  }
}

/** Builds ending at every 100 ms from 10 s to 12 s: any phase against the poll ticks. */
const SPREAD = Array.from({ length: 21 }, (_, i) => BUILD_MS + i * 100);

/** One pattern's waits, the SDK's and the naive loop's. */
export interface WaitLagFigure {
  pattern: Pattern;
  intervalMs: number | undefined;
  sdk: Outcome;
  naive: Outcome;
  /** Worst over the builds of SPREAD. */
  sdkWorstLagMs: number;
  naiveWorstLagMs: number;
  /** Polls over every build of SPREAD together. */
  sdkSpreadPolls: number;
  naiveSpreadPolls: number;
}

/** The figures behind the rows: each pattern with the default interval, and stalled with `intervalMs: 1000`. */
export async function waitLagFigures(): Promise<WaitLagFigure[]> {
  const cases: [Pattern, number | undefined][] = [...PATTERNS.map((p): [Pattern, undefined] => [p, undefined]), ['stalled', 1_000]];
  const figures: WaitLagFigure[] = [];
  for (const [pattern, intervalMs] of cases) {
    const sdk = await simulate('sdk', pattern, BUILD_MS, intervalMs);
    const naive = await simulate('naive', pattern, BUILD_MS, intervalMs);
    let sdkWorstLagMs = 0;
    let naiveWorstLagMs = 0;
    let sdkSpreadPolls = 0;
    let naiveSpreadPolls = 0;
    for (const duration of SPREAD) {
      const s = await simulate('sdk', pattern, duration, intervalMs);
      const n = await simulate('naive', pattern, duration, intervalMs);
      sdkWorstLagMs = Math.max(sdkWorstLagMs, s.lagMs);
      naiveWorstLagMs = Math.max(naiveWorstLagMs, n.lagMs);
      sdkSpreadPolls += s.polls;
      naiveSpreadPolls += n.polls;
    }
    figures.push({ pattern, intervalMs, sdk, naive, sdkWorstLagMs, naiveWorstLagMs, sdkSpreadPolls, naiveSpreadPolls });
  }
  return figures;
}

/**
 * The build-wait budgets of issue 16, measured: the lag is at most one `intervalMs` and the polls are no more
 * than the naive loop's, for each progress pattern.
 */
export async function waitLag(): Promise<WaitLagRow[]> {
  const rows: WaitLagRow[] = [];
  for (const f of await waitLagFigures()) {
    const interval = f.intervalMs ?? DEFAULT_INTERVAL_MS;
    const label = `${f.pattern} progress${f.intervalMs === undefined ? '' : `, intervalMs ${f.intervalMs}`}`;
    rows.push({
      name: `wait lag, 10 s build, ${label}`,
      measured: `${f.sdk.lagMs} ms (naive ${f.naive.lagMs} ms)`,
      budget: `<= ${interval} ms`,
      pass: f.sdk.lagMs <= interval,
    });
    rows.push({
      name: `wait lag, worst of builds 10-12 s, ${label}`,
      measured: `${f.sdkWorstLagMs} ms (naive ${f.naiveWorstLagMs} ms)`,
      budget: `<= ${interval} ms`,
      pass: f.sdkWorstLagMs <= interval,
    });
    rows.push({
      name: `wait polls, builds 10-12 s, ${label}`,
      measured: `${f.sdkSpreadPolls} (naive ${f.naiveSpreadPolls})`,
      budget: `<= ${f.naiveSpreadPolls}`,
      pass: f.sdkSpreadPolls <= f.naiveSpreadPolls,
    });
  }
  const many = await manyWaitsFigure();
  const roundMs = (MANY * 1000) / PACE_PER_SECOND;
  rows.push({
    name: `${MANY} waits, one client paced at ${PACE_PER_SECOND}/s: polls a second, worst gap per build`,
    measured: `${many.pollsPerSecond.toFixed(1)}/s, ${Math.round(many.worstGapMs)} ms`,
    budget: `<= ${PACE_PER_SECOND}/s, <= ${roundMs * 1.1} ms`,
    pass: many.pollsPerSecond <= PACE_PER_SECOND && many.worstGapMs <= roundMs * 1.1,
  });
  rows.push({
    name: `${MANY} waits, one client: requests queued or in flight at once`,
    measured: `${many.maxQueued}`,
    budget: '<= 8',
    pass: many.maxQueued <= 8,
  });
  return rows;
}

// ---- many waits on one client, paced

const MANY = 200;
const PACE_PER_SECOND = 20;
const MANY_RUN_MS = 120_000;

/** What 200 waits on one client did against a service answering 20 requests a second, after their first round. */
export interface ManyWaitsFigure {
  pollsPerSecond: number;
  /** Per build, the longest time between two of its polls. */
  worstGapMs: number;
  /** The most requests queued at the pacer or in flight at once. */
  maxQueued: number;
}

/**
 * 200 waits (default interval, builds that never end) through one client whose requests are answered one at a
 * time at 20 a second, as a rate gate in front of the service lets them through, for two simulated minutes.
 */
export async function manyWaitsFigure(): Promise<ManyWaitsFigure> {
  const clock = new SimClock();
  const restore = clock.install();
  try {
    const polls: { at: number; id: string }[] = [];
    let nextSlot = 0;
    let queued = 0;
    let maxQueued = 0;
    const fetch = async (input: unknown): Promise<Response> => {
      const id = String(input instanceof Request ? input.url : input)
        .split('/')
        .pop()!;
      maxQueued = Math.max(maxQueued, ++queued);
      const slot = Math.max(clock.now, nextSlot);
      nextSlot = slot + 1000 / PACE_PER_SECOND;
      await new Promise((resolve) => setTimeout(resolve, slot - clock.now));
      queued--;
      polls.push({ at: clock.now, id });
      return new Response(JSON.stringify({ status: 'building', progress: 0 }), { headers: { 'content-type': 'application/json' } });
    };
    const client = new Client({ apiKey: 'wfa_bench_key', baseUrl: 'http://sim.test', apiPrefix: '/v1', fetch, rateLimit: false });
    const ids = Array.from({ length: MANY }, (_, i) => `bld_${i}`);
    await clock.run(Promise.allSettled(ids.map((id) => client.waitForBuild(id, { timeoutMs: MANY_RUN_MS }))));
    const firstRoundMs = (MANY * 1000) / PACE_PER_SECOND;
    const steady = polls.filter((p) => p.at >= firstRoundMs && p.at < MANY_RUN_MS);
    let worstGapMs = 0;
    for (const id of ids) {
      const times = steady.filter((p) => p.id === id).map((p) => p.at);
      for (let i = 1; i < times.length; i++) worstGapMs = Math.max(worstGapMs, times[i]! - times[i - 1]!);
    }
    return { pollsPerSecond: steady.length / ((MANY_RUN_MS - firstRoundMs) / 1000), worstGapMs, maxQueued };
  } finally {
    restore();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await waitLag();
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'budget'.padEnd(width)}  measured                     budget      pass`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.measured.padEnd(28)} ${r.budget.padEnd(11)} ${r.pass ? 'pass' : 'FAIL'}`);
  if (rows.some((r) => !r.pass)) process.exitCode = 1;
}
