#!/usr/bin/env node
/**
 * Every TypeScript or JavaScript block in a guide (docs/*.md, and CONTRIBUTING.md) is a checked file, included verbatim:
 *
 *   <!-- include: examples/docs/some-file.ts -->
 *   ```ts
 *   …the file's text…
 *   ```
 *
 * `npm run check:docs` runs this, then `tsc -p examples/docs` and the examples that are vitest tests
 * (vitest.docs.config.ts). `node scripts/check-docs.mjs --write` copies the files into their blocks.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const CODE = /^(ts|typescript|tsx|js|javascript|mjs|cjs|mts|cts)$/;
const BLOCK = /^(?:<!--\s*include:\s*(\S+)\s*-->\n)?```([\w-]*)\n([\s\S]*?)^```$/gm;
const write = process.argv.includes('--write');
const examples = readdirSync('examples/docs')
  .filter((f) => /\.[cm]?[jt]sx?$/.test(f))
  .map((f) => `examples/docs/${f}`);
const included = new Set();
const problems = [];
/** Records a problem and leaves the block as it is. */
const problem = (text, block) => problems.push(text) && block;

for (const guide of readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
  .concat('CONTRIBUTING.md')) {
  const text = readFileSync(guide, 'utf8');
  const fixed = text.replace(BLOCK, (block, file, lang, body, at) => {
    if (!CODE.test(lang)) return block;
    const where = `${guide}:${text.slice(0, at).split('\n').length}`;
    if (!file) return problem(`${where}: a ${lang} block without an <!-- include: examples/docs/… --> line above it`, block);
    if (!examples.includes(file)) return problem(`${where}: includes ${file}, which is not a file in examples/docs/`, block);
    included.add(file);
    const want = `${readFileSync(file, 'utf8').replace(/\n+$/, '')}\n`;
    if (body === want) return block;
    if (!write) problems.push(`${where}: differs from ${file} (node scripts/check-docs.mjs --write copies it in)`);
    return block.replace(body, () => want);
  });
  if (write && fixed !== text) writeFileSync(guide, fixed);
}
for (const file of examples) if (!included.has(file)) problems.push(`${file} is not included by any guide`);

for (const p of problems) console.error(`docs: ${p}`);
console.log(
  problems.length ? `${problems.length} problem(s) in the guides` : `${included.size} files of examples/docs/ are in the guides, verbatim`,
);
process.exitCode = problems.length ? 1 : 0;
