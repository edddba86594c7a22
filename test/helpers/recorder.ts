/**
 * An msw server for core tests that records every request it sees, so a test can assert exactly what was sent
 * and how many times. Unknown routes answer 404 JSON, like a real server.
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const BASE = 'https://wfa.test';

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** Starts one msw server for the test file; `use()` adds handlers for one test. */
export function recordingServer() {
  const seen: Seen[] = [];
  const pending: Promise<void>[] = [];
  const server = setupServer(http.all('*', () => HttpResponse.json({ error: 'no such route' }, { status: 404 })));
  server.events.on('request:start', ({ request }) => {
    const entry: Seen = { method: request.method, url: new URL(request.url), headers: request.headers, body: undefined };
    seen.push(entry);
    pending.push(
      request
        .clone()
        .text()
        .then((text) => {
          try {
            entry.body = text === '' ? undefined : JSON.parse(text);
          } catch {
            entry.body = text;
          }
        }, (e) => { entry.body = `unreadable: ${String(e)}`; }),
    );
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => server.close());
  return {
    seen,
    /** Waits until every recorded body has been read. */
    async bodies(): Promise<unknown[]> {
      await Promise.all(pending);
      return seen.map((s) => s.body);
    },
    use(...handlers: RequestHandler[]) {
      server.use(...handlers);
    },
  };
}
