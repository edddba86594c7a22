/**
 * The msw face of the mock service, for users' own vitest or jest suites: request handlers that respond for
 * one base URL with the same `handle(request)` the HTTP server uses. This is the only module that imports
 * msw, so msw stays an optional peer dependency; and it pulls in nothing from Node, so it runs in browsers.
 */

import { http, HttpResponse, type HttpHandler } from 'msw';
import { MockNetworkError } from './faults.js';
import { createMockService } from './service.js';
import type { MockService, MockServiceOptions } from './types.js';

/**
 * The base URL the handlers respond for when none is given.
 *
 * @example
 * ```ts
 * const client = new Client({ apiKey: handlers.service.apiKey, baseUrl: MOCK_BASE_URL });
 * ```
 */
export const MOCK_BASE_URL = 'https://api.example.test';

/**
 * Where the handlers respond.
 *
 * @example
 * ```ts
 * createMockHandlers(service, { baseUrl: 'https://wfa.internal.test' });
 * ```
 */
export interface MockHandlersTarget {
  /** The service's origin. A path on it is ignored: both prefixes and `/v1/auth` live at the origin. Default {@link MOCK_BASE_URL}. */
  baseUrl?: string | undefined;
}

/**
 * Options of {@link createMockHandlers} when it creates its own service.
 *
 * @example
 * ```ts
 * const handlers = createMockHandlers({ baseUrl: 'https://api.example.test', buildDurationMs: 100 });
 * ```
 */
export interface MockHandlersOptions extends MockServiceOptions, MockHandlersTarget {}

/**
 * msw handlers, plus the service behind them (to reset it, inject faults, or read its `apiKey`).
 *
 * @example
 * ```ts
 * const handlers = createMockHandlers();
 * const server = setupServer(...handlers);
 * afterEach(() => handlers.service.reset());
 * ```
 */
export type MockHandlers = HttpHandler[] & {
  /** The service the handlers respond from: one per `createMockHandlers()` call, unless one was passed in. */
  readonly service: MockService;
};

function isService(value: MockService | MockHandlersOptions | undefined): value is MockService {
  return typeof (value as MockService | undefined)?.handle === 'function';
}

/**
 * Creates msw handlers for the mock service at a base URL: from options (a new service), or for a service you
 * already have. A request that `failNext(n, 'network')` marked becomes msw's network error.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 *
 * const handlers = createMockHandlers({ baseUrl: 'https://api.example.test' });
 * const server = setupServer(...handlers);
 * beforeAll(() => server.listen());
 * afterEach(() => handlers.service.reset());
 * ```
 */
export function createMockHandlers(options?: MockHandlersOptions): MockHandlers;
export function createMockHandlers(service: MockService, target?: MockHandlersTarget): MockHandlers;
export function createMockHandlers(serviceOrOptions?: MockService | MockHandlersOptions, target: MockHandlersTarget = {}): MockHandlers {
  let service: MockService;
  let baseUrl: string | undefined;
  if (isService(serviceOrOptions)) {
    service = serviceOrOptions;
    baseUrl = target.baseUrl;
  } else {
    const { baseUrl: given, ...serviceOptions } = serviceOrOptions ?? {};
    service = createMockService(serviceOptions);
    baseUrl = given;
  }
  const origin = new URL(baseUrl ?? MOCK_BASE_URL).origin;
  const handler = http.all(`${origin}/*`, async ({ request }) => {
    try {
      return await service.handle(request);
    } catch (error) {
      if (error instanceof MockNetworkError) return HttpResponse.error();
      throw error;
    }
  });
  return Object.assign([handler], { service });
}

export { createMockService } from './service.js';
