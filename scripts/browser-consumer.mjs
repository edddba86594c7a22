#!/usr/bin/env node
/**
 * A browser app built the way users build one, from the packed package, run in headless Chromium.
 *
 *   node scripts/browser-consumer.mjs             # build, pack, install, bundle, serve, load; exit 1 on failure
 *   node scripts/browser-consumer.mjs --no-build  # use the dist/ already built
 *   node scripts/browser-consumer.mjs --keep      # keep the scratch project
 *
 * 1. `npm pack`, then the tarball is installed into a fresh scratch project (zod and ky from the registry).
 * 2. esbuild bundles the app in that project for the browser: `platform: 'browser'`, no polyfills, no `define`,
 *    no `inject`, so any import of a Node built-in fails the build and any read of `process` or `Buffer` would
 *    reach the page as a ReferenceError. The bundle is also scanned for unguarded Node globals.
 * 3. One node:http server on 127.0.0.1 serves the page; the mock service's own HTTP face (`startMockServer`
 *    from the packed `/testing`) listens on another port, so every call is a real cross-origin request with
 *    a CORS preflight.
 * 4. Chromium (Debian's /usr/bin/chromium, driven by playwright) loads the page; the app creates a workflow,
 *    waits for its build, lists with `for await`, catches a 404, parses a webhook, and renders a table. The
 *    checks read the DOM, the page's console and every request the page made; a screenshot is saved to a
 *    temp path (printed) for a person to look at.
 * 5. The same page again under a strict Content-Security-Policy (no eval): the app must run the same, and the
 *    SDK may try eval once (one violation report), not once per schema.
 */
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { createScratchProject, packTarball } from './check-package.mjs';
import { unguardedGlobals } from './check-size.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';


// The app, as a user writes it: bare imports of the package and its /webhooks subpath, nothing else.
const APP = `
import { Client, NotFoundError, WfaError } from 'workflow-automation-sdk';
import { parseWebhookEvent } from 'workflow-automation-sdk/webhooks';

const params = new URLSearchParams(location.search);
// Under a strict CSP (the ?csp page), each blocked eval is reported here, as a site's report-uri would get it.
const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective + ' ' + e.blockedURI));
const client = new Client({ baseUrl: params.get('api'), apiKey: params.get('key') });
const rows = [];
const progress = [];

function render(status) {
  document.body.dataset.status = status;
  document.querySelector('#status').textContent = status;
  document.querySelector('tbody').innerHTML = rows
    .map(([step, result]) => '<tr data-step="' + step + '"><th>' + step + '</th><td>' + String(result).replace(/</g, '&lt;') + '</td></tr>')
    .join('');
}

async function main() {
  render('running');
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  });
  rows.push(['create', workflow.id + ' ' + workflow.status]);
  rows.push(['get', (await client.workflows.get(workflow.id)).name]);

  const build = await client.waitForBuild(workflow, {
    intervalMs: 100,
    signal: AbortSignal.timeout(15000),
    onProgress: (b) => progress.push(b.status + ' ' + (b.progress ?? '')),
  });
  rows.push(['waitForBuild', build.status + ' ' + build.download_url]);
  rows.push(['progress', progress.join(' → ')]);

  await client.workflows.create({
    name: 'Second workflow',
    platform: 'make',
    trigger: { type: 'schedule' },
    actions: [{ app: 'gmail', action: 'send_email' }],
  });
  const names = [];
  for await (const wf of client.workflows.list({ limit: 1 })) names.push(wf.name);
  rows.push(['for await list', names.join(', ')]);

  try {
    await client.workflows.get('wf_does_not_exist');
    rows.push(['404', 'no error?']);
  } catch (e) {
    rows.push(['404', e.name + ' is=' + NotFoundError.is(e) + ' instanceof=' + (e instanceof WfaError) + ' status=' + e.status]);
  }

  const event = parseWebhookEvent(new TextEncoder().encode(JSON.stringify({ event: 'build.completed', workflow_id: workflow.id, data: { download_url: build.download_url } })));
  rows.push(['webhook', event.event + ' ' + event.workflow_id]);
  rows.push(['csp violations', violations.length + (violations.length ? ': ' + violations.join(', ') : '')]);
  // Read through globalThis: a bare \`typeof require\` would make esbuild add its own require shim to the bundle.
  rows.push(['globals', 'process: ' + typeof globalThis.process + ', Buffer: ' + typeof globalThis.Buffer + ', require: ' + typeof globalThis.require]);
  render('done');
}

main().catch((error) => {
  rows.push(['error', error && error.stack ? error.stack : String(error)]);
  render('error');
});
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>workflow-automation-sdk in the browser</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  #status { font-weight: 600; }
  body[data-status=done] #status { color: #12803a; }
  body[data-status=error] #status { color: #b3261e; }
  table { border-collapse: collapse; margin-top: 16px; }
  th, td { text-align: left; padding: 6px 12px; border-bottom: 1px solid #d8dce3; vertical-align: top; }
  th { white-space: nowrap; color: #4a5262; font-weight: 500; }
  td { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; max-width: 760px; }
</style>
</head>
<body>
<h1>workflow-automation-sdk, bundled from the packed tarball by esbuild</h1>
<div>status: <span id="status">loading</span></div>
<table><tbody></tbody></table>
<script type="module" src="/app.js"></script>
</body>
</html>
`;

const results = [];
function record(name, ok, detail) {
  results.push({ name, ok, detail: String(detail ?? '') });
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const keep = args.has('--keep');
  const work = mkdtempSync(join(tmpdir(), 'wfa-browser-consumer-'));
  const project = join(work, 'app');
  let pageServer;
  let mock;
  let browser;
  try {
    console.log(`scratch project in ${project}`);
    const { tarball } = await packTarball({ build: !args.has('--no-build'), destination: join(work, 'pack') });
    await createScratchProject(project, tarball, [], { type: 'module' });
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'app.js'), APP);

    // ---- bundle -----------------------------------------------------------------------------------------
    const bundled = await build({
      absWorkingDir: project,
      entryPoints: ['src/app.js'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      outfile: 'app.js',
      logLevel: 'silent',
    }).catch((error) => {
      throw new Error(`esbuild could not bundle the app for the browser: ${error.message}`);
    });
    const code = bundled.outputFiles.find((f) => f.path.endsWith('app.js')).text;
    const inputs = Object.keys(bundled.metafile.inputs);
    const fromPackage = inputs.filter((p) => p.startsWith('node_modules/workflow-automation-sdk/'));
    record('esbuild bundles the packed package for platform browser, no polyfills', fromPackage.length > 0 && inputs.every((p) => !p.startsWith('node:')), `${(code.length / 1024).toFixed(1)} KB minified; from the tarball: ${fromPackage.join(', ')}`);
    record('no Node built-in among the bundle inputs', !inputs.some((p) => /^(node:|<define|<inject)/.test(p)), `${inputs.length} inputs: ${[...new Set(inputs.map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1] ?? p))].join(', ')}`);
    const globals = unguardedGlobals(code);
    record('no unguarded process / Buffer / require in the bundle', globals.length === 0, globals.length ? globals.join(' | ') : 'none (globalThis.process?.env is the only process read)');

    // ---- serve --------------------------------------------------------------------------------------------
    const testing = await import(pathToFileURL(join(project, 'node_modules', 'workflow-automation-sdk', 'dist', 'testing.js')).href);
    mock = await testing.startMockServer({ buildDurationMs: 5_000 }); // long enough that a busy machine still polls while it builds
    pageServer = createServer((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      // `?csp`: the policy of a strict site: no eval (zod's JIT and the SDK's compiled response check need it).
      const csp = new URL(req.url, 'http://x').searchParams.has('csp')
        ? { 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'unsafe-inline'; connect-src http://127.0.0.1:*" }
        : {};
      if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...csp }).end(HTML);
      else if (path === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
      else if (path === '/favicon.ico') res.writeHead(204).end();
      else res.writeHead(404).end();
    });
    const pagePort = await listen(pageServer);
    const pageUrl = `http://127.0.0.1:${pagePort}/?api=${encodeURIComponent(mock.url)}&key=${encodeURIComponent(mock.apiKey)}`;
    console.log(`page ${pageUrl.replace(mock.apiKey, '<key>')}\nmock service ${mock.url}`);

    // ---- load in Chromium ----------------------------------------------------------------------------------
    const { chromium } = await import('playwright');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    /** Loads the app and waits for it to finish: its status, its table, console errors and requests. */
    const load = async (url, name) => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 560 } });
      const consoleErrors = [];
      const requests = [];
      // The app's deliberate 404 (wf_does_not_exist) is logged by Chromium as a failed resource: that one is expected.
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        if (/Failed to load resource.*404/.test(m.text()) && /\/workflows\/wf_does_not_exist$/.test(m.location().url)) return;
        consoleErrors.push(`${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
      await page.goto(url);
      await page.waitForSelector('body[data-status=done], body[data-status=error]', { timeout: 30_000 });
      const status = await page.getAttribute('body', 'data-status');
      const table = Object.fromEntries(await page.$$eval('tbody tr', (trs) => trs.map((tr) => [tr.dataset.step, tr.querySelector('td')?.textContent ?? ''])));
      const screenshot = join(tmpdir(), `wfa-browser-consumer-${name}-${Date.now()}.png`);
      await page.screenshot({ path: screenshot, fullPage: true });
      await page.close();
      return { status, table, consoleErrors, requests, screenshot };
    };
    const { status, table, consoleErrors, requests, screenshot } = await load(pageUrl, 'page');

    record('the app ran to the end in Chromium', status === 'done', status === 'done' ? `status ${status}` : table.error);
    record('DOM: create → building workflow', /^wf_\S+ building$/.test(table.create ?? ''), table.create);
    record('DOM: waitForBuild → completed with a download URL on the mock', new RegExp(`^completed ${mock.url}/`).test(table.waitForBuild ?? ''), table.waitForBuild);
    record('DOM: onProgress saw building states, then completed', /building.*→.*completed 100$/.test(table.progress ?? ''), table.progress);
    record('DOM: for await over pages of 1 item', table['for await list'] === 'Notify on order, Second workflow' || table['for await list'] === 'Second workflow, Notify on order', table['for await list']);
    record('DOM: 404 → NotFoundError, recognised by is() and instanceof', table['404'] === 'NotFoundError is=true instanceof=true status=404', table['404']);
    record('DOM: webhook parsed from bytes', /^build\.completed wf_/.test(table.webhook ?? ''), table.webhook);
    record('DOM: the page has no process, Buffer or require (no polyfills)', table.globals === 'process: undefined, Buffer: undefined, require: undefined', table.globals);
    record('no console errors in the page', consoleErrors.length === 0, consoleErrors.join(' | ') || 'none');
    const offHost = requests.filter((r) => !/^\w+ http:\/\/127\.0\.0\.1:\d+\//.test(r));
    record('every request went to 127.0.0.1 (the page, then the mock service)', offHost.length === 0, offHost.join(', ') || `${requests.length} requests, e.g. ${requests.filter((r) => r.includes(mock.url)).slice(0, 2).join(', ')}`);
    record('screenshot saved', true, screenshot);

    // The same app under a strict Content-Security-Policy: no eval, so zod parses every body; one try, one report.
    const strict = await load(`${pageUrl}&csp`, 'csp');
    record('strict CSP (no eval): the app ran to the end', strict.status === 'done', strict.status === 'done' ? `status ${strict.status}` : strict.table.error);
    // The mock keeps the first load's workflows, so this list holds four.
    const listed = (strict.table['for await list'] ?? '').split(', ');
    record(
      'strict CSP: same answers (create, waitForBuild, for await, 404)',
      /^wf_\S+ building$/.test(strict.table.create ?? '') && /^completed /.test(strict.table.waitForBuild ?? '') && listed.length === 4 && listed.includes('Notify on order') && strict.table['404'] === table['404'],
      `${strict.table.create} | ${strict.table.waitForBuild} | ${listed.length} listed | ${strict.table['404']}`,
    );
    record('strict CSP: at most one eval was tried (one violation report)', /^[01](:|$)/.test(strict.table['csp violations'] ?? ''), strict.table['csp violations']);
    record('strict CSP: no console errors', strict.consoleErrors.length === 0, strict.consoleErrors.join(' | ') || 'none');
  } catch (error) {
    record('setup', false, error instanceof Error ? error.stack ?? error.message : String(error));
  } finally {
    await browser?.close();
    await mock?.close();
    pageServer?.close();
    if (!keep) rmSync(work, { recursive: true, force: true });
  }

  const failed = results.filter((r) => !r.ok);
  const w = Math.max(...results.map((r) => r.name.length));
  console.log('\nBrowser consumer: packed tarball → esbuild → Chromium\n');
  for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(w)}  ${r.detail.split('\n')[0]}`);
  for (const r of failed) console.log(`\n--- FAIL ${r.name}\n${r.detail}`);
  console.log(failed.length ? `\n${failed.length} of ${results.length} checks FAILED` : `\nAll ${results.length} checks passed.`);
  process.exitCode = failed.length ? 1 : 0;
}

await main();
