/**
 * A fake Workflow Automation Service for resource tests: an msw server that records every request it receives
 * (method, full URL, headers, parsed body) so a test can assert exactly what was sent and how many times.
 * Routes are added per test; anything else answers 404 JSON, like a real server's unknown route.
 *
 * @example
 * ```ts
 * const service = useMockService();
 * service.reply('GET', '/api/v1/workflows/wf_1', 200, { id: 'wf_1' });
 * await client.workflows.get('wf_1');
 * expect(service.single().path).toBe('/api/v1/workflows/wf_1');
 * ```
 */
import { http, HttpResponse, type HttpResponseResolver, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** The fake service's origin. */
export const BASE_URL = 'https://wfa.test';
/** The API key the test clients hold. Long and distinctive, so a leak is easy to find in any text. */
export const API_KEY = 'wfa_test_key_7f3c9a1e5b2d4680';
/** The two path prefixes the service is known under. */
export const PREFIXES = ['/api/v1', '/v1'] as const;

/** What the fake service saw of one request. */
export interface RecordedRequest {
  /** Upper-case method. */
  method: string;
  /** The full URL as received. */
  url: string;
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

const methods = {
  GET: http.get,
  POST: http.post,
  PUT: http.put,
  PATCH: http.patch,
  DELETE: http.delete,
} as const;

/**
 * Starts one msw server for the calling test file (listen before all, reset after each, close after all) and
 * returns the way to add routes and read what was sent.
 */
export function useMockService() {
  const requests: RecordedRequest[] = [];
  let routes: RequestHandler[] = [];

  // Runs first for every request and falls through (returns nothing) to the routes.
  const recorder = http.all('*', async ({ request }) => {
    const url = new URL(request.url);
    const text = await request.clone().text();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    requests.push({ method: request.method, url: request.url, path: url.pathname, search: url.search, query: url.searchParams, headers, body });
  });
  const notFound = http.all('*', () => HttpResponse.json({ error: { message: 'Not found' } }, { status: 404 }));

  const server = setupServer(recorder, notFound);
  const install = () => server.resetHandlers(recorder, ...routes, notFound);

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    routes = [];
    install();
    requests.length = 0;
  });
  afterAll(() => server.close());

  return {
    /** Every request received in this test, in order. */
    requests,

    /** Answers `method path` (path relative to {@link BASE_URL}; msw wildcards allowed) with a resolver. */
    handle(method: Method, path: string, resolver: HttpResponseResolver) {
      routes.push(methods[method](BASE_URL + path, resolver));
      install();
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
