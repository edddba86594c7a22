/**
 * A browser app built the way users build one: `npm pack`, the tarball installed into a scratch project, the
 * app bundled there by esbuild for the browser (no polyfills, no `define`, no `inject`: an import of a Node
 * built-in fails the build), then served from 127.0.0.1. The mock service's own HTTP face (`startMockServer`
 * from the packed `/testing`) listens on another port, so every call is a real cross-origin request.
 * `?csp` serves the page under a strict Content-Security-Policy (`script-src 'self'`: no eval).
 *
 * Used by browser-consumer.spec.ts (Playwright); needs a built dist/ (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// The app, as a user writes it: bare imports of the package and its /webhooks subpath, nothing else.
const APP = `
import { Client, NotFoundError, WfaError } from 'workflow-automation-sdk';
import { parseWebhookEvent } from 'workflow-automation-sdk/webhooks';

const violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective + ' ' + e.blockedURI));
const client = new Client({ baseUrl: document.body.dataset.api, apiKey: document.body.dataset.key });
const row = (step, result) => document.querySelector('tbody').insertAdjacentHTML('beforeend', '<tr><th>' + step + '</th><td></td></tr>') ||
  (document.querySelector('tbody').lastElementChild.lastElementChild.textContent = String(result));

async function main() {
  const workflow = await client.workflows.create({
    name: 'Notify on order',
    platform: 'zapier',
    trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
    actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  });
  row('create', workflow.id + ' ' + workflow.status);
  row('get', (await client.workflows.get(workflow.id)).name);
  const progress = [];
  const build = await client.waitForBuild(workflow, {
    intervalMs: 100,
    signal: AbortSignal.timeout(15000),
    onProgress: (b) => progress.push(b.status + ' ' + (b.progress ?? '')),
  });
  row('waitForBuild', build.status + ' ' + build.download_url);
  row('progress', progress.join(' → '));
  await client.workflows.create({ name: 'Second workflow', platform: 'make', trigger: { type: 'schedule' }, actions: [{ app: 'gmail', action: 'send_email' }] });
  const names = [];
  for await (const wf of client.workflows.list({ limit: 1 })) names.push(wf.name);
  row('for await list', names.sort().join(', '));
  try {
    await client.workflows.get('wf_does_not_exist');
    row('404', 'no error?');
  } catch (e) {
    row('404', e.name + ' is=' + NotFoundError.is(e) + ' instanceof=' + (e instanceof WfaError) + ' status=' + e.status);
  }
  const event = parseWebhookEvent(new TextEncoder().encode(JSON.stringify({ event: 'build.completed', workflow_id: workflow.id, data: { download_url: build.download_url } })));
  row('webhook', event.event + ' ' + event.workflow_id);
  // Through globalThis: a bare \`typeof require\` would make esbuild add its own require shim to the bundle.
  row('globals', 'process: ' + typeof globalThis.process + ', Buffer: ' + typeof globalThis.Buffer + ', require: ' + typeof globalThis.require);
  row('csp violations', violations.length + (violations.length ? ': ' + violations.join(', ') : ''));
}

main().then(() => (document.body.dataset.status = 'done'), (error) => {
  row('error', error && error.stack ? error.stack : String(error));
  document.body.dataset.status = 'error';
});
`;

const page = (api: string, key: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>workflow-automation-sdk in the browser</title></head>
<body data-api="${api}" data-key="${key}"><h1>Bundled from the packed tarball by esbuild</h1><table><tbody></tbody></table>
<script type="module" src="/app.js"></script></body></html>`;

export interface ConsumerApp {
  /** The page; add `?csp` for the strict policy. */
  url: string;
  /** The mock service's origin. */
  api: string;
  /** What esbuild bundled: every input path of the app's bundle. */
  inputs: string[];
  close(): Promise<void>;
}

/** Packs the package, installs it into a scratch project, bundles the app and serves it with the mock service. */
export async function startConsumerApp(): Promise<ConsumerApp> {
  const work = mkdtempSync(join(tmpdir(), 'wfa-browser-consumer-'));
  const npm = (args: string[], cwd: string) => execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd, encoding: 'utf8' });
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], process.cwd()));
  writeFileSync(join(work, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  npm(['install', '--no-package-lock', join(work, packed.filename)], work);

  const bundled = await build({
    stdin: { contents: APP, resolveDir: work, sourcefile: 'app.js' },
    absWorkingDir: work,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]!.text;

  const testing = await import(pathToFileURL(join(work, 'node_modules/workflow-automation-sdk/dist/testing.js')).href);
  // Long enough that a busy machine still polls a few times while the build runs.
  const mock = await testing.startMockServer({ buildDurationMs: 3_000 });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const csp = url.searchParams.has('csp')
      ? { 'content-security-policy': "default-src 'self'; script-src 'self'; connect-src http://127.0.0.1:*" }
      : {};
    if (url.pathname === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...csp }).end(page(mock.url, mock.apiKey));
    else if (url.pathname === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else if (url.pathname === '/favicon.ico') res.writeHead(204).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    api: mock.url,
    inputs: Object.keys(bundled.metafile.inputs),
    async close() {
      server.close();
      await mock.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
