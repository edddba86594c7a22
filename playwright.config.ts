/**
 * The browser consumer check: the packed package bundled into a page and run in Chromium (Debian's
 * /usr/bin/chromium, never a downloaded browser). `npm run build && npm run test:consumer`.
 * The page and the mock service are started by the test itself (test/consumer/app.ts) on free ports, so two
 * runs on one machine never collide.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './scripts/chromium.mjs';

export default defineConfig({
  testDir: 'test/consumer',
  outputDir: '.tmp/playwright',
  workers: 1,
  forbidOnly: !!process.env['CI'],
  timeout: 120_000,
  reporter: [['list']],
  use: { browserName: 'chromium', headless: true, launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } },
});
