/**
 * An esbuild plugin for the published build: unwraps `doc(schema, 'description')` into `schema` in
 * src/resources/*.ts. The descriptions exist for the type generator (`npm run gen:types`), which reads them
 * from the source at build time; shipped, they were about 0.7 KB of every browser bundle for nothing.
 *
 * It edits by the TypeScript syntax tree, not by pattern: only `doc(` and `, '…')` are cut from each call, so
 * nested calls and whatever the first argument holds are kept as written.
 */
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

interface Plugin {
  name: string;
  setup(build: { onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<{ contents: string; loader: 'ts' }>): void }): void;
}

/** The source with every two-argument `doc(...)` call replaced by its first argument. */
export function stripDocCalls(source: string, fileName = 'file.ts'): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const cuts: [start: number, end: number][] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'doc' && node.arguments.length === 2) {
      const [schema] = node.arguments as unknown as [ts.Expression];
      cuts.push([node.getStart(file), schema.getStart(file)], [schema.getEnd(), node.getEnd()]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = source;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  return out;
}

/** The plugin: applies {@link stripDocCalls} to the resource files. */
export const stripSchemaDocs: Plugin = {
  name: 'strip-schema-docs',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]resources[\\/][^\\/]+\.ts$/ }, async ({ path }) => ({
      contents: stripDocCalls(await readFile(path, 'utf8'), path),
      loader: 'ts',
    }));
  },
};
