#!/usr/bin/env node
/**
 * The package as a browser app's Vite build gets it (`npm run check:size`, after `npm run build`): a page that
 * uses the client, downloads included, built by Vite; lists every file emitted and fails if any holds Node-only
 * code (the `node:http` transport, the file writer, zod's compiled parser), loaded or not.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

// Strings only the Node-only modules hold (src/core/node-transport.ts, write-to-file.ts, zod's $ZodObjectJIT).
const NODE_ONLY = ['node:http is not available', 'is in a folder that does not exist', '$ZodObjectJIT'];
const APP = `import { Client } from 'workflow-automation-sdk';
const client = new Client({ apiKey: 'key', baseUrl: location.origin });
document.body.textContent = JSON.stringify(await client.workflows.list());
document.querySelector('button').onclick = async () => {
  await client.builds.downloadToFile('b_1', 'build.zip').catch(() => client.builds.download('b_1'));
};
`;

const work = mkdtempSync(join(tmpdir(), 'wfa-check-vite-'));
try {
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(resolve('.'), join(work, 'node_modules', 'workflow-automation-sdk'), 'dir');
  writeFileSync(join(work, 'index.html'), '<button>download</button><script type="module" src="./app.js"></script>\n');
  writeFileSync(join(work, 'app.js'), APP);
  await build({ root: work, logLevel: 'warn', configFile: false, build: { outDir: 'dist', target: 'es2022' } });
  const out = join(work, 'dist', 'assets');
  let failed = false;
  for (const name of readdirSync(out).sort()) {
    const text = readFileSync(join(out, name), 'utf8');
    const found = NODE_ONLY.filter((s) => text.includes(s));
    failed ||= found.length > 0;
    const gzip = (gzipSync(text, { level: 9 }).length / 1024).toFixed(1);
    console.log(
      `${found.length ? 'FAIL' : 'ok  '}  ${name.padEnd(32)} ${gzip.padStart(6)} KB gzip${found.length ? `  Node-only: ${found.join(', ')}` : ''}`,
    );
  }
  if (failed) process.exitCode = 1;
  else console.log('The Vite build emitted no Node-only code.');
} finally {
  rmSync(work, { recursive: true, force: true });
}
