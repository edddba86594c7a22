/**
 * Where a one-call app's bytes go (bench/README.md, "Round 7"): `node bench/one-call-bytes.mjs [funcs|client]`.
 * Bundles the app from src/ as size-limit bundles dist/ (esbuild, minified, ESM, browser, lazy imports followed,
 * the browser's `#node-parts` and `#file-writer`), then lists each module's minified bytes (esbuild's metafile) and
 * an estimate of its gzip -9 bytes: what the bundle's gzip loses when that module's code is cut out of it.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const APPS = {
  funcs: `import { createCore, workflowsList } from './src/funcs.ts';\nexport default workflowsList(createCore({ apiKey: 'k', baseUrl: 'https://x.test' }));`,
  client: `import { Client } from './src/index.ts';\nexport default new Client({ apiKey: 'k', baseUrl: 'https://x.test' }).workflows.list();`,
};
const browserSeams = {
  name: 'browser-seams',
  setup(b) {
    b.onResolve({ filter: /\/(node-parts|file-writer)\.js$/ }, ({ path, resolveDir }) => ({
      path: `${resolveDir}/${path.replace(/\.js$/, '.browser.ts')}`,
    }));
  },
};
const bundle = (options) =>
  build({
    stdin: { contents: APPS[process.argv[2] ?? 'funcs'], resolveDir: process.cwd(), sourcefile: 'app.ts', loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [browserSeams],
    define: { __WFA_VERSION__: '"0.0.0"' },
    ...options,
  });
const gz = (text) => gzipSync(text, { level: 9 }).length;

const minified = await bundle({ minify: true });
const [{ text }] = minified.outputFiles;
// The same bundle with whitespace kept: esbuild writes a `// path` line before each module's code.
const marked = await bundle({ minifyIdentifiers: true, minifySyntax: true });
const parts = [];
for (const line of marked.outputFiles[0].text.split('\n')) {
  const module = /^\s*\/\/ ((?:src|node_modules)\/\S+)$/.exec(line)?.[1];
  if (module || parts.length === 0) parts.push({ module: module ?? '(esbuild)', code: '' });
  else parts.at(-1).code += `${line}\n`;
}
const without = (module) => gz(parts.flatMap((part) => (part.module === module ? [] : [part.code])).join(''));
const whole = without(undefined);
const [output] = Object.values(minified.metafile.outputs);
const rows = Object.entries(output.inputs).map(([module, { bytesInOutput }]) => {
  const gzip = Math.round(((whole - without(module)) * gz(text)) / whole);
  return { module: module.replace(/^node_modules\//, ''), bytes: bytesInOutput, gzip };
});
console.log(`minified ${text.length} B, gzip -9 ${gz(text)} B\n`);
console.log('| module | minified B | gzip B (estimate) |\n| --- | --- | --- |');
for (const row of rows.filter((r) => r.bytes > 0).sort((a, b) => b.bytes - a.bytes))
  console.log(`| ${row.module} | ${row.bytes} | ${row.gzip} |`);
