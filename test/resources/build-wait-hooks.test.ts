/**
 * `hooks.onWait` around a build wait's polls, on the fake clock: what it hears, and that it is run like every
 * other hook. A throw or rejection fails the wait, even after the build completed (as a throwing `onSuccess`
 * fails a call that succeeded), and a promise is awaited within the wait's deadline and signal.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AbortError, BuildFailedError, Client, WaitTimeoutError, WfaError, type WaitEvent } from '../../src/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const DONE = { status: 'completed', download_url: 'https://downloads.example.com/bld_1.zip' };

/** Serves bld_1 as `states`, one per poll, the last one repeated. */
function serve(...states: object[]): void {
  let polls = 0;
  server.use(http.get(`${BASE_URL}/v1/builds/:id`, () => HttpResponse.json(states[Math.min(polls++, states.length - 1)])));
}

function client(onWait: (event: WaitEvent) => void | Promise<void>): Client {
  return new Client({ baseUrl: BASE_URL, apiKey: API_KEY, apiPrefix: '/v1', hooks: { onWait } });
}

/** An `onWait` that records every event, and does `atEnd` on the `end` one. */
function onEnd(atEnd: () => void | Promise<void>) {
  const events: string[] = [];
  const hook = (event: WaitEvent) => {
    events.push(`${event.type} ${event.poll} ${event.status ?? '-'} ${event.outcome ?? '-'}`);
    return event.type === 'end' ? atEnd() : undefined;
  };
  return { events, hook };
}

const never = () => new Promise<void>(() => undefined);

describe('hooks.onWait', () => {
  it('hears the start, each poll and the end, with the outcome', async () => {
    serve({ status: 'building', progress: 50 }, DONE);
    const { events, hook } = onEnd(() => undefined);

    const state = await settle(client(hook).waitForBuild('bld_1'));

    expect(state.ok).toBe(true);
    expect(events).toEqual(['start 0 - -', 'poll 1 building -', 'poll 2 completed -', 'end 2 completed completed']);
  });

  describe('an end that fails after the build completed fails the wait, as an onSuccess that fails fails its call', () => {
    it.each([
      [
        'throws',
        () => {
          throw new TypeError('metrics down');
        },
      ],
      ['rejects', () => Promise.reject(new TypeError('metrics down'))],
    ])('one that %s: WfaError naming the hook, its error as the cause', async (_, atEnd) => {
      serve({ status: 'building', progress: 50 }, DONE);
      const { events, hook } = onEnd(atEnd);

      const state = await settle(client(hook).waitForBuild('bld_1'));

      expect(state.ok).toBe(false);
      const error = (state as { error: WfaError }).error;
      expect(error).toBeInstanceOf(WfaError);
      expect(error.message).toMatch(/^hooks\.onWait threw \(TypeError\)/);
      expect((error.cause as Error).message).toBe('metrics down');
      expect(state.elapsedMs).toBe(2000);
      expect(events.at(-1)).toBe('end 2 completed completed');
    });
  });

  it('an end that returns a promise is awaited: the wait resolves when it settles', async () => {
    serve(DONE);
    const { hook } = onEnd(() => new Promise((resolve) => setTimeout(resolve, 1500)));

    const state = await settle(client(hook).waitForBuild('bld_1'));

    expect(state.ok).toBe(true);
    expect(state.elapsedMs).toBe(1500);
  });

  it('an end that hangs is awaited only until the deadline: WaitTimeoutError there, as any hook past its bounds', async () => {
    serve(DONE);
    const { hook } = onEnd(never);

    const state = await settle(client(hook).waitForBuild('bld_1', { timeoutMs: 5000 }));

    expect(state.ok === false && state.error).toBeInstanceOf(WaitTimeoutError);
    expect(state.elapsedMs).toBe(5000);
  });

  it('an end that hangs is awaited only until the signal aborts: AbortError then', async () => {
    serve(DONE);
    const { hook } = onEnd(never);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 3000);

    const state = await settle(client(hook).waitForBuild('bld_1', { signal: controller.signal }));

    expect(state.ok === false && state.error).toBeInstanceOf(AbortError);
    expect(state.elapsedMs).toBe(3000);
  });

  describe('after the wait failed, as onError after a failed call', () => {
    it('an end that throws or rejects fails the wait with its own WfaError', async () => {
      serve({ status: 'failed' });
      const { hook } = onEnd(() => Promise.reject(new RangeError('x')));

      const state = await settle(client(hook).waitForBuild('bld_1'));

      expect(state.ok === false && (state.error as Error).message).toMatch(/^hooks\.onWait threw \(RangeError\)/);
    });

    it('an end that hangs is not waited for past the deadline: the wait rejects then with its own error', async () => {
      serve({ status: 'failed', logs: ['boom'] });
      const { events, hook } = onEnd(never);

      const state = await settle(client(hook).waitForBuild('bld_1', { timeoutMs: 4000 }));

      expect(state.ok === false && state.error).toBeInstanceOf(BuildFailedError);
      expect(state.elapsedMs).toBe(4000);
      expect(events.at(-1)).toBe('end 1 failed failed');
    });
  });
});
