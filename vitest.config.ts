import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // packages/mcp imports the SDK by name: its source here, so the unit suite needs no build.
  resolve: {
    alias: [{ find: /^workflow-automation-sdk$/, replacement: src('index.ts') }],
  },
  // As the build does (tsup.config.ts), so the User-Agent test sees the package's version.
  define: { __WFA_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Unit tests only, in seconds. Elsewhere: `npm run test:integration` (child processes, real sockets),
    // `npm run test:reliability` (attacks, load), `npm run test:browser` (Chromium). CI runs them all.
    exclude: [...configDefaults.exclude, 'test/integration/**', 'test/reliability/**', 'test/browser/**'],
    environment: 'node',
    // msw stands in for the service here, a double of `fetch`: the unit suite specifies the core over the fetch
    // transport. The reliability and integration suites run on both transports, over real sockets.
    setupFiles: ['test/helpers/transport.ts'],
    env: { WFA_TEST_TRANSPORT: 'fetch' },
    // Two threads that each import the SDK, msw and fast-check once, not once per file: importing was most
    // of the run. Files still share no state that matters: every helper undoes itself after each test
    // (msw handlers, fake timers, mock services), and so do the restore/unstub settings below.
    pool: 'threads',
    maxWorkers: 2,
    isolate: false,
    // Type tests (`*.test-d.ts`) run through `tsc` as part of `npm test`: those files and what they import.
    // The whole project is `npm run typecheck`.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './test/tsconfig.types.json',
    },
    testTimeout: 20_000,
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
