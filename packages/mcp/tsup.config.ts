import { resolve } from 'node:path';
import { defineConfig } from 'tsup';

// The SDK's public entries stay imports of the installed package, as the `wfa` build keeps them; the tools
// (src/tools/, which the SDK does not publish) are bundled into the bin. The MCP SDK and zod stay dependencies
// (tsup leaves package.json's dependencies as imports): the SDK's files carry their own zod, not one to import.
const sdk = resolve('../../src');
const ownEntries = new Map([
  [resolve(sdk, 'index.ts'), 'workflow-automation-sdk'],
  [resolve(sdk, 'core/errors.ts'), 'workflow-automation-sdk'],
]);

export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: false,
  clean: true,
  removeNodeProtocol: false,
  esbuildPlugins: [
    {
      name: 'own-entries',
      setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => {
          const entry = ownEntries.get(resolve(resolveDir, path).replace(/\.js$/, '.ts'));
          return entry ? { path: entry, external: true } : undefined;
        });
      },
    },
  ],
});
