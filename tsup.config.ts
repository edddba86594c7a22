import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// The version the User-Agent names, fixed at build time (src/core/user-agent.ts).
const define = { __WFA_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

const library = {
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
    'testing-msw': 'src/testing/msw.ts',
    otel: 'src/otel/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  target: 'es2022',
  platform: 'neutral',
  // No source maps in the package: docs/design.md, "No source maps in the package".
  sourcemap: false,
  clean: false, // `npm run build` empties dist/ first: the two builds below run at once
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

export default defineConfig([
  library,
  {
    // The `wfa` command: ESM only, no types; it carries everything it needs in one file.
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    target: 'es2022',
    platform: 'node',
    sourcemap: false,
    clean: false,
    splitting: false,
    noExternal: ['zod'],
    external: ['msw'],
    removeNodeProtocol: false,
    define,
  },
]);
