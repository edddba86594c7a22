import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The guides' examples that are vitest tests (`npm run check:docs`), run against src/ under the package's names.
const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));
const tests = readdirSync('examples/docs')
  .map((file) => `examples/docs/${file}`)
  .filter((file) => file.endsWith('.ts') && readFileSync(file, 'utf8').includes("from 'vitest'"));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^workflow-automation-sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^workflow-automation-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^workflow-automation-sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^workflow-automation-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^workflow-automation-sdk\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^workflow-automation-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: tests,
    testTimeout: 20_000,
  },
});
