/**
 * `npm run test:reliability`: the suite of test/reliability (faults, load, long runs, secrets, hostile input,
 * large bodies) against real servers on 127.0.0.1, ending with a printed summary table of its figures.
 * Separate from `npm test`, which stays fast.
 */
import { defineConfig } from 'vitest/config';
import { createFiguresDir, ReliabilitySummaryReporter } from './test/reliability/summary.js';

const figuresDir = createFiguresDir();

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    environment: 'node',
    // Child processes, one per file, each started with `--expose-gc` so heap figures are taken after a full GC.
    pool: 'forks',
    execArgv: ['--expose-gc'],
    isolate: true,
    maxWorkers: 2,
    // The fault matrix runs its cases concurrently; each has its own server.
    maxConcurrency: 128,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    env: { WFA_RELIABILITY_DIR: figuresDir },
    reporters: ['default', new ReliabilitySummaryReporter(figuresDir)],
    restoreMocks: true,
    // The suite runs once per transport: what a client given no `fetch` uses on Node, and `fetch` itself.
    setupFiles: ['test/helpers/transport.ts'],
    projects: ['node:http', 'fetch'].map((transport) => ({
      extends: true,
      test: { name: transport, env: { WFA_RELIABILITY_DIR: figuresDir, WFA_TEST_TRANSPORT: transport } },
    })),
  },
});
