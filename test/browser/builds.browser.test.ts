/**
 * Waiting for builds in Chromium: the poller's timers, AbortSignal and deadline with the page's own clock.
 */
import { expect, test } from 'vitest';
import { AbortError, BuildFailedError, Client, WaitTimeoutError, type Build } from '../../src/index.js';
import { BUILD_DURATION_MS, describeInBrowser, handlers, MOCK_BASE_URL, WORKFLOW } from './mock.js';

const client = () => new Client({ baseUrl: MOCK_BASE_URL, apiKey: handlers.service.apiKey });

describeInBrowser('waitForBuild in Chromium', () => {
  test('polls with a short interval until the build completes', async () => {
    const wfa = client();
    // Timed from before the create: the build starts then, however long the answer takes on a busy machine.
    const started = performance.now();
    const workflow = await wfa.workflows.create(WORKFLOW);
    const seen: Build[] = [];

    const build = await wfa.waitForBuild(workflow, { intervalMs: 50, onProgress: (b) => seen.push(b) });

    expect(build.status).toBe('completed');
    expect(build.download_url).toMatch(/^https:\/\/api\.example\.test\//);
    expect(performance.now() - started).toBeGreaterThanOrEqual(BUILD_DURATION_MS * 0.8);
    expect(seen.at(-1)?.status).toBe('completed');
    expect(seen.length).toBeGreaterThanOrEqual(2); // at least one `building` state, then `completed`
    const progress = seen.map((b) => b.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // Each state was reported once, and the workflow now shows the finished build.
    expect(new Set(seen.map((b) => JSON.stringify([b.status, b.progress]))).size).toBe(seen.length);
    expect((await wfa.workflows.get(workflow.id)).status).toBe('active');
  });

  test('builds.watch yields each state with `for await`', async () => {
    const wfa = client();
    const workflow = await wfa.workflows.create(WORKFLOW);
    const statuses: string[] = [];
    for await (const build of wfa.builds.watch(workflow.build_id, { intervalMs: 50 })) statuses.push(build.status);
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses[0]).toBe('building');
  });

  test('a failed build rejects with BuildFailedError, carrying the build and its logs', async () => {
    handlers.service.failNextBuild();
    const wfa = client();
    const workflow = await wfa.workflows.create(WORKFLOW);
    const error = await wfa.waitForBuild(workflow, { intervalMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildFailedError);
    expect((error as BuildFailedError).build.status).toBe('failed');
    expect((error as BuildFailedError).logs).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  test('the deadline ends a wait with WaitTimeoutError and the last state seen', async () => {
    const wfa = client();
    const workflow = await wfa.workflows.create(WORKFLOW);
    const error = await wfa.waitForBuild(workflow, { intervalMs: 30, timeoutMs: 120 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).build?.status).toBe('building');
  });

  test('an AbortSignal ends a wait between polls', async () => {
    // Counted at the client's fetch: msw's worker sometimes reports one request twice, the SDK sends it once.
    const polls: string[] = [];
    const wfa = new Client({
      baseUrl: MOCK_BASE_URL,
      apiKey: handlers.service.apiKey,
      fetch: (input, init) => {
        if (String(input).includes('/builds/')) polls.push(String(input));
        return fetch(input, init);
      },
    });
    const workflow = await wfa.workflows.create(WORKFLOW);
    const controller = new AbortController();
    // Aborted as soon as the first poll has answered: the wait is then sleeping before the second.
    const onProgress = () => controller.abort();
    const error = await wfa.waitForBuild(workflow, { intervalMs: 1_000, signal: controller.signal, onProgress }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(polls).toHaveLength(1); // the first poll at once, then the abort during the wait
  });

  test('transient failures only delay the next poll', async () => {
    const wfa = client();
    const workflow = await wfa.workflows.create(WORKFLOW);
    handlers.service.failNext(2, 503);
    const build = await wfa.waitForBuild(workflow, { intervalMs: 50 });
    expect(build.status).toBe('completed');
  });
});
