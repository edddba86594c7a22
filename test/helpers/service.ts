/**
 * The one fake of the service for unit tests: msw in this process, recording every request (method, URL,
 * headers, parsed body) so a test can assert exactly what was sent. A test answers with src/testing's mock
 * service (`useMock`), with its own status, headers or body (`reply`, `handle`, `use`), or gets a 404 JSON.
 */
import { http, HttpResponse, type HttpResponseResolver, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createMockHandlers } from '../../src/testing/msw.js';
import { DEFAULT_MOCK_USER } from '../../src/testing/index.js';
import type { MockService, MockServiceOptions } from '../../src/testing/index.js';

/** The fake service's origin. */
export const BASE_URL = 'https://wfa.test';
/** The API key the test clients hold (the mock service accepts it too). Distinctive, so a leak is easy to find. */
export const API_KEY = 'wfa_test_key_7f3c9a1e5b2d4680';
/** The two path prefixes the service is known under. */
export const PREFIXES = ['/api/v1', '/v1'] as const;

/** What the fake service saw of one request. */
export interface RecordedRequest {
  /** Upper-case method. */
  method: string;
  /** The full URL as received. */
  url: string;
  /** The host, with its port if any. */
  host: string;
  /** The path, percent-encoding kept (`/v1/workflows/a%2Fb`). */
  path: string;
  /** The raw query string with its `?`, or `''`. */
  search: string;
  /** The query parameters. */
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body: parsed JSON, the text when it is not JSON, `undefined` when empty. */
  body: unknown;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const methods = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete } as const;

/**
 * Starts one msw server for the calling test file (listen before all, reset after each, close after all) and
 * returns the way to add routes and read what was sent.
 *
 * @example
 * ```ts
 * const service = useService();
 * service.reply('GET', '/api/v1/workflows/wf_1', 200, { id: 'wf_1' });
 * await client.workflows.get('wf_1');
 * expect(service.single().path).toBe('/api/v1/workflows/wf_1');
 * ```
 */
export function useService() {
  const requests: RecordedRequest[] = [];
  let overrides: RequestHandler[] = [];
  const mocks: MockService[] = [];

  // Runs first for every request, reads its body before any route can, and falls through to the routes.
  const recorder = http.all('*', async ({ request }) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const entry: RecordedRequest = {
      method: request.method,
      url: request.url,
      host: url.host,
      path: url.pathname,
      search: url.search,
      query: url.searchParams,
      headers,
      body: undefined,
    };
    requests.push(entry);
    const text = await request.clone().text();
    if (text === '') return;
    try {
      entry.body = JSON.parse(text);
    } catch {
      entry.body = text;
    }
  });

  const notFound = http.all('*', () => HttpResponse.json({ error: { message: 'Not found' } }, { status: 404 }));
  const server = setupServer(recorder, notFound);
  const install = () => server.resetHandlers(recorder, ...overrides, notFound);

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    overrides = [];
    install();
    requests.length = 0;
    for (const mock of mocks.splice(0)) mock.close();
  });
  afterAll(() => server.close());

  return {
    /** Every request received in this test, in order. */
    requests,

    /**
     * Answers this test's requests to {@link BASE_URL} from a new mock service of src/testing, which takes
     * {@link API_KEY} and is closed after the test. Routes added after this call take precedence over it.
     */
    useMock(options: MockServiceOptions = {}): MockService {
      const handlers = createMockHandlers({ users: [{ ...DEFAULT_MOCK_USER, apiKey: API_KEY }], ...options, baseUrl: BASE_URL });
      mocks.push(handlers.service);
      this.use(...handlers);
      return handlers.service;
    },

    /** Adds msw handlers for this test, ahead of the earlier ones; any URL, not only {@link BASE_URL}. */
    use(...handlers: RequestHandler[]) {
      overrides = [...handlers, ...overrides];
      install();
    },

    /** Answers `method path` (path relative to {@link BASE_URL}; msw wildcards allowed) with a resolver. */
    handle(method: Method, path: string, resolver: HttpResponseResolver) {
      this.use(methods[method](BASE_URL + path, resolver));
    },

    /** Answers `method path` with a status and a JSON body (no body when `body` is `undefined`). */
    reply(method: Method, path: string, status: number, body?: unknown, headers?: Record<string, string>) {
      this.handle(method, path, () =>
        body === undefined
          ? new HttpResponse(null, { status, headers })
          : HttpResponse.json(body as Parameters<typeof HttpResponse.json>[0], { status, headers }),
      );
    },

    /** Asserts that exactly one request was made and returns it. */
    single(): RecordedRequest {
      expect(requests, 'number of requests sent').toHaveLength(1);
      return requests[0]!;
    },
  };
}

/**
 * Awaits a promise (or a list's `PagePromise`) that must reject, checks the error's class and returns it typed.
 *
 * @example
 * ```ts
 * const error = await rejectionOf(client.workflows.get('..'), ValidationError);
 * expect(error.field).toBe('id');
 * ```
 */
export async function rejectionOf<E>(promise: PromiseLike<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await Promise.resolve(promise).then(
    (value) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error(`expected a rejection with ${type.name}, but it resolved to ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}
