#!/usr/bin/env node
/**
 * Keeps the guides honest: every code block in docs/*.md is a file that the TypeScript compiler checks.
 *
 *   node scripts/check-docs.mjs          # check; exit 1 on any problem
 *   node scripts/check-docs.mjs --write  # copy each included file into its block (after editing examples/docs/)
 *   node scripts/check-docs.mjs --api    # also: which public symbols of the API lack a doc comment or an @example
 *
 * The rule: a TypeScript or JavaScript block in a guide is preceded by the line
 *
 *   <!-- include: examples/docs/some-file.ts -->
 *
 * and its text equals that file, byte for byte (the trailing newline aside). The files import the package by
 * its published name (`workflow-automation-sdk`, `/webhooks`, `/testing`, `/testing/msw`), exactly as a reader
 * would; examples/docs/tsconfig.json maps those names to src/, so `tsc -p examples/docs` checks them against
 * the code as it is, with no build. Blocks in other languages (sh, json, text) are not checked.
 *
 * Also checked: every file in examples/docs/ is included by some guide, relative links between guides point
 * at files that exist, and the example files that are vitest tests (they import from 'vitest') pass, run
 * against src/ with the package's names aliased to it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const EXAMPLES = join(ROOT, 'examples', 'docs');
const CHECKED = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'mjs', 'cjs', 'mts', 'cts']);
const INCLUDE = /^<!--\s*include:\s*(\S+)\s*-->\s*$/;

const problems = [];
const rows = [];

function run(cmd, args, cwd = ROOT) {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The fenced blocks of a Markdown file, with the include marker above each (if any). */
function blocks(text) {
  const lines = text.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(`${indent}${fence}`)) end++;
    // The include marker is the line right above the opening fence.
    const marker = i > 0 ? INCLUDE.exec(lines[i - 1].trim())?.[1] : undefined;
    found.push({ lang: lang.toLowerCase(), start: i, end, body: lines.slice(i + 1, end).join('\n'), marker, line: i + 1 });
    i = end;
  }
  return found;
}

function checkGuides(write) {
  const guides = readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort();
  const included = new Set();
  for (const guide of guides) {
    const path = join(DOCS, guide);
    let text = readFileSync(path, 'utf8');
    let checked = 0;
    let rewritten = 0;
    // Rewrite from the bottom up so that earlier line numbers stay valid.
    const found = blocks(text).reverse();
    const lines = text.split('\n');
    for (const block of found) {
      const where = `docs/${guide}:${block.line}`;
      if (!CHECKED.has(block.lang)) continue;
      checked++;
      if (!block.marker) {
        problems.push(`${where}: a \`${block.lang}\` block without an <!-- include: examples/docs/… --> line above it (every code block must be a checked file)`);
        continue;
      }
      const file = resolve(ROOT, block.marker);
      if (!file.startsWith(EXAMPLES)) {
        problems.push(`${where}: includes ${block.marker}, which is not under examples/docs/`);
        continue;
      }
      if (!existsSync(file)) {
        problems.push(`${where}: includes ${block.marker}, which does not exist`);
        continue;
      }
      included.add(file);
      const want = readFileSync(file, 'utf8').replace(/\n+$/, '');
      if (block.body === want) continue;
      if (write) {
        lines.splice(block.start + 1, block.end - block.start - 1, ...want.split('\n'));
        rewritten++;
      } else {
        const a = block.body.split('\n');
        const b = want.split('\n');
        const at = a.findIndex((l, n) => l !== b[n]);
        const n = at === -1 ? Math.min(a.length, b.length) : at;
        problems.push(`${where}: differs from ${block.marker} at its line ${n + 1}:\n    guide: ${JSON.stringify(a[n] ?? '(end)')}\n    file:  ${JSON.stringify(b[n] ?? '(end)')}\n    (run node scripts/check-docs.mjs --write to copy the files into the guides)`);
      }
    }
    if (write && rewritten > 0) {
      text = lines.join('\n');
      writeFileSync(path, text);
    }
    // Relative links to other files must resolve.
    for (const m of text.matchAll(/\]\((?!https?:|mailto:|#)([^)\s#]+)(#[^)]*)?\)/g)) {
      const target = resolve(dirname(path), m[1]);
      if (!existsSync(target)) problems.push(`docs/${guide}: link to ${m[1]}, which does not exist`);
    }
    rows.push(`docs/${guide}: ${checked} code block(s)${rewritten ? `, ${rewritten} rewritten from examples/docs/` : ''}`);
  }
  for (const file of readdirSync(EXAMPLES).filter((f) => /\.[cm]?tsx?$/.test(f) && !f.endsWith('.d.ts'))) {
    if (!included.has(join(EXAMPLES, file))) problems.push(`examples/docs/${file} is not included by any guide`);
  }
  return included.size;
}

async function typecheck() {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const { code, out } = await run(process.execPath, [tsc, '-p', 'examples/docs/tsconfig.json', '--pretty', 'false']);
  if (code !== 0) problems.push(`tsc -p examples/docs/tsconfig.json:\n${out.trim().replace(/^/gm, '    ')}`);
  return code === 0;
}

/** Runs the examples that are vitest tests, with the package's names aliased to src/. */
async function runExampleTests() {
  const tests = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.ts') && /from 'vitest'/.test(readFileSync(join(EXAMPLES, f), 'utf8')))
    .map((f) => `examples/docs/${f}`);
  if (tests.length === 0) return 0;
  const config = join(ROOT, '.tmp', 'vitest.docs-examples.config.mjs');
  mkdirSync(dirname(config), { recursive: true });
  const alias = [
    ['workflow-automation-sdk/testing/msw', 'src/testing/msw.ts'],
    ['workflow-automation-sdk/testing', 'src/testing/index.ts'],
    ['workflow-automation-sdk/webhooks', 'src/webhooks/index.ts'],
    ['workflow-automation-sdk', 'src/index.ts'],
  ].map(([name, file]) => ({ find: new RegExp(`^${name.replaceAll('/', '\\/')}$`).source, replacement: join(ROOT, file) }));
  writeFileSync(
    config,
    `export default {
  resolve: { alias: ${JSON.stringify(alias)}.map(({ find, replacement }) => ({ find: new RegExp(find), replacement })) },
  test: { root: ${JSON.stringify(ROOT)}, include: ${JSON.stringify(tests)}, testTimeout: 20000 },
};
`,
  );
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const { code, out } = await run(process.execPath, [vitest, 'run', '--config', config, '--reporter', 'dot']);
  if (code !== 0) problems.push(`the example tests failed (${tests.join(', ')}):\n${out.trim().replace(/^/gm, '    ')}`);
  return tests.length;
}

// ---- --api: what the API reference lacks ----------------------------------------------------------------------

const KIND = { Variable: 32, Function: 64, Class: 128, Interface: 256, Constructor: 512, Property: 1024, Method: 2048, Accessor: 262144, TypeAlias: 2097152, Reference: 4194304 };

const PROMISE_METHODS = new Set(['then', 'catch', 'finally']);

function hasSummary(comment) {
  return Boolean(comment?.summary?.some((part) => part.text.trim() !== ''));
}
function hasExample(comment) {
  return Boolean(comment?.blockTags?.some((tag) => tag.tag === '@example'));
}
function commentOf(r) {
  return r.comment ?? r.signatures?.find((s) => s.comment)?.comment ?? r.getSignature?.comment;
}
function sourceOf(r) {
  const s = r.sources?.[0] ?? r.signatures?.[0]?.sources?.[0];
  return s ? `${s.fileName}:${s.line}` : '?';
}

async function apiReport() {
  const out = join(ROOT, '.tmp', 'typedoc-api.json');
  // The project's typedoc.json, but JSON out only and no validation: this report lists everything at once.
  const typedoc = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const { code, out: log } = await run(process.execPath, [
    typedoc, '--options', 'typedoc.json', '--json', out, '--out', join(ROOT, '.tmp', 'typedoc-api-html'), '--disableSources', 'false',
    '--treatWarningsAsErrors', 'false', '--treatValidationWarningsAsErrors', 'false', '--logLevel', 'Error',
  ]);
  if (code !== 0 || !existsSync(out)) {
    problems.push(`typedoc --json failed:\n${log}`);
    return;
  }
  const project = JSON.parse(readFileSync(out, 'utf8'));
  const missing = [];
  for (const module of project.children ?? []) {
    for (const symbol of module.children ?? []) {
      if (symbol.kind === KIND.Reference) continue; // re-exported; documented where it is defined
      const comment = commentOf(symbol);
      const what = `${module.name} ${symbol.name}`;
      if (!hasSummary(comment)) missing.push([sourceOf(symbol), what, 'no doc comment']);
      else if (!hasExample(comment)) missing.push([sourceOf(symbol), what, 'no @example']);
      // Public members of classes and interfaces: a summary each; methods an example too.
      for (const member of symbol.children ?? []) {
        if (member.flags?.isPrivate || member.flags?.isProtected || member.inheritedFrom) continue;
        if (![KIND.Property, KIND.Method, KIND.Accessor].includes(member.kind)) continue;
        const c = commentOf(member);
        const name = `${what}.${member.name}`;
        if (!hasSummary(c)) missing.push([sourceOf(member), name, 'no doc comment']);
        // then/catch/finally mirror Promise's own and need no example of their own.
        else if (member.kind === KIND.Method && symbol.kind === KIND.Class && !PROMISE_METHODS.has(member.name) && !hasExample(c)) {
          missing.push([sourceOf(member), name, 'no @example']);
        }
      }
    }
  }
  missing.sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  console.log(`\nAPI reference: ${missing.length} public symbol(s) without a doc comment or an @example (entry symbol; members)\n`);
  for (const [where, what, why] of missing) console.log(`  ${why.padEnd(14)}  ${what.padEnd(48)}  ${where}`);
  if (missing.length) problems.push(`${missing.length} public symbols lack a doc comment or an @example (listed above)`);
}

async function main() {
  const write = process.argv.includes('--write');
  const api = process.argv.includes('--api');
  const files = checkGuides(write);
  const typed = await typecheck();
  const tested = await runExampleTests();
  console.log('Guides (docs/*.md): code blocks are files in examples/docs/, type-checked\n');
  for (const row of rows) console.log(`  ${row}`);
  console.log(`  examples/docs: ${files} file(s) included; tsc -p examples/docs/tsconfig.json: ${typed ? 'no errors' : 'ERRORS'}`);
  console.log(`  examples/docs: ${tested} file(s) are vitest tests, run against src/`);
  if (api) await apiReport();
  if (problems.length) {
    console.log(`\nFAILED (${problems.length}):`);
    for (const p of problems) console.log(`  - ${p}`);
  } else {
    console.log('\nAll guides check out.');
  }
  process.exitCode = problems.length ? 1 : 0;
}

await main();
