import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // As the build does (tsup.config.ts), so the User-Agent test sees the package's version.
  define: { __WFA_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Unit tests only, in seconds. Elsewhere: `npm run test:integration` (child processes, real sockets),
    // `npm run test:reliability` (attacks, load), `npm run test:browser` (Chromium). CI runs them all.
    exclude: [...configDefaults.exclude, 'test/integration/**', 'test/reliability/**', 'test/browser/**'],
    environment: 'node',
    // Type tests (`*.test-d.ts`) run through `tsc` as part of `npm test`.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    restoreMocks: true,
    unstubEnvs: true,
  },
});
