import { defineConfig } from 'vitest/config';

// Integration tests: child processes, real sockets and real waits (seconds each). `npm run test:integration`;
// CI runs them in their own stage, after the unit tests.
export default defineConfig({
  test: {
    include: ['test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
  },
});
