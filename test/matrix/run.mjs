#!/usr/bin/env node
/**
 * The runtime matrix (`npm run test:matrix`, after `npm run build`): packs the SDK, installs the tarball here
 * as users do, and runs smoke.mjs in each runtime and framework against its own real HTTP mock on 127.0.0.1.
 * Prints one line per runtime/framework with its version and the transport its clients sent through
 * (`node:http` or `fetch`); exits 1 on any failure. Runtimes come from
 * test/matrix/package.json (`npm --prefix test/matrix ci`), so the root install does not carry them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const bin = (path) => join(here, 'node_modules', path);
const version = (file, args = ['--version']) => execFileSync(file, args, { encoding: 'utf8' }).trim().split('\n')[0];
const pkgVersion = (name) => JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;
const RUN_TIMEOUT_MS = 180_000;
const ORDERS = 12; // three pages of 5
const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', NEXT_TELEMETRY_DISABLED: '1' };

if (!existsSync(join(root, 'dist/index.js'))) throw new Error('no dist/: run `npm run build` first');
if (!existsSync(join(here, 'node_modules/.package-lock.json'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
}
const work = mkdtempSync(join(tmpdir(), 'wfa-matrix-'));
const pack = (args) =>
  JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work, ...args], { cwd: root, encoding: 'utf8' }))[0].filename;
// The SDK and the MCP server (packages/mcp), which depends on it: installed together, as `npx workflow-automation-mcp` does.
const tarballs = [pack([]), pack(['-w', 'workflow-automation-mcp'])].map((filename) => join(work, filename));
// --no-save: the tarballs change with every build, so they stay out of this folder's package.json and lockfile.
execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...tarballs], { cwd: here, stdio: 'ignore' });
const { DEFAULT_MOCK_USER, startMockServer } = await import('workflow-automation-sdk/testing');
const { RESULT_PREFIX, runSmoke } = await import('./smoke.mjs');
const { runMcp } = await import('./mcp.mjs');

/** A mock server and its control side (webhook URL, deliveries, a deliberately invalid response) for one run. */
async function startMock() {
  const mock = await startMockServer({ buildDurationMs: 300, ordersPerUser: ORDERS });
  const controlServer = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
    const send = (status, value) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url.startsWith('/invalid/')) return send(200, { id: 42, name: 'an id must be a string' });
    if (req.url === '/webhook-url') return send(200, mock.service.setWebhookUrl(body.url) ?? {});
    if (req.url === '/deliveries') {
      await mock.service.flush();
      return send(200, mock.service.webhookDeliveries());
    }
    send(404, {});
  });
  await new Promise((resolve) => controlServer.listen(0, '127.0.0.1', resolve));
  const config = {
    baseUrl: mock.url,
    controlUrl: `http://127.0.0.1:${controlServer.address().port}`,
    apiKey: mock.apiKey,
    email: DEFAULT_MOCK_USER.email,
    password: DEFAULT_MOCK_USER.password,
    ordersPerUser: ORDERS,
  };
  const close = async () => {
    controlServer.closeAllConnections();
    await new Promise((resolve) => controlServer.close(resolve));
    await mock.close();
  };
  return { config, close };
}

/** Runs a child to its end (bounded) and reads the result line it printed. */
function runChild(file, args, config, cwd = here) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: { ...quiet, WFA_MATRIX: JSON.stringify(config) } });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (line) resolve(JSON.parse(line.slice(RESULT_PREFIX.length)));
      else reject(new Error(`exited ${code ?? signal} without a result:\n${out.slice(-2000)}`));
    });
  });
}

async function runWorkerd(config) {
  const { build } = await import('esbuild');
  const { Miniflare } = await import('miniflare');
  const bundle = await build({
    entryPoints: [join(here, 'worker.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'error',
    metafile: true,
  });
  const sdkInputs = Object.keys(bundle.metafile.inputs).filter((file) => /workflow-automation-sdk|\/src\//.test(file));
  if (!sdkInputs.length || sdkInputs.some((file) => !file.includes('node_modules/workflow-automation-sdk/dist/'))) {
    throw new Error(`the worker bundle must take the SDK from the tarball, not: ${sdkInputs.join(', ')}`);
  }
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: '2026-04-01',
    bindings: { WFA_MATRIX: JSON.stringify(config) },
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const url = await mf.ready;
    const response = await fetch(new URL('/run', url), { signal: AbortSignal.timeout(RUN_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`the worker answered ${response.status}: ${await response.text()}`);
    return await response.json();
  } finally {
    await mf.dispose();
  }
}

/** Next.js: a production build of next-app/, `next start` on 127.0.0.1, and the suite run from here against it. */
async function runNext(config) {
  const next = bin('next/dist/bin/next');
  const app = join(here, 'next-app');
  execFileSync(process.execPath, [next, 'build'], { cwd: app, env: quiet, stdio: 'pipe', timeout: RUN_TIMEOUT_MS });
  const server = spawn(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', '0'], { cwd: app, env: quiet });
  try {
    const origin = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`next start printed no URL:\n${out}`)), RUN_TIMEOUT_MS);
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (match && Number(match[1]) > 0) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
      server.on('exit', (code) => reject(new Error(`next start exited ${code}:\n${out}`)));
    });
    return await runSmoke(config, { receiverUrl: `${origin}/webhook`, inProcess: false });
  } finally {
    server.kill();
  }
}

const node = (path) => ({ version: () => version(path).replace(/^v/, ''), run: (c) => runChild(path, ['server.mjs'], c) });
const mcp = (path) => ({
  version: () => `${pkgVersion('workflow-automation-mcp')} (Node ${version(path).replace(/^v/, '')})`,
  run: (c) => runMcp(path, here, c),
});
const onNode = (script, args, pkg) => ({
  version: () => `${pkgVersion(pkg)} (Node ${process.versions.node})`,
  run: (c) => runChild(process.execPath, [join('frameworks', script), ...args], c),
});
const TARGETS = {
  'Node 20': node(process.execPath),
  'Node 22': node(bin('n22/bin/node')),
  'Node 24': node(bin('n24/bin/node')),
  'Node 26': node(bin('n26/bin/node')),
  'MCP server, Node 20': mcp(process.execPath),
  'MCP server, Node 22': mcp(bin('n22/bin/node')),
  'MCP server, Node 24': mcp(bin('n24/bin/node')),
  Bun: {
    version: () => version(bin('@oven/bun-linux-x64/bin/bun')),
    run: (c) => runChild(bin('@oven/bun-linux-x64/bin/bun'), ['server.mjs'], c),
  },
  Deno: {
    version: () => version(bin('@deno/linux-x64-glibc/deno')).split(' ')[1],
    run: (c) =>
      runChild(bin('@deno/linux-x64-glibc/deno'), ['run', '--no-lock', '--allow-net', '--allow-env', '--allow-read', 'server.mjs'], c),
  },
  'workerd (miniflare)': {
    version: () => `${version(bin('.bin/workerd')).split(' ')[1]} (miniflare ${pkgVersion('miniflare')})`,
    run: runWorkerd,
  },
  'Express 4': onNode('express.mjs', ['express4'], 'express4'),
  'Express 5': onNode('express.mjs', ['express5'], 'express5'),
  Fastify: onNode('fastify.mjs', [], 'fastify'),
  Hono: onNode('hono.mjs', [], 'hono'),
  'Next.js route handler': { version: () => `${pkgVersion('next')} (Node ${process.versions.node})`, run: runNext },
};

const only = process.argv.slice(2);
const unknown = only.filter((o) => !Object.keys(TARGETS).some((name) => name.toLowerCase().startsWith(o.toLowerCase())));
if (unknown.length) rmSync(work, { recursive: true, force: true });
if (unknown.length) throw new Error(`no target named ${unknown.join(', ')}; the targets: ${Object.keys(TARGETS).join(', ')}`);
let failures = 0;
try {
  for (const [name, target] of Object.entries(TARGETS)) {
    if (only.length && !only.some((o) => name.toLowerCase().startsWith(o.toLowerCase()))) continue;
    const started = Date.now();
    const mock = await startMock();
    let results;
    try {
      results = await target.run(mock.config);
    } catch (error) {
      results = [{ name: 'run', ok: false, error: String(error?.stack ?? error) }];
    } finally {
      await mock.close();
    }
    const failed = results.filter((r) => !r.ok);
    failures += failed.length ? 1 : 0;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const transport = results.find((r) => r.transport)?.transport ?? '?';
    console.log(
      `${failed.length ? 'FAIL' : 'PASS'}  ${name.padEnd(22)} ${target.version().padEnd(38)} ${transport.padEnd(9)} ${results.length - failed.length}/${results.length} checks  ${seconds} s`,
    );
    for (const f of failed) console.log(`      ${f.name}: ${f.error.split('\n').slice(0, 3).join('\n        ')}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(failures ? `\n${failures} runtime(s)/framework(s) FAILED` : '\nEvery runtime and framework passed.');
process.exitCode = failures ? 1 : 0;
