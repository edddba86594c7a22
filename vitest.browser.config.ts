/**
 * Browser tests: the client's real code paths in Chromium (Debian's /usr/bin/chromium, never a downloaded
 * browser), with the mock service answering through msw's service worker.
 *
 *   npm run test:browser          # vitest run --config vitest.browser.config.ts
 *
 * msw's worker script is copied from the installed msw into .tmp/msw-public/ (ignored by git) each time this
 * config loads, and served from there as Vite's public dir. Generated rather than committed: the worker checks
 * that its script matches the msw library version, so a committed copy goes stale on every msw upgrade; and
 * we do not rely on Vitest serving its own copy at /mockServiceWorker.js (an internal detail Vitest 5 dropped).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM, CHROMIUM_ARGS } from './scripts/chromium.mjs';

const publicDir = fileURLToPath(new URL('./.tmp/msw-public/', import.meta.url));
mkdirSync(publicDir, { recursive: true });
copyFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), `${publicDir}mockServiceWorker.js`);

export default defineConfig({
  publicDir,
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    setupFiles: ['test/browser/setup.ts'],
    testTimeout: 20_000,
    // Failure screenshots and attachments go where git ignores them.
    attachmentsDir: '.tmp/vitest-attachments',
    browser: {
      enabled: true,
      headless: true,
      screenshotDirectory: '.tmp/browser-screenshots',
      provider: playwright({
        launchOptions: {
          executablePath: CHROMIUM,
          args: CHROMIUM_ARGS,
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
