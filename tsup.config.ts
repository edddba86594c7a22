import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
    'testing-msw': 'src/testing/msw.ts',
  },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  // ky is ESM-only: the CJS build must carry it, or `require()` fails at the first call. zod is carried too:
  // Node loads zod/mini as ~90 separate modules (about 55 ms of a cold import); bundled and tree-shaken it is one
  // file. zod stays a dependency because the published types refer to it.
  noExternal: ['ky', 'zod'],
  // msw is an optional peer (only the testing/msw entry uses it); Node built-ins stay imports.
  external: ['msw', /^node:/],
  removeNodeProtocol: false,
});
