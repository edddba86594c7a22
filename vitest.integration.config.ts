import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The guides' framework recipes (examples/docs/) import the package by name: resolved to src/ here, as in check:docs.
const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

// Integration tests: child processes, real sockets and real waits (seconds each). `npm run test:integration`;
// CI runs them in their own stage, after the unit tests.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^workflow-automation-sdk\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^workflow-automation-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/integration/**/*.test.ts'],
    // The packed MCP server needs the build: `npm run test:mcp`.
    exclude: [...configDefaults.exclude, 'test/integration/mcp/**'],
    environment: 'node',
    testTimeout: 60_000,
    restoreMocks: true,
    unstubEnvs: true,
    // Once per transport, as the reliability suite.
    setupFiles: ['test/helpers/transport.ts'],
    projects: ['node:http', 'fetch'].map((transport) => ({
      extends: true,
      test: { name: transport, env: { WFA_TEST_TRANSPORT: transport } },
    })),
  },
});
