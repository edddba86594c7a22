/**
 * Runs before each browser test file (vitest.browser.config.ts `setupFiles`): starts msw's service worker in
 * the page with the mock service's handlers, records what the page sends, and resets everything after each test.
 */
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { handlers, sent, slowHandlers } from './mock.js';

const worker = setupWorker(...handlers, ...slowHandlers);

worker.events.on('request:start', ({ request }) => {
  const { origin } = new URL(request.url);
  if (origin !== location.origin) sent.push({ method: request.method, url: request.url });
});

beforeAll(async () => {
  await worker.start({
    quiet: true,
    // Vite's own module requests pass through untouched.
    onUnhandledRequest: 'bypass',
    serviceWorker: { url: '/mockServiceWorker.js' },
  });
});

afterEach(() => {
  handlers.service.reset();
  slowHandlers.service.reset();
  sent.length = 0;
});

afterAll(() => {
  worker.stop();
  handlers.service.close();
  slowHandlers.service.close();
});
