import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

// The packed MCP server (`npm run test:mcp`, which builds first): child processes driven by the official MCP
// client over stdio and Streamable HTTP. Apart from test:integration, which runs before the build in CI.
export default defineConfig({
  resolve: {
    alias: [{ find: /^workflow-automation-sdk\/testing$/, replacement: src('testing/index.ts') }],
  },
  test: {
    include: ['test/integration/mcp/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
