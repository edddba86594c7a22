/**
 * The mock service the browser tests talk to, through msw's service worker (started in `setup.ts`): one
 * fast service at {@link MOCK_BASE_URL}, and a slow one (every answer takes {@link SLOW_LATENCY_MS}) for
 * aborts and timeouts. Every request the page sends to either is recorded in {@link sent}.
 *
 * This module has no browser-only import, so that `npm test` (which collects every `*.test.ts` under test/)
 * can load the browser test files in Node and skip them there.
 */
import { describe } from 'vitest';
import { createMockHandlers, MOCK_BASE_URL } from '../../src/testing/msw.js';

export { MOCK_BASE_URL };

/** Builds take this long on the mock, so `waitForBuild` sees a few `building` states first. */
export const BUILD_DURATION_MS = 400;

/** Where the slow service answers. */
export const SLOW_BASE_URL = 'https://slow.example.test';
/** How long the slow service takes to answer anything. */
export const SLOW_LATENCY_MS = 5_000;

/** The mock service, fast. */
export const handlers = createMockHandlers({ baseUrl: MOCK_BASE_URL, buildDurationMs: BUILD_DURATION_MS, seed: 7 });
/** The mock service, slow. */
export const slowHandlers = createMockHandlers({ baseUrl: SLOW_BASE_URL, latencyMs: SLOW_LATENCY_MS, seed: 8 });

/** One request the page sent to a mock service. */
export interface SentRequest {
  method: string;
  url: string;
}

/** The requests sent to the mock services since the last reset, oldest first (filled by `setup.ts`). */
export const sent: SentRequest[] = [];

/** The requests sent to one path (without the origin, with the query), for counting attempts. */
export function sentTo(path: string): SentRequest[] {
  return sent.filter((r) => new URL(r.url).pathname + new URL(r.url).search === path || new URL(r.url).pathname === path);
}

/** `describe` in a browser; in Node (when `npm test` collects these files) the suite is skipped. */
export const describeInBrowser = describe.runIf(typeof window !== 'undefined' && typeof document !== 'undefined');

/** A workflow the mock accepts. */
export const WORKFLOW = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hooks/orders' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};
