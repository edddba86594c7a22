/**
 * A vitest setup file: selects the transport the clients of a test project send through. With
 * `WFA_TEST_TRANSPORT=fetch`, a client given no `fetch` uses the global `fetch` on Node too, as it does in every
 * other runtime; otherwise the SDK chooses as it does for users (`node:http` on Node).
 */
import { vi } from 'vitest';
import type { chooseTransport } from '../../src/core/choose-transport.js';

vi.mock('../../src/core/choose-transport.js', async (importOriginal) => {
  const actual = await importOriginal<{ chooseTransport: typeof chooseTransport }>();
  if (process.env['WFA_TEST_TRANSPORT'] !== 'fetch') return actual;
  return {
    ...actual,
    chooseTransport: (options: Parameters<typeof chooseTransport>[0]) =>
      actual.chooseTransport({ ...options, fetch: options.fetch ?? ((input, init) => fetch(input, init)) }),
  };
});
