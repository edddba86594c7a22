#!/usr/bin/env node
/**
 * Checks the package the way users get it: from the tarball `npm pack` makes, installed into fresh scratch
 * projects with the registry's own zod and ky.
 *
 *   node scripts/check-package.mjs            # build, pack, install, check; exit 1 on any failure
 *   node scripts/check-package.mjs --no-build # use the dist/ already built
 *   node scripts/check-package.mjs --keep     # keep the scratch projects (their path is printed)
 *
 * What it checks:
 * - the tarball holds every file the `exports` map points at, and nothing from src/ or test/;
 * - Node, ESM `import` and CommonJS `require` of `.`, `/webhooks`, `/testing`, `/testing/msw`, with the same
 *   named exports in both formats, and a real call against the mock server from `/testing`;
 * - both formats loaded in one process: each copy's error guards (`is()` and `instanceof`) recognise errors
 *   thrown by the other copy, and only the right classes do;
 * - TypeScript consumers with `skipLibCheck: false`, on the oldest TypeScript we claim (5.5) and on the current
 *   one: `moduleResolution` node16 and nodenext (an ESM .mts file and a CommonJS .cts file each) and bundler.
 *   A Node project (@types/node 20, lib ES2022 without DOM, as @tsconfig/node20 has it) checks `.`, `/webhooks`
 *   and `/testing`; `/testing/msw` is checked with the DOM lib, which msw's own types need. A browser project
 *   (DOM lib, `types: []`, and no @types/node in node_modules at all) checks `.` and `/webhooks`.
 *   Each consumer holds a `@ts-expect-error` line, so a type that silently resolved to `any` fails the check.
 *   `--probe-below-floor` adds TypeScript 5.4 as information (never a failure).
 *
 * Rows: PASS, FAIL, KNOWN (an upstream limitation matched exactly, not ours: listed, not failed), INFO.
 *
 * The helpers are exported for scripts/browser-consumer.mjs, which builds a page from the same tarball.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/**
 * The TypeScript versions consumers are checked with: the oldest we claim, and the current one.
 * 5.4 is the floor issue 5 asked us to decide: the published types are generated interfaces with no zod in them,
 * and 5.4 checks them with skipLibCheck false (`--probe-below-floor` tries the version before).
 */
export const TS_FLOOR = '5.4.5';
export const TS_CURRENT = pkg.devDependencies.typescript; // the repository's own: ~6.0.x
const TS_BELOW_FLOOR = '5.4.5';

// ---- small process helpers -------------------------------------------------------------------------------

/** Runs a command; resolves with { code, stdout, stderr, ms } and never rejects on a non-zero exit. */
export function run(cmd, args, { cwd = ROOT, env = {}, timeoutMs = 600_000 } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), ms: Date.now() - started });
      },
    );
  });
}

/** Like {@link run}, but throws with the output when the command fails. */
export async function must(cmd, args, options) {
  const result = await run(cmd, args, options);
  if (result.code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.code}) in ${options?.cwd ?? ROOT}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quietNpm = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

// ---- build, pack, install ------------------------------------------------------------------------------

/** Builds dist/ (unless `build` is false, then dist/ must exist) and packs it; returns the tarball's path. */
export async function packTarball({ build = true, destination } = {}) {
  if (build) await must(npm, ['run', 'build'], { env: quietNpm });
  else if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` or drop --no-build');
  mkdirSync(destination, { recursive: true });
  const { stdout } = await must(npm, ['pack', '--json', '--pack-destination', destination], { env: { ...quietNpm, npm_config_ignore_scripts: 'true' } });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  return { tarball: join(destination, info.filename), files: info.files.map((f) => f.path), size: info.size, unpackedSize: info.unpackedSize };
}

/** Creates a scratch project in `dir` and installs the tarball plus `deps` (registry specs) into it. */
export async function createScratchProject(dir, tarball, deps = [], { type } = {}) {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: `scratch-${dir.split(/[\\/]/).pop()}`, version: '0.0.0', private: true, ...(type ? { type } : {}) };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await must(npm, ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball, ...deps], { cwd: dir, env: quietNpm });
}

// ---- the result table ------------------------------------------------------------------------------------

const results = [];

async function check(group, name, fn) {
  const started = Date.now();
  try {
    const detail = (await fn()) ?? '';
    results.push({ group, name, ok: true, detail, ms: Date.now() - started });
  } catch (error) {
    results.push({ group, name, ok: false, detail: error instanceof Error ? error.message : String(error), ms: Date.now() - started });
  }
}

function printTable(title) {
  const rows = results.map((r) => [r.status ?? (r.ok ? 'PASS' : 'FAIL'), r.group, r.name, `${(r.ms / 1000).toFixed(1)} s`, firstLine(r.detail)]);
  const head = ['', 'group', 'check', 'time', 'detail'];
  const widths = head.map((h, i) => Math.min(i === 4 ? 200 : 60, Math.max(h.length, ...rows.map((row) => row[i].length))));
  const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${title}\n`);
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    console.log(`\n${failed.length} of ${results.length} checks FAILED. Details:\n`);
    for (const r of failed) console.log(`--- FAIL ${r.group} / ${r.name}\n${r.detail.trim()}\n`);
  } else {
    console.log(`\nAll ${results.length} checks passed.`);
  }
  const known = results.filter((r) => r.status === 'KNOWN').length;
  if (known) console.log(`(${known} KNOWN rows: upstream limitations, documented in docs/getting-started.md; not failures)`);
  return failed.length;
}

function firstLine(text) {
  const line = String(text).trim().split('\n')[0] ?? '';
  return line.length > 110 ? `${line.slice(0, 107)}...` : line;
}

// ---- runtime checks (Node) -------------------------------------------------------------------------------

const SUBPATHS = ['', '/webhooks', '/testing', '/testing/msw'];

const WORKFLOW = `{
  name: 'Packaging check',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#ops' } }],
}`;

// One ESM program: every subpath, a real create/get/list/waitForBuild against the mock server.
const ESM_PROGRAM = `
import assert from 'node:assert/strict';
import * as root from 'workflow-automation-sdk';
import * as webhooks from 'workflow-automation-sdk/webhooks';
import * as testing from 'workflow-automation-sdk/testing';
import * as testingMsw from 'workflow-automation-sdk/testing/msw';

const { Client, NotFoundError, ValidationError } = root;
assert.equal(typeof Client, 'function');
assert.equal(typeof webhooks.parseWebhookEvent, 'function');
assert.equal(typeof testing.startMockServer, 'function');
assert.equal(typeof testingMsw.createMockHandlers, 'function');
assert.equal(testingMsw.createMockHandlers().length, 1);

const server = await testing.startMockServer({ buildDurationMs: 50 });
try {
  const client = new Client({ baseUrl: server.url, apiKey: server.apiKey });
  const created = await client.workflows.create(${WORKFLOW});
  assert.equal((await client.workflows.get(created.id)).id, created.id);
  const ids = [];
  for await (const wf of client.workflows.list()) ids.push(wf.id);
  assert.deepEqual(ids, [created.id]);
  const build = await client.waitForBuild(created, { intervalMs: 20 });
  assert.equal(build.status, 'completed');
  await assert.rejects(client.workflows.get('wf_missing'), (e) => NotFoundError.is(e) && e instanceof NotFoundError && e.status === 404);
  await assert.rejects(client.workflows.create({ name: '' }), (e) => e instanceof ValidationError);
} finally {
  await server.close();
}
const event = webhooks.parseWebhookEvent(JSON.stringify(webhooks.createWebhookPayload({ workflow_id: 'wf_1' })));
assert.equal(event.event, 'build.completed');
console.log('esm ok: create/get/list/waitForBuild/errors against the mock server');
`;

const CJS_PROGRAM = `
const assert = require('node:assert/strict');
const root = require('workflow-automation-sdk');
const webhooks = require('workflow-automation-sdk/webhooks');
const testing = require('workflow-automation-sdk/testing');
const testingMsw = require('workflow-automation-sdk/testing/msw');
const manifest = require('workflow-automation-sdk/package.json');
assert.equal(manifest.name, 'workflow-automation-sdk');
assert.equal(typeof testingMsw.createMockHandlers, 'function');

(async () => {
  const server = await testing.startMockServer({ buildDurationMs: 50 });
  try {
    // ky is bundled into the CJS build (it is ESM-only): a real request proves require() works past load time.
    const client = new root.Client({ baseUrl: server.url, apiKey: server.apiKey });
    const created = await client.workflows.create(${WORKFLOW});
    const pages = await client.workflows.list({ limit: 10 });
    assert.equal(pages.items.length, 1);
    const build = await client.waitForBuild(created, { intervalMs: 20 });
    assert.equal(build.status, 'completed');
    await assert.rejects(client.workflows.get('wf_missing'), (e) => root.NotFoundError.is(e) && e instanceof root.ApiError);
  } finally {
    await server.close();
  }
  const event = webhooks.parseWebhookEvent(JSON.stringify(webhooks.createWebhookPayload()));
  assert.equal(event.event, 'build.completed');
  console.log('cjs ok: create/list/waitForBuild/errors against the mock server');
})().catch((e) => { console.error(e); process.exit(1); });
`;

// ESM and CJS in one process: two copies of every class, errors crossing between them.
const DUAL_PROGRAM = `
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from 'workflow-automation-sdk';
import * as esmHooks from 'workflow-automation-sdk/webhooks';
import { startMockServer } from 'workflow-automation-sdk/testing';
const require = createRequire(import.meta.url);
const cjs = require('workflow-automation-sdk');
const cjsHooks = require('workflow-automation-sdk/webhooks');

assert.notEqual(esm.Client, cjs.Client, 'two copies are loaded');
assert.notEqual(esm.NotFoundError, cjs.NotFoundError);

const server = await startMockServer();
const checks = [];
try {
  for (const [from, to, fromName, toName] of [[cjs, esm, 'cjs', 'esm'], [esm, cjs, 'esm', 'cjs']]) {
    const client = new from.Client({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    const notFound = await client.workflows.get('wf_missing').catch((e) => e);
    assert.ok(notFound instanceof from.NotFoundError, fromName + ' error from its own client');
    for (const name of ['NotFoundError', 'ApiError', 'WfaError']) {
      assert.ok(to[name].is(notFound), toName + '.' + name + '.is(' + fromName + ' error)');
      assert.ok(notFound instanceof to[name], fromName + ' error instanceof ' + toName + '.' + name);
      checks.push(toName + '.' + name + ' ~ ' + fromName);
    }
    for (const name of ['RateLimitError', 'ConflictError', 'ConnectionError', 'ValidationError']) {
      assert.ok(!to[name].is(notFound), 'not ' + toName + '.' + name);
      assert.ok(!(notFound instanceof to[name]), 'not instanceof ' + toName + '.' + name);
    }
    const invalid = await client.workflows.create({ name: '' }).catch((e) => e);
    assert.ok(to.ValidationError.is(invalid) && invalid instanceof to.ValidationError && !(invalid instanceof to.ApiError));
    const unauthorized = await new from.Client({ baseUrl: server.url, apiKey: 'wrong', maxRetries: 0 }).orders.list().catch((e) => e);
    assert.ok(to.AuthenticationError.is(unauthorized) && unauthorized instanceof to.AuthenticationError);
  }
} finally {
  await server.close();
}
// The webhooks entry shares the error classes with the root entry, across formats too.
const parseError = (() => { try { cjsHooks.parseWebhookEvent('not json'); } catch (e) { return e; } })();
assert.ok(esm.WebhookParseError.is(parseError) && parseError instanceof esm.WebhookParseError && parseError instanceof esmHooks.WfaError);
const parseError2 = (() => { try { esmHooks.parseWebhookEvent('{}'); } catch (e) { return e; } })();
assert.ok(cjs.WebhookParseError.is(parseError2) && parseError2 instanceof cjs.WfaError);
// A user's own subclass keeps ordinary instanceof semantics.
class MyError extends esm.NotFoundError {}
assert.ok(!(new cjs.NotFoundError({ status: 404, body: '', headers: {}, method: 'GET', url: 'https://x/' }) instanceof MyError));
console.log('dual ok: ' + checks.length + ' cross-copy guards, both directions');
`;

// The named exports of each subpath, in each format, must be the same set.
const PARITY_PROGRAM = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const sub of ${JSON.stringify(SUBPATHS)}) {
  const id = 'workflow-automation-sdk' + sub;
  const e = Object.keys(await import(id)).filter((k) => k !== 'default' && k !== 'module.exports').sort();
  const c = Object.keys(require(id)).filter((k) => k !== '__esModule').sort();
  out[sub || '.'] = { esm: e, cjs: c };
}
console.log(JSON.stringify(out));
`;

async function runtimeChecks(project) {
  const write = (name, text) => writeFileSync(join(project, name), text);
  write('esm.mjs', ESM_PROGRAM);
  write('cjs.cjs', CJS_PROGRAM);
  write('dual.mjs', DUAL_PROGRAM);
  write('parity.mjs', PARITY_PROGRAM);

  await check('node', 'ESM import: 4 entry points + calls to the mock server', async () => {
    const r = await run(process.execPath, ['esm.mjs'], { cwd: project, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(r.stderr || r.stdout);
    return r.stdout.trim();
  });
  await check('node', 'CJS require: 4 entry points + package.json + calls', async () => {
    const r = await run(process.execPath, ['cjs.cjs'], { cwd: project, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(r.stderr || r.stdout);
    return r.stdout.trim();
  });
  await check('node', 'ESM + CJS in one process: is()/instanceof across copies', async () => {
    const r = await run(process.execPath, ['dual.mjs'], { cwd: project, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(r.stderr || r.stdout);
    return r.stdout.trim();
  });
  await check('node', 'same named exports from import and require', async () => {
    const r = await run(process.execPath, ['parity.mjs'], { cwd: project, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(r.stderr || r.stdout);
    const table = JSON.parse(r.stdout);
    const diffs = [];
    let count = 0;
    for (const [sub, { esm, cjs }] of Object.entries(table)) {
      count += esm.length;
      const onlyEsm = esm.filter((k) => !cjs.includes(k));
      const onlyCjs = cjs.filter((k) => !esm.includes(k));
      if (onlyEsm.length || onlyCjs.length) diffs.push(`${sub}: only ESM [${onlyEsm}] only CJS [${onlyCjs}]`);
    }
    if (diffs.length) throw new Error(diffs.join('\n'));
    return `${count} names over ${Object.keys(table).length} entry points: ${Object.entries(table).map(([s, v]) => `${s} ${v.esm.length}`).join(', ')}`;
  });
}

// ---- TypeScript consumers ---------------------------------------------------------------------------------

// Type-level use of each entry point. The @ts-expect-error lines fail the check if a type came out as `any`.
const TS_ROOT = `
import { Client, NotFoundError, RateLimitError, WfaError, type Build, type Workflow, type ClientOptions, type Page } from 'workflow-automation-sdk';

export async function useClient(options: ClientOptions): Promise<string | undefined> {
  const client = new Client(options);
  const created: Workflow = await client.workflows.create(${WORKFLOW});
  for await (const wf of client.workflows.list({ status: 'building' })) {
    const name: string = wf.name;
    void name;
  }
  const page: Page<Workflow> = await client.workflows.list({ limit: 5 });
  void page.items.length;
  const build = await client.waitForBuild(created, { intervalMs: 10, signal: AbortSignal.timeout(1000) });
  const url: string = build.download_url;
  const current: Build = await client.builds.get('bld_1');
  void current.progress;
  try {
    await client.workflows.get('wf_1');
  } catch (e) {
    if (NotFoundError.is(e)) return String(e.status);
    if (RateLimitError.is(e)) return String(e.retryAfterMs);
    if (e instanceof WfaError) return e.message;
  }
  // @ts-expect-error a number is not a workflow name: proves the types are not \`any\`
  await client.workflows.create({ name: 1, platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
  return url;
}
`;

const TS_WEBHOOKS = `
import { createWebhookHandler, parseWebhookEvent, WebhookParseError, type WebhookEvent } from 'workflow-automation-sdk/webhooks';

export const handler: (request: Request) => Promise<Response> = createWebhookHandler({
  on: { 'build.completed': (event) => { const url: string = event.data.download_url; void url; } },
});

export function read(body: string): string | undefined {
  try {
    const event: WebhookEvent = parseWebhookEvent(body);
    if (event.event === 'build.completed') return event.data.download_url;
  } catch (e) {
    if (WebhookParseError.is(e)) return e.path;
  }
  // @ts-expect-error not a known option: proves the types are not \`any\`
  parseWebhookEvent(body, { nonsense: true });
  return undefined;
}
`;

const TS_WEBHOOKS_NODE = `
import { createServer } from 'node:http';
import { createWebhookHandler, toNodeHandler } from 'workflow-automation-sdk/webhooks';

export const server = createServer(toNodeHandler(createWebhookHandler({ on: {} })));
`;

const TS_TESTING = `
import { startMockServer, createMockService, type MockService } from 'workflow-automation-sdk/testing';

export async function mock(): Promise<string> {
  const server = await startMockServer({ buildDurationMs: 10 });
  const service: MockService = createMockService();
  service.failNext(1, 503);
  service.close();
  await server.close();
  // @ts-expect-error not a status: proves the types are not \`any\`
  service.failNext(1, 'sometimes');
  return server.url;
}
`;

const TS_TESTING_MSW = `
import { createMockHandlers, createMockService, MOCK_BASE_URL, type MockHandlers } from 'workflow-automation-sdk/testing/msw';

export const handlers: MockHandlers = createMockHandlers({ baseUrl: MOCK_BASE_URL, buildDurationMs: 10 });
export const again: MockHandlers = createMockHandlers(createMockService(), { baseUrl: 'https://wfa.test' });
export const key: string = handlers.service.apiKey;
// @ts-expect-error not a status: proves the types are not \`any\`
handlers.service.failNext(1, 'sometimes');
`;

const BASE_OPTIONS = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  esModuleInterop: true,
  forceConsistentCasingInFileNames: true,
};

/**
 * The consumer configurations. `files` maps a source name to its text; node16/nodenext get an ESM (.mts) and
 * a CommonJS (.cts) file each, so both the `import` and the `require` halves of the exports map are checked.
 */
function tsCases() {
  // A plain Node project: no DOM lib, Fetch's types from @types/node (as @tsconfig/node20 sets it up).
  const nodeSources = { root: TS_ROOT, webhooks: TS_WEBHOOKS, webhooksNode: TS_WEBHOOKS_NODE, testing: TS_TESTING };
  const nodeLib = { lib: ['ES2022'], types: ['node'] };
  // msw's own declaration files need the DOM lib (they name ResponseType, MessageEvent, BodyInit...), so the
  // /testing/msw entry is checked in a Node project that has it, as msw's users have.
  const mswLib = { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'] };
  const cases = [];
  for (const mode of ['node16', 'nodenext']) {
    cases.push({ project: 'node', name: `${mode} ESM (.mts): . /webhooks /testing`, options: { ...nodeLib, module: mode, moduleResolution: mode }, ext: '.mts', sources: nodeSources });
    cases.push({ project: 'node', name: `${mode} CJS (.cts): . /webhooks /testing`, options: { ...nodeLib, module: mode, moduleResolution: mode }, ext: '.cts', sources: nodeSources });
  }
  cases.push({ project: 'node', name: 'bundler: . /webhooks /testing', options: { ...nodeLib, module: 'esnext', moduleResolution: 'bundler' }, ext: '.ts', sources: nodeSources });
  cases.push({ project: 'node', name: 'nodenext ESM (.mts) + DOM lib: /testing/msw', options: { ...mswLib, module: 'nodenext', moduleResolution: 'nodenext' }, ext: '.mts', sources: { msw: TS_TESTING_MSW } });
  cases.push({
    project: 'node',
    name: 'nodenext CJS (.cts) + DOM lib: /testing/msw',
    options: { ...mswLib, module: 'nodenext', moduleResolution: 'nodenext' },
    ext: '.cts',
    sources: { msw: TS_TESTING_MSW },
    // msw 2's CommonJS types import the ESM-only package rettime, which TypeScript accepts from a CommonJS
    // file only from 5.8 on (require of ESM under nodenext). Known upstream, not ours: reported, not failed,
    // as long as every error is inside msw's own files.
    knownUpstream: (version, output) =>
      versionBelow(version, '5.8') && errorFiles(output).every((f) => /node_modules\/(msw|@mswjs|rettime)\//.test(f))
        ? 'msw 2 CommonJS types need TypeScript >= 5.8 (TS1479 on rettime, inside msw)'
        : undefined,
  });
  // Browser projects: DOM lib, and no Node types. The browser project has no @types/node in node_modules at all
  // (it has no msw: msw's @inquirer dependencies install @types/node), so nothing can pull Node's types in by
  // accident. One case per entry point a browser may import, so a failure names the entry point.
  const browser = { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], module: 'esnext', moduleResolution: 'bundler' };
  cases.push({ project: 'browser', name: 'bundler, browser (no @types/node): .', options: browser, ext: '.ts', sources: { root: TS_ROOT } });
  cases.push({ project: 'browser', name: 'bundler, browser (no @types/node): /webhooks', options: browser, ext: '.ts', sources: { webhooks: TS_WEBHOOKS } });
  cases.push({ project: 'node', name: 'bundler, browser (types: [], DOM lib): /testing/msw', options: browser, ext: '.ts', sources: { msw: TS_TESTING_MSW } });
  return cases;
}

function versionBelow(version, floor) {
  const [a = 0, b = 0] = version.replace(/^[~^]/, '').split('.').map(Number);
  const [c = 0, d = 0] = floor.split('.').map(Number);
  return a < c || (a === c && b < d);
}

/** The files tsc reported errors in. */
function errorFiles(output) {
  return [...output.matchAll(/^(\S[^\n(]*)\(\d+,\d+\): error/gm)].map((m) => m[1]);
}

async function typeChecks(projects, tsVersions) {
  const cases = tsCases();
  const jobs = [];
  let n = 0;
  for (const [alias, version] of tsVersions) {
    for (const c of cases) {
      const dir = join(projects[c.project], `case-${++n}`);
      mkdirSync(dir, { recursive: true });
      const files = [];
      for (const [name, text] of Object.entries(c.sources)) {
        writeFileSync(join(dir, `${name}${c.ext}`), text);
        files.push(`${name}${c.ext}`);
      }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...BASE_OPTIONS, ...c.options }, files }, null, 2));
      const tsc = join(projects[c.project], 'node_modules', alias, 'bin', 'tsc');
      jobs.push({ group: `ts ${version}`, version, name: c.name, dir, tsc, expectFail: alias === 'ts-below-floor', knownUpstream: c.knownUpstream });
    }
  }
  // Two at a time: the machine has two cores and tsc is single-threaded.
  const outcomes = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < jobs.length) {
        const i = next++;
        const job = jobs[i];
        outcomes[i] = await run(process.execPath, [job.tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: job.dir, timeoutMs: 180_000 });
      }
    }),
  );
  jobs.forEach((job, i) => {
    const r = outcomes[i];
    const output = `${r.stdout}${r.stderr}`.trim();
    const relevant = output.replaceAll(`${job.dir}/`, '').replaceAll(join(job.dir, '..') + '/', '');
    const entry = { group: job.group, name: job.name, ms: r.ms };
    const upstream = r.code !== 0 ? job.knownUpstream?.(job.version, relevant) : undefined;
    if (job.expectFail) {
      results.push({ ...entry, status: 'INFO', name: `${job.name} (below the floor)`, ok: true, detail: r.code === 0 ? 'passes' : `fails: ${firstLine(relevant)}` });
    } else if (upstream) {
      results.push({ ...entry, ok: true, status: 'KNOWN', detail: `known upstream: ${upstream}` });
    } else {
      results.push({ ...entry, ok: r.code === 0, detail: r.code === 0 ? 'tsc --noEmit: no errors' : relevant });
    }
  });
}

// ---- tarball contents ----------------------------------------------------------------------------------------

function exportTargets(exportsField) {
  const out = new Set();
  const walk = (v) => {
    if (typeof v === 'string') out.add(v.replace(/^\.\//, ''));
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(exportsField);
  return [...out];
}

// ---- main ----------------------------------------------------------------------------------------------------

async function main() {
  const args = new Set(process.argv.slice(2));
  if (args.has('--help')) {
    console.log('usage: node scripts/check-package.mjs [--no-build] [--keep] [--probe-below-floor]');
    return;
  }
  const build = !args.has('--no-build');
  const keep = args.has('--keep');
  const probe = args.has('--probe-below-floor');
  const work = mkdtempSync(join(tmpdir(), 'wfa-check-package-'));
  console.log(`scratch projects in ${work}${keep ? ' (kept)' : ''}`);

  try {
    console.log(build ? '== npm run build, npm pack' : '== npm pack (dist/ as built)');
    const packed = await packTarball({ build, destination: join(work, 'pack') });
    console.log(`   ${relative(work, packed.tarball)}: ${(packed.size / 1024).toFixed(1)} KB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked, ${packed.files.length} files`);

    await check('tarball', 'every exports target is packed; no src/ or test/', () => {
      const missing = exportTargets(pkg.exports).filter((f) => !packed.files.includes(f));
      const stray = packed.files.filter((f) => /^(src|test|scripts|examples|docs)\//.test(f));
      if (missing.length || stray.length) throw new Error(`missing: [${missing}] stray: [${stray}]`);
      return `${exportTargets(pkg.exports).length} targets present, ${packed.files.length} files`;
    });

    const tsVersions = [['ts-floor', TS_FLOOR], ['ts-current', TS_CURRENT], ...(probe ? [['ts-below-floor', TS_BELOW_FLOOR]] : [])];
    const tsDeps = tsVersions.map(([alias, version]) => `${alias}@npm:typescript@${version}`);
    const msw = `msw@${pkg.devDependencies.msw}`;
    const projects = { node: join(work, 'node'), browser: join(work, 'browser') };

    console.log('== npm install into fresh scratch projects (node: +msw +@types/node; browser: nothing else)');
    // Node consumers: the runtime checks, and type checks with Node's types.
    await createScratchProject(projects.node, packed.tarball, [msw, `@types/node@${pkg.devDependencies['@types/node']}`, ...tsDeps]);
    // Browser consumers: nothing of Node's types in node_modules, so nothing can pull them in by accident.
    await createScratchProject(projects.browser, packed.tarball, tsDeps, { type: 'module' });
    await check('install', 'browser project has no @types/node', () => {
      if (existsSync(join(projects.browser, 'node_modules', '@types', 'node'))) throw new Error('@types/node was installed as a dependency of something');
      const installed = JSON.parse(readFileSync(join(projects.node, 'node_modules', 'workflow-automation-sdk', 'package.json'), 'utf8')).dependencies ?? {};
      const names = Object.entries(installed).map(([k, v]) => `${k}@${v}`);
      return names.length ? `dependencies from the registry: ${names.join(', ')}` : 'no runtime dependencies';
    });

    console.log('== Node runtime checks');
    await runtimeChecks(projects.node);
    console.log(`== TypeScript consumers: ${tsVersions.map(([, v]) => v).join(', ')}`);
    await typeChecks(projects, tsVersions);
  } catch (error) {
    results.push({ group: 'setup', name: 'build / pack / install', ok: false, detail: error instanceof Error ? error.stack ?? error.message : String(error), ms: 0 });
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }

  const failed = printTable(`workflow-automation-sdk@${pkg.version}: package checks (TypeScript floor ${TS_FLOOR}, current ${TS_CURRENT})`);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
