import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Integration tests: child processes, real sockets and real waits (seconds each). `npm run test:integration`;
// CI runs them in their own stage, after the unit tests.
export default defineConfig({
  resolve: {
    // A guide's example imported by a test (the proxy recipe) runs against src/, as `npm run check:docs` does.
    alias: [{ find: /^workflow-automation-sdk$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
  },
});
