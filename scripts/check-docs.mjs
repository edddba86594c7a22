#!/usr/bin/env node
/**
 * Every TypeScript or JavaScript block in a guide (docs/*.md, and CONTRIBUTING.md) is a checked file, included
 * verbatim, named after the language in the fence's info string (which Markdown renderers do not show, so the
 * guides users read carry no marker):
 *
 *   ```ts examples/docs/some-file.ts
 *   …the file's text…
 *   ```
 *
 * `npm run check:docs` runs this, then `tsc -p examples/docs` and the examples that are vitest tests
 * (vitest.docs.config.ts). `node --import tsx scripts/check-docs.mjs --write` copies the files into their blocks.
 *
 * It also compares every version of this SDK that the README or a guide names with package.json's: in
 * `workflow-automation-sdk/X.Y.Z` (a User-Agent) or `…@X.Y.Z` exactly, and in "version X.Y" (which in these
 * texts always means this SDK's) never a later one, nor the current one after "up to", "until" or "before".
 *
 * And every endpoint of the table (src/resources/endpoints.ts) is documented: its method in the README's
 * Resources table, its function in the guides' list of `/funcs`; docs/mcp.md's tool table is the one the MCP
 * server's tools make (scripts/mcp-tools.mts; `--write` makes it again).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ENDPOINTS } from '../src/resources/endpoints.js';
import { withTable } from './mcp-tools.mts';

const CODE = /^(ts|typescript|tsx|js|javascript|mjs|cjs|mts|cts)$/;
const BLOCK = /^```([\w-]*)(?:[ \t]+(\S+))?[ \t]*\n([\s\S]*?)^```$/gm;
const write = process.argv.includes('--write');
const examples = readdirSync('examples/docs')
  .filter((f) => /\.[cm]?[jt]sx?$/.test(f))
  .map((f) => `examples/docs/${f}`);
const included = new Set();
const problems = [];
/** Records a problem and leaves the block as it is. */
const problem = (text, block) => problems.push(text) && block;

const guides = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
  .concat('CONTRIBUTING.md');
// The old form, an `<!-- include: file -->` line above the block: `--write` moves it into the fence.
const OLD_MARKER = /^<!--\s*include:\s*(\S+)\s*-->\n```([\w-]*)\n/gm;
for (const guide of guides) {
  const read = readFileSync(guide, 'utf8');
  const text = write ? read.replace(OLD_MARKER, (_, file, lang) => `\`\`\`${lang} ${file}\n`) : read;
  if (!write && OLD_MARKER.test(read))
    problems.push(`${guide}: an <!-- include: … --> line; the file goes in the fence (\`\`\`ts examples/docs/…), --write moves it`);
  OLD_MARKER.lastIndex = 0;
  const fixed = text.replace(BLOCK, (block, lang, file, body, at) => {
    if (!CODE.test(lang)) return block;
    const where = `${guide}:${text.slice(0, at).split('\n').length}`;
    if (!file) return problem(`${where}: a ${lang} block that names no file (\`\`\`${lang} examples/docs/…)`, block);
    if (!examples.includes(file)) return problem(`${where}: includes ${file}, which is not a file in examples/docs/`, block);
    included.add(file);
    const want = `${readFileSync(file, 'utf8').replace(/\n+$/, '')}\n`;
    if (body === want) return block;
    if (!write) problems.push(`${where}: differs from ${file} (node --import tsx scripts/check-docs.mjs --write copies it in)`);
    // The body after the opening fence (a plain replace of an empty body would write before the fence).
    return block.replace(/^(```[^\n]*\n)[\s\S]*(?=^```$)/m, (_, fence) => fence + want);
  });
  if (write && fixed !== read) writeFileSync(guide, fixed);
}
for (const file of examples) if (!included.has(file)) problems.push(`${file} is not included by any guide`);

const mcp = readFileSync('docs/mcp.md', 'utf8');
const generated = withTable(mcp);
if (write && generated !== mcp) writeFileSync('docs/mcp.md', generated);
else if (generated !== mcp)
  problems.push('docs/mcp.md: the tool table is not the one the tools make (node --import tsx scripts/check-docs.mjs --write makes it)');

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
/** Compares two versions at the precision both give: `0.1` and `0.1.0` are the same. */
const compare = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map(Number));
  const differs = x.findIndex((part, i) => i < y.length && part !== y[i]);
  return differs < 0 ? 0 : x[differs] - y[differs];
};
for (const file of ['README.md', ...guides]) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      for (const [, named] of line.matchAll(/workflow-automation-sdk[/@]v?(\d+\.\d+\.\d+[\w.-]*)/g)) {
        if (named !== version) problems.push(`${where}: names version ${named}, but package.json's is ${version}`);
      }
      for (const [, before, named] of line.matchAll(/\b(up to|until|before)?\s*\bversion\s+v?(\d+(?:\.\d+){0,2})\b/gi)) {
        if (compare(named, version) > 0) problems.push(`${where}: names version ${named}, later than package.json's ${version}`);
        else if (before && compare(named, version) === 0) {
          problems.push(`${where}: "${before} version ${named}" says the current version (${version}) behaved otherwise`);
        }
      }
    });
}

const readme = readFileSync('README.md', 'utf8');
const guideText = guides.map((file) => readFileSync(file, 'utf8')).join('\n');
for (const name of Object.keys(ENDPOINTS)) {
  const [namespace, verb] = name.split('.');
  const row = readme.split('\n').find((line) => line.startsWith(`| \`client.${namespace}\` |`));
  if (!row?.includes(`\`${verb}(`))
    problems.push(`README.md: the Resources table has no \`client.${namespace}\` row naming ${verb}() (${name})`);
  const func = namespace + verb[0].toUpperCase() + verb.slice(1);
  if (!new RegExp(`\`${func}\\b`).test(guideText)) problems.push(`docs/: no guide names ${func}, the /funcs function of ${name}`);
}

for (const p of problems) console.error(`docs: ${p}`);
console.log(
  problems.length ? `${problems.length} problem(s) in the guides` : `${included.size} files of examples/docs/ are in the guides, verbatim`,
);
process.exitCode = problems.length ? 1 : 0;
