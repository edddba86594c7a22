import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';

// The version the User-Agent names, fixed at build time (src/core/user-agent.ts).
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const define = { __WFA_VERSION__: JSON.stringify(version) };

const entry = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  'testing-msw': 'src/testing/msw.ts',
  otel: 'src/otel/index.ts',
  redis: 'src/redis/index.ts',
};

const library = {
  entry,
  target: 'es2022',
  platform: 'neutral',
  // No source maps in the package: docs/design.md, "No source maps in the package".
  sourcemap: false,
  clean: false, // `npm run build` empties dist/ first: the builds below run at once
  splitting: true,
  treeshake: true,
  // zod is carried: Node loads zod's core as ~90 separate modules (about 55 ms of a cold import); bundled and
  // tree-shaken it is one file. The published types are plain interfaces, so consumers never need zod:
  // the package has no runtime dependency.
  noExternal: ['zod'],
  // msw and @opentelemetry/api are optional peers (only the testing/msw and otel entries use them); Node
  // built-ins stay imports.
  external: ['msw', '@opentelemetry/api', /^node:/],
  removeNodeProtocol: false,
  define,
} satisfies Options;

// The CLI's imports of the package's own entries, as the built files next to dist/cli.js. `core/errors.ts` is
// re-exported whole by the root entry.
const ownEntries = new Map([
  [resolve('src/index.ts'), './index.js'],
  [resolve('src/core/errors.ts'), './index.js'],
  [resolve('src/webhooks/index.ts'), './webhooks.js'],
  [resolve('src/testing/index.ts'), './testing.js'],
]);

export default defineConfig([
  {
    ...library,
    format: ['cjs'],
    // One copy of the types, the CommonJS one (`.d.cts`); `@internal` members, and the types only they use,
    // stay out of it (and out of autocomplete).
    dts: { compilerOptions: { ignoreDeprecations: '6.0', stripInternal: true } },
  },
  {
    ...library,
    format: ['esm'],
    dts: false,
    // The ESM types re-export the CommonJS ones, as an ES module may: the same declarations, published once.
    onSuccess: async () => {
      for (const name of Object.keys(entry)) writeFileSync(`dist/${name}.d.ts`, `export * from './${name}.cjs';\n`);
    },
  },
  {
    // The `wfa` command: ESM only, no types. It imports the package's entries rather than bundling a second
    // copy of the SDK and zod; only its own code (and the redaction helpers, not public) is in the file.
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    target: 'es2022',
    platform: 'node',
    sourcemap: false,
    clean: false,
    splitting: false,
    removeNodeProtocol: false,
    define,
    esbuildPlugins: [
      {
        name: 'own-entries',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => {
            const built = ownEntries.get(resolve(resolveDir, path).replace(/\.js$/, '.ts'));
            return built ? { path: built, external: true } : undefined;
          });
          // `wfa --version` reads package.json: of it, the CLI carries the version only.
          build.onLoad({ filter: /[\\/]package\.json$/ }, () => ({ contents: JSON.stringify({ version }), loader: 'json' }));
        },
      },
    ],
  },
]);
