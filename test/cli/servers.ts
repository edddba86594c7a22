/**
 * Mock servers for the tests that run `wfa` or an example as a real process (test/integration): started on
 * 127.0.0.1 by a test, closed when that test ends (also when tests run concurrently: the test's own
 * `onTestFinished`). In-process CLI tests use the msw service of test/helpers/service.ts instead.
 */
import type { TestContext } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/testing/index.js';

/** Starts a mock server that is closed when the test owning `context` finishes. */
export async function mockServer(context: Pick<TestContext, 'onTestFinished'>, options: MockServerOptions = {}): Promise<MockServer> {
  const server = await startMockServer({ host: '127.0.0.1', port: 0, ...options });
  context.onTestFinished(() => server.close());
  return server;
}

/** The environment that points `wfa` or an example at a mock server. */
export function envFor(server: MockServer): Record<string, string> {
  return { WFA_BASE_URL: server.url, WFA_API_KEY: server.apiKey };
}
