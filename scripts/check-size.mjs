#!/usr/bin/env node
/**
 * Size budget of the browser bundles, and proof that the webhooks entry point tree-shakes.
 *
 *   npm run build && node scripts/check-size.mjs      # exit 1 when a budget is exceeded or a proof fails
 *   node scripts/check-size.mjs --json                # the figures as JSON on stdout, after the report
 *
 * Each bundle is what a browser app's bundler makes from the built package: esbuild, bundle + minify, format
 * esm, platform browser (zod is inside dist/ already), then gzip -9.
 * KB here is 1024 bytes.
 *
 * Budgets (min+gzip):
 * - the full client: everything exported from the root entry (dist/index.js as the entry, so nothing of it can
 *   be shaken off) <= 20 KB;
 * - the webhooks subpath: everything exported from dist/webhooks.js <= 8 KB.
 *
 * Proofs (failures too):
 * - a bundle that imports only the webhooks subpath holds neither zod nor the resource classes nor the HTTP
 *   core: checked on the metafile of the same bundle made from src/ (where every module is its own input)
 *   and, on the bundle made from dist/, by its inputs and by strings only zod or the resources contain;
 * - importing only error classes from the root entry holds neither zod nor the resources (the root entry
 *   tree-shakes as well as the subpaths do);
 * - no bundle holds ky (the HTTP core calls `fetch` itself; ky is only the benchmark's baseline);
 * - no browser bundle reads `process` or `Buffer` unguarded (a bare reference, not `globalThis.process` or
 *   behind `typeof`).
 *
 * When the client is over budget, the top contributors (from the metafile of the same bundle made from src/,
 * where zod and each source module are separate inputs) are printed so the cause is visible.
 *
 * `unguardedGlobals` is exported for scripts/browser-consumer.mjs.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KB = 1024;
const BUDGETS = { client: 20 * KB, webhooks: 8 * KB };

const rel = (p) => relative(ROOT, join(ROOT, p)).replaceAll('\\', '/');

/** Bundles one entry (a file, or `contents` as stdin) the way a browser app would, and measures it. */
async function bundle({ entry, contents, label }) {
  const options = {
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    outfile: 'out.js',
  };
  if (contents !== undefined) options.stdin = { contents, resolveDir: ROOT, sourcefile: `${label}.js`, loader: 'ts' };
  else options.entryPoints = [entry];
  const result = await build(options);
  const file = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const code = file.text;
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path: rel(path), bytes: bytesInOutput }))
    .filter((i) => i.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return { label, code, min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, inputs };
}

const fmt = (bytes) => `${(bytes / KB).toFixed(2)} KB`;

/** Groups metafile inputs: zod, msw, other packages, and src/ by folder. */
function groupOf(path) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `${pkg[1]} (dependency)`;
  const src = /^src\/(.+)\/[^/]+$/.exec(path);
  if (src) return `src/${src[1]}/`;
  return path;
}

function grouped(inputs) {
  const groups = new Map();
  for (const { path, bytes } of inputs) groups.set(groupOf(path), (groups.get(groupOf(path)) ?? 0) + bytes);
  return [...groups].map(([group, bytes]) => ({ group, bytes })).sort((a, b) => b.bytes - a.bytes);
}

// Bare references to Node globals. Minifiers keep global names, so a read of `process` or `Buffer` that is
// not a property of something (globalThis.process) and not behind `typeof` shows up here.
export function unguardedGlobals(code) {
  const found = [];
  for (const name of ['process', 'Buffer', 'global', 'require', '__dirname', '__filename', 'setImmediate']) {
    const re = new RegExp(`(?<![.\\w$'"\`])${name}(?![\\w$:'"\`])`, 'g');
    for (const m of code.matchAll(re)) {
      const before = code.slice(Math.max(0, m.index - 7), m.index);
      if (before.endsWith('typeof ')) continue;
      // an object key (`{process:…}`) or a declaration of a local of that name is not a read of the global
      const after = code.slice(m.index + name.length, m.index + name.length + 1);
      if (after === ':' && /[{,]$/.test(code.slice(m.index - 1, m.index))) continue;
      found.push(`${name}: …${code.slice(Math.max(0, m.index - 40), m.index + 40)}…`);
    }
  }
  return found;
}

// Strings that survive minification and exist only in ky, only in zod, or only in the resources / HTTP core.
const KY_MARKERS = ['Request failed with', 'beforeRetry', 'throwHttpErrors'];
const ZOD_MARKERS = ['$ZodType', '$ZodObject'];
const RESOURCE_MARKERS = ['/workflows', '/integrations', '/orders', 'input to workflows.create'];

async function main() {
  const json = process.argv.includes('--json');
  for (const file of ['dist/index.js', 'dist/webhooks.js']) {
    if (!existsSync(join(ROOT, file))) {
      console.error(`${file} is missing: run \`npm run build\` first`);
      process.exit(2);
    }
  }

  const rows = [];
  const failures = [];
  const fail = (what) => failures.push(what);

  // ---- the budgets, measured on what ships (dist/) --------------------------------------------------------
  const client = await bundle({ entry: 'dist/index.js', label: 'client' });
  const webhooks = await bundle({ entry: 'dist/webhooks.js', label: 'webhooks' });
  rows.push({ name: 'full client: every export of `.` (dist/index.js)', ...client, budget: BUDGETS.client });
  rows.push({ name: 'webhooks subpath: every export (dist/webhooks.js)', ...webhooks, budget: BUDGETS.webhooks });

  // For information: what typical imports cost once the bundler has shaken the rest off.
  const clientOnly = await bundle({ label: 'client-only', contents: `export { Client } from './dist/index.js';` });
  const errorsOnly = await bundle({ label: 'errors-only', contents: `export { NotFoundError, ApiError } from './dist/index.js';` });
  const parseOnly = await bundle({ label: 'parse-only', contents: `export { parseWebhookEvent } from './dist/webhooks.js';` });
  rows.push({ name: 'info: `import { Client }` only', ...clientOnly });
  rows.push({ name: 'info: `import { NotFoundError, ApiError }` only', ...errorsOnly });
  rows.push({ name: 'info: `import { parseWebhookEvent }` from /webhooks', ...parseOnly });
  // The same errors-only import from src/, where every module is separate: what a tree-shakable dist could give.
  const errorsOnlySrc = await bundle({ label: 'errors-only-src', contents: `export { NotFoundError, ApiError } from './src/index.ts';` });
  rows.push({ name: 'info: same errors-only import, from src/ modules', ...errorsOnlySrc });

  console.log('Browser bundle sizes (esbuild: bundle, minify, esm, platform browser; gzip -9; KB = 1024 bytes)\n');
  const w = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'bundle'.padEnd(w)}  ${'minified'.padStart(10)}  ${'min+gzip'.padStart(10)}  ${'budget'.padStart(10)}  result`);
  for (const r of rows) {
    const result = r.budget === undefined ? '' : r.gzip <= r.budget ? 'PASS' : `FAIL (over by ${fmt(r.gzip - r.budget)}, ${((r.gzip / r.budget - 1) * 100).toFixed(0)}%)`;
    if (r.budget !== undefined && r.gzip > r.budget) fail(`${r.name}: ${fmt(r.gzip)} min+gzip > budget ${fmt(r.budget)}`);
    console.log(`${r.name.padEnd(w)}  ${fmt(r.min).padStart(10)}  ${fmt(r.gzip).padStart(10)}  ${(r.budget === undefined ? '-' : fmt(r.budget)).padStart(10)}  ${result}`);
  }

  // ---- where the client's bytes come from -----------------------------------------------------------------
  // dist/ holds zod and the resources inside one file, so the detail comes from the same bundle made from src/.
  const clientSrc = await bundle({ entry: 'src/index.ts', label: 'client-src' });
  const webhooksSrc = await bundle({ entry: 'src/webhooks/index.ts', label: 'webhooks-src' });
  const overBudget = client.gzip > BUDGETS.client;
  console.log(`\nTop contributors to the full client${overBudget ? ' (over budget: this is where the bytes are)' : ''}`);
  console.log(`  the same bundle from src/: ${fmt(clientSrc.min)} minified, ${fmt(clientSrc.gzip)} min+gzip (dist/: ${fmt(client.min)}, ${fmt(client.gzip)})`);
  console.log('  by package / folder (minified bytes in the output; gzip does not split by input):');
  for (const { group, bytes } of grouped(clientSrc.inputs)) {
    console.log(`    ${fmt(bytes).padStart(9)}  ${((bytes / clientSrc.min) * 100).toFixed(1).padStart(5)}%  ${group}`);
  }
  console.log('  by file, top 15:');
  for (const { path, bytes } of clientSrc.inputs.slice(0, 15)) {
    console.log(`    ${fmt(bytes).padStart(9)}  ${((bytes / clientSrc.min) * 100).toFixed(1).padStart(5)}%  ${path}`);
  }
  console.log('  the bundle from dist/, by input:');
  for (const { path, bytes } of client.inputs.slice(0, 8)) {
    console.log(`    ${fmt(bytes).padStart(9)}  ${((bytes / client.min) * 100).toFixed(1).padStart(5)}%  ${path}`);
  }
  // gzip share of the big dependencies: the same src/ bundle with each left out (marked external).
  console.log('  min+gzip of the full client (from src/) without each dependency, marked external:');
  for (const [dep, external] of [['zod', ['zod', 'zod/*']]]) {
    const without = await build({
      absWorkingDir: ROOT, entryPoints: ['src/index.ts'], bundle: true, minify: true, format: 'esm', platform: 'browser',
      target: 'es2022', write: false, external, logLevel: 'silent', outfile: 'out.js',
    });
    const gzip = gzipSync(without.outputFiles[0].text, { level: 9 }).length;
    console.log(`    ${fmt(gzip).padStart(9)}  without ${dep}: ${dep} accounts for about ${fmt(clientSrc.gzip - gzip)} min+gzip`);
  }

  // ---- tree-shaking proofs ----------------------------------------------------------------------------------
  console.log('\nTree-shaking: the webhooks subpath, and the root entry imported in part');
  const proofs = [];
  const prove = (name, ok, detail) => {
    proofs.push({ name, ok, detail });
    if (!ok) fail(`${name}: ${detail}`);
  };
  const srcInputs = webhooksSrc.inputs.map((i) => i.path);
  const banned = (path) => /node_modules\/ky\//.test(path) || /node_modules\/zod\//.test(path) || /^src\/resources\//.test(path) || /^src\/(client|core\/http|core\/pagination|core\/retry)\.ts$/.test(path);
  prove(
    'from src/: metafile inputs hold no ky, zod, src/resources/*, client, HTTP core',
    !srcInputs.some(banned),
    `inputs: ${srcInputs.join(', ')}`,
  );
  const distInputs = webhooks.inputs.map((i) => i.path);
  const clientOnlyFiles = new Set(client.inputs.map((i) => i.path).filter((p) => p !== 'dist/webhooks.js' && !distInputs.includes(p)));
  prove(
    'from dist/: metafile inputs hold none of the files only the client uses (dist/index.js, its chunks, zod)',
    !distInputs.some((p) => clientOnlyFiles.has(p) || p === 'dist/index.js' || /node_modules\//.test(p)),
    `inputs: ${distInputs.map((p, i) => `${p} (${webhooks.inputs[i].bytes} B)`).join(', ')}`,
  );
  for (const [what, markers] of [['zod', ZOD_MARKERS], ['the resources / HTTP core', RESOURCE_MARKERS]]) {
    const inClient = markers.filter((m) => client.code.includes(m));
    const inHooks = markers.filter((m) => webhooks.code.includes(m) || parseOnly.code.includes(m));
    prove(
      `from dist/: no string of ${what} in the webhooks bundles`,
      inHooks.length === 0 && inClient.length > 0,
      inHooks.length ? `found ${inHooks.join(', ')}` : `markers (${inClient.join(', ')}) are in the client bundle and not in the webhooks bundles`,
    );
  }
  // The root entry shakes too: an app that imports only error classes from it (openai-node issue 218 is the
  // complaint this answers) carries neither zod nor the client, because every schema builder is marked
  // side-effect free and no class the client defines has a computed member a bundler must keep.
  const errorsInClient = [...ZOD_MARKERS, ...RESOURCE_MARKERS].filter((m) => errorsOnly.code.includes(m));
  prove(
    'from dist/: importing only error classes from the root entry holds no zod and no resources',
    errorsInClient.length === 0,
    errorsInClient.length ? `found ${errorsInClient.join(', ')} (${fmt(errorsOnly.gzip)} min+gzip)` : `${fmt(errorsOnly.gzip)} min+gzip, against ${fmt(client.gzip)} for everything`,
  );
  const withKy = [client, webhooks].filter((r) => KY_MARKERS.some((m) => r.code.includes(m)));
  prove('no bundle holds ky', withKy.length === 0, withKy.length ? `ky strings in: ${withKy.map((r) => r.label).join(', ')}` : 'none of its strings in the client or webhooks bundles');
  for (const p of proofs) console.log(`  ${p.ok ? 'PASS' : 'FAIL'}  ${p.name}\n        ${p.detail}`);

  // ---- Node globals ----------------------------------------------------------------------------------------------
  console.log('\nNode globals read unguarded in the browser bundles (process, Buffer, global, require, __dirname…)');
  for (const r of [client, webhooks]) {
    const found = unguardedGlobals(r.code);
    if (found.length) fail(`${r.label}: unguarded Node globals: ${found.join(' | ')}`);
    console.log(`  ${found.length ? 'FAIL' : 'PASS'}  ${r.label}: ${found.length ? found.join('\n        ') : 'none'}${/globalThis\.process/.test(r.code) ? ' (reads globalThis.process?.env only: guarded)' : ''}`);
  }

  if (failures.length) {
    console.log(`\nFAILED (${failures.length}):`);
    for (const f of failures) console.log(`  - ${f}`);
  } else {
    console.log('\nAll size budgets and proofs pass.');
  }
  if (json) {
    console.log(JSON.stringify({ rows: rows.map(({ code, inputs, ...r }) => r), failures }, null, 2));
  }
  process.exitCode = failures.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
