/**
 * The figures of the reliability suite: recorded by the tests (in vitest's worker processes), printed as one
 * table by {@link ReliabilitySummaryReporter} (in the main process) when the run ends.
 *
 * Workers and the reporter share a directory (`WFA_RELIABILITY_DIR`, created by the config): each worker
 * appends one JSON line per record to its own file. Files, not task metadata, so that a figure is kept even
 * when the test that measured it fails, which is when it matters most.
 *
 * This module imports nothing from vitest at runtime: the config loads it in the main process.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** The counters of the table. Each is a sum over the whole run. */
export type Counter =
  /** Fault cases run: one SDK call (or one load/long run) facing one kind of misbehaviour. */
  | 'faultsInjected'
  /** Fault cases that ended in success or the documented typed error, within their time bound. */
  | 'faultsSurvived'
  /** Requests a server received more often than the retry rules allow (a POST sent twice, a lost or doubled marker). */
  | 'duplicates'
  /** Requests that were sent but never reached the server, or reached it but whose caller never heard back. */
  | 'lost'
  /** Occurrences of a secret in an error rendering, a log line, a client's inspection. */
  | 'secretsFound'
  /** Requests to a server of another origin that carried the API key. */
  | 'keysSentElsewhere'
  /** Places a secret was searched for (renderings, log lines, requests). */
  | 'secretSearches'
  /** Promise rejections nobody handled, seen by a test's own `unhandledRejection` listener. */
  | 'unhandledRejections'
  /** Sockets, servers and timers still open after a test file closed everything it started. */
  | 'openHandles'
  /** Runs of fast-check properties. */
  | 'propertyRuns'
  /** Requests the SDK sent to the tests' servers and that were answered. */
  | 'requests';

/** A measured figure with its bound, printed in the memory and time part of the table. */
export interface Figure {
  name: string;
  value: number;
  /** `bytes`: a growth, shown signed; `size`: an amount, shown unsigned. */
  unit: 'bytes' | 'size' | 'ms' | 'count' | 'bytes/call';
  /** The test asserts `value <= bound`. */
  bound?: number | undefined;
}

/** The families of attacks the suite makes, each printed as a row of the table with how many attacks held. */
export type Family =
  | 'compressed bodies'
  | 'user callbacks that hang, reject or throw'
  | 'page cycles'
  | 'secrets at cuts and in escaped forms'
  | 'deadlines across redirects and the prefix fallback'
  | 'hostile requests refused before sending'
  | 'build waits on hostile polls'
  | 'webhook deliveries that stall'
  | 'webhook deliveries too large, sent slowly with Expect: 100-continue';

type RecordLine =
  | { type: 'count'; name: Counter; n: number }
  | ({ type: 'figure' } & Figure)
  | { type: 'handles'; file: string; open: number; detail: string[] }
  | { type: 'attack'; family: Family; held: boolean };

const ENV = 'WFA_RELIABILITY_DIR';

/** Creates the directory the workers write to; the config calls it once and passes it on in `WFA_RELIABILITY_DIR`. */
export function createFiguresDir(): string {
  return mkdtempSync(join(tmpdir(), 'wfa-reliability-'));
}

function write(line: RecordLine): void {
  const dir = process.env[ENV];
  // Outside `npm run test:reliability` (a file run on its own with another config) the figures go nowhere.
  if (!dir) return;
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
}

/** Adds `n` to a counter of the table. */
export function count(name: Counter, n = 1): void {
  if (n !== 0) write({ type: 'count', name, n });
}

/**
 * Records one attack of a family: `held` when the SDK kept its documented guarantee. Call it after the test's
 * own assertions (or in a `finally` with their outcome), so that a broken guarantee shows in the table too.
 */
export function attacked(family: Family, held: boolean): void {
  write({ type: 'attack', family, held });
}

/** Records a measured figure (memory growth, a duration) for the table. */
export function figure(f: Figure): void {
  write({ type: 'figure', ...f });
}

// ---- secrets -------------------------------------------------------------------------------------------

/**
 * Every way a value can be shown: for an error, its `message`, `stack`, `toString()`, `JSON.stringify()`,
 * `util.inspect()` at depth Infinity with hidden properties, and the same for every `cause` (and every error
 * of an `AggregateError`) down the chain; for anything else, its `String()`, JSON and inspection.
 */
export function renderings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || seen.has(v)) return;
    seen.add(v);
    out.push(safe(() => inspect(v, { depth: Infinity, showHidden: true, maxArrayLength: Infinity, maxStringLength: Infinity })));
    out.push(safe(() => JSON.stringify(v) ?? ''));
    out.push(safe(() => String(v)));
    if (typeof v === 'object' && v !== null) {
      const e = v as { message?: unknown; stack?: unknown; cause?: unknown; errors?: unknown; body?: unknown };
      if (typeof e.message === 'string') out.push(e.message);
      if (typeof e.stack === 'string') out.push(e.stack);
      if ('body' in e)
        out.push(
          safe(() => JSON.stringify(e.body) ?? ''),
          safe(() => inspect(e.body, { depth: Infinity })),
          // As is: the two above escape every backslash, so a `\u0026`-style echo in a text body hides from them.
          safe(() => String(e.body)),
        );
      if ('cause' in e) visit(e.cause, depth + 1);
      if (Array.isArray(e.errors)) for (const inner of e.errors) visit(inner, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

function safe(render: () => string): string {
  try {
    return render();
  } catch (error) {
    return `[rendering threw ${String(error)}]`;
  }
}

/** How many of `texts` contain any of `secrets` (each text counted once per secret it contains). */
export function secretHits(texts: readonly string[], secrets: readonly string[]): number {
  let hits = 0;
  for (const text of texts) for (const secret of secrets) if (text.includes(secret)) hits++;
  return hits;
}

/** A console-like logger that keeps every line (and every extra argument, inspected), for secret searches. */
export function capturingLogger(): {
  lines: string[];
  logger: Record<'error' | 'warn' | 'info' | 'debug', (message: string, ...rest: unknown[]) => void>;
} {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string, ...rest: unknown[]) => {
      lines.push(`${level} ${message} ${rest.map((r) => inspect(r, { depth: Infinity })).join(' ')}`);
    };
  return { lines, logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') } };
}

// ---- open handles --------------------------------------------------------------------------------------

/** Resource kinds that keep a Node process alive or hold a socket. */
const WATCHED = new Set([
  'TCPSocketWrap',
  'TCPServerWrap',
  'TCPConnectWrap',
  'Timeout',
  'Immediate',
  'GetAddrInfoReqWrap',
  'HTTPClientAsyncResource',
  'HTTPINCOMINGMESSAGE',
  'ProcessWrap',
]);

/** Counts of the watched resources alive now, by kind. */
export function activeHandles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    if (WATCHED.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/**
 * Resources opened since `baseline` and still open, waiting up to `settleMs` for sockets that are closing
 * (a client socket learns its server closed one event-loop turn later).
 */
export async function openHandlesSince(baseline: Map<string, number>, settleMs = 2_000): Promise<{ open: number; detail: string[] }> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const now = activeHandles();
    const detail: string[] = [];
    let open = 0;
    for (const [kind, n] of now) {
      const extra = n - (baseline.get(kind) ?? 0);
      if (extra > 0) {
        open += extra;
        detail.push(`${kind} x${extra}`);
      }
    }
    if (open === 0 || Date.now() >= deadline) return { open, detail };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Records what a test file left open (after closing everything it started). */
export function recordOpenHandles(file: string, result: { open: number; detail: string[] }): void {
  write({ type: 'handles', file, ...result });
  count('openHandles', result.open);
}

// ---- the table -----------------------------------------------------------------------------------------

const COUNTER_ROWS: { name: Counter; label: string; mustBeZero?: boolean }[] = [
  { name: 'duplicates', label: 'duplicates observed', mustBeZero: true },
  { name: 'lost', label: 'requests lost', mustBeZero: true },
  { name: 'secretsFound', label: 'secrets found', mustBeZero: true },
  { name: 'keysSentElsewhere', label: 'API key sent to another origin', mustBeZero: true },
  { name: 'unhandledRejections', label: 'unhandled rejections', mustBeZero: true },
  { name: 'openHandles', label: 'open handles after the suite', mustBeZero: true },
];

function formatValue(value: number, unit: Figure['unit']): string {
  switch (unit) {
    case 'bytes':
      return `${value >= 0 ? '+' : ''}${(value / 1_048_576).toFixed(2)} MB`;
    case 'size':
      return `${(value / 1_048_576).toFixed(2)} MB`;
    case 'bytes/call':
      return `${value >= 0 ? '+' : ''}${value.toFixed(1)} B/call`;
    case 'ms':
      return `${Math.round(value)} ms`;
    case 'count':
      return String(value);
  }
}

/** Builds the summary table from the recorded lines and the run's results. */
export function summaryTable(lines: readonly RecordLine[], modules: readonly TestModule[], unhandledErrors: number): string {
  const totals = new Map<Counter, number>();
  const figures: Figure[] = [];
  const handles: string[] = [];
  const families = new Map<Family, { held: number; made: number }>();
  for (const line of lines) {
    if (line.type === 'count') totals.set(line.name, (totals.get(line.name) ?? 0) + line.n);
    else if (line.type === 'figure') figures.push(line);
    else if (line.type === 'attack') {
      const tally = families.get(line.family) ?? { held: 0, made: 0 };
      tally.made++;
      if (line.held) tally.held++;
      families.set(line.family, tally);
    } else if (line.open > 0) handles.push(`    ${line.file}: ${line.detail.join(', ')}`);
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failed++;
      else skipped++;
    }
  }
  const get = (name: Counter) => totals.get(name) ?? 0;
  const rows: [string, string, string][] = [];
  rows.push(['cases run', String(passed + failed + skipped), `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`]);
  rows.push(['property runs (fast-check)', String(get('propertyRuns')), '']);
  rows.push(['requests answered by test servers', String(get('requests')), '']);
  rows.push([
    'faults survived / injected',
    `${get('faultsSurvived')} / ${get('faultsInjected')}`,
    get('faultsSurvived') === get('faultsInjected') ? 'ok' : 'FAIL',
  ]);
  for (const [family, { held, made }] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    rows.push([`attacks: ${family}`, `${held} / ${made}`, held === made ? 'held' : 'FAIL']);
  }
  for (const row of COUNTER_ROWS) {
    let value = get(row.name);
    if (row.name === 'unhandledRejections') value += unhandledErrors;
    const note = row.name === 'secretsFound' ? `searched ${get('secretSearches')} renderings, lines and requests` : '';
    rows.push([row.label, String(value), `${value === 0 ? 'ok' : 'FAIL'} (must be 0)${note ? `; ${note}` : ''}`]);
  }
  for (const f of figures) {
    const within =
      f.bound === undefined
        ? ''
        : f.value <= f.bound
          ? `ok (bound ${formatValue(f.bound, f.unit)})`
          : `FAIL (bound ${formatValue(f.bound, f.unit)})`;
    rows.push([f.name, formatValue(f.value, f.unit), within]);
  }
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const rule = '-'.repeat(w0 + w1 + 40);
  const out = ['', 'Reliability summary', rule];
  for (const [label, value, note] of rows) out.push(`${label.padEnd(w0)}  ${value.padStart(w1)}  ${note}`);
  out.push(rule);
  if (handles.length) out.push('  open handles by file:', ...handles);
  return out.join('\n');
}

/**
 * Prints the summary table when the run ends, then removes the figures directory.
 *
 * @example
 * ```ts
 * reporters: ['default', new ReliabilitySummaryReporter(createFiguresDir())]
 * ```
 */
export class ReliabilitySummaryReporter implements Reporter {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const lines: RecordLine[] = [];
    try {
      for (const file of readdirSync(this.#dir)) {
        for (const text of readFileSync(join(this.#dir, file), 'utf8').split('\n')) {
          if (text) lines.push(JSON.parse(text) as RecordLine);
        }
      }
    } catch {
      // No figures recorded: the table still shows the cases.
    }
    rmSync(this.#dir, { recursive: true, force: true });
    console.log(summaryTable(lines, testModules, unhandledErrors.length));
  }
}
