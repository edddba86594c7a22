import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The reliability suite needs --expose-gc and a minute: `npm run test:reliability` (CI runs both).
    // Browser tests run in Chromium: `npm run test:browser`.
    exclude: [...configDefaults.exclude, 'test/reliability/**', 'test/browser/**'],
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
