/**
 * Waiting for a build (`client.waitForBuild`, `client.builds.wait`, `client.builds.watch`,
 * `client.workflows.createAndWait`), on a fake clock: every way a wait can end, the exact polling schedule,
 * and that nothing (timer or abort listener) is left behind however it ends.
 */
import { revokedProxy } from '../helpers/hostile.js';
import { getEventListeners } from 'node:events';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  BuildFailedError,
  Client,
  ConflictError,
  MAX_RETRY_AFTER_MS,
  NotFoundError,
  PermissionDeniedError,
  ResponseValidationError,
  UnprocessableEntityError,
  ValidationError,
  WaitTimeoutError,
  type Build,
  type ClientOptions,
  type CompletedBuild,
  type Workflow,
} from '../../src/index.js';
import { HttpCore } from '../../src/core/http.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';

const DOWNLOAD_URL = 'https://downloads.example.com/bld_1.zip';

const server = useService();
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function makeClient(options: ClientOptions = {}): Client {
  return new Client({ baseUrl: BASE_URL, apiKey: API_KEY, apiPrefix: '/v1', ...options });
}

// ---- the fake service ------------------------------------------------------------------------------------

const building = (progress?: number, extra: Record<string, unknown> = {}) => ({
  status: 'building',
  ...(progress === undefined ? {} : { progress }),
  ...extra,
});
const completed = (extra: Record<string, unknown> = {}) => ({ status: 'completed', download_url: DOWNLOAD_URL, ...extra });

/** An HTTP error answer. */
const reply =
  (status: number, body?: unknown, headers?: Record<string, string>): HttpResponseResolver =>
  () =>
    body === undefined ? new HttpResponse(null, { status, headers }) : HttpResponse.json(body as object, { status, headers });
/** A 200 with headers. */
const ok =
  (body: object, headers: Record<string, string>): HttpResponseResolver =>
  () =>
    HttpResponse.json(body, { headers });
/** A request that never gets an answer (no timer of its own, so it cannot keep anything alive). */
const hang: HttpResponseResolver = () => new Promise<never>(() => undefined);
/** The connection fails (fetch rejects with a TypeError). */
const networkError: HttpResponseResolver = () => HttpResponse.error();

type Step = object | HttpResponseResolver;

/**
 * Serves `GET /v1/builds/:id` from a script: objects are 200 JSON bodies, functions are resolvers; the last
 * step repeats. Records when (on the fake clock, from now) and where each poll arrived.
 */
function serveBuild(...steps: Step[]) {
  const start = Date.now();
  const polls: number[] = [];
  const paths: string[] = [];
  const headers: Headers[] = [];
  server.use(
    http.get(`${BASE_URL}/v1/builds/:id`, (info) => {
      const step = steps[Math.min(polls.length, steps.length - 1)]!;
      polls.push(Date.now() - start);
      paths.push(new URL(info.request.url).pathname);
      headers.push(info.request.headers);
      return typeof step === 'function' ? (step as HttpResponseResolver)(info) : HttpResponse.json(step);
    }),
  );
  return {
    /** Fake-clock times of each poll, in ms since the script was installed. */
    polls,
    paths,
    headers,
    /** Gaps between consecutive polls. */
    gaps: () => polls.slice(1).map((t, i) => t - polls[i]!),
    start,
  };
}

/** Watches a promise without awaiting it, so the test can move the clock while it is pending. */
function observe<T>(promise: Promise<T>) {
  const start = Date.now();
  const state: { settled: boolean; value?: T; error?: unknown; at?: number } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value, at: Date.now() - start }),
    (error: unknown) => Object.assign(state, { settled: true, error, at: Date.now() - start }),
  );
  return state;
}

/** Runs the clock until nothing is scheduled, then returns how the promise ended and when. */
async function run<T>(promise: Promise<T>) {
  const state = observe(promise);
  await vi.runAllTimersAsync();
  expect(state.settled, 'the wait settled once every timer had run').toBe(true);
  return state;
}

/** Runs the clock and returns the rejection, checked to be of `type`. */
async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E & { at: number }> {
  const state = await run(promise);
  expect(state.error, `rejected with ${type.name}`).toBeInstanceOf(type);
  return Object.assign(state.error as E & object, { at: state.at! });
}

/** Lets pending promise callbacks and zero-delay work finish without moving the clock. */
async function flush(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

/** An AbortSignal whose abort listeners are counted as Node itself counts them, to prove a wait leaves none. */
function trackedSignal() {
  const controller = new AbortController();
  const { signal } = controller;
  return { controller, signal, listening: () => getEventListeners(signal, 'abort').length };
}

/** Asserts that a finished wait left nothing behind: no timer, no listener on its signal. */
async function expectNothingLeft(tracked?: ReturnType<typeof trackedSignal>): Promise<void> {
  await flush();
  expect(vi.getTimerCount(), 'timers still scheduled').toBe(0);
  if (tracked) {
    expect(tracked.listening(), 'abort listeners still attached').toBe(0);
  }
}

// ---- client.waitForBuild -----------------------------------------------------------------------------------

describe('client.waitForBuild', () => {
  describe('resolving', () => {
    it('polls at once, then every 2 s while the build moves, and resolves with the completed build', async () => {
      const service = serveBuild(building(10), building(50), completed({ logs: ['done'], size: 123 }));

      const { value } = await run(makeClient().waitForBuild('bld_1'));

      expect(service.polls).toEqual([0, 2000, 4000]);
      expect(value).toEqual({ status: 'completed', download_url: DOWNLOAD_URL, logs: ['done'], size: 123 });
      expect(service.headers[0]!.get('x-api-key')).toBe(API_KEY);
    });

    it('types the result as CompletedBuild, whose download_url is a string', async () => {
      serveBuild(completed());
      const { value } = await run(makeClient().waitForBuild('bld_1'));
      const build = value!;
      expectTypeOf(build).toEqualTypeOf<CompletedBuild>();
      expectTypeOf(build.download_url).toEqualTypeOf<string>();
      expect(build.download_url).toBe(DOWNLOAD_URL);
    });

    it('accepts a workflow and follows its build_id', async () => {
      const service = serveBuild(completed());
      const workflow: Workflow = {
        id: 'wf_1',
        name: 'n',
        platform: 'zapier',
        status: 'building',
        created_at: '2024-05-01T00:00:00Z',
        build_id: 'bld_77',
      };

      await run(makeClient().waitForBuild(workflow));

      expect(service.paths).toEqual(['/v1/builds/bld_77']);
    });

    it('URL-encodes the build id, so an id cannot change which endpoint is polled', async () => {
      const service = serveBuild(completed());
      await run(makeClient().waitForBuild('bld 1;x'));
      expect(service.paths).toEqual(['/v1/builds/bld%201%3Bx']);
    });

    it('is the same as client.builds.wait', async () => {
      const service = serveBuild(building(5), completed());
      const { value } = await run(makeClient().builds.wait('bld_1', { intervalMs: 500 }));
      expect(service.polls).toEqual([0, 500]);
      expect(value?.download_url).toBe(DOWNLOAD_URL);
    });

    it('sends the extra headers with every poll', async () => {
      const service = serveBuild(building(1), completed());
      await run(makeClient().waitForBuild('bld_1', { headers: { 'x-trace': 't1' } }));
      expect(service.headers.map((h) => h.get('x-trace'))).toEqual(['t1', 't1']);
    });

    it('leaves no timer and no abort listener behind', async () => {
      serveBuild(building(10), completed());
      const tracked = trackedSignal();
      await run(makeClient().waitForBuild('bld_1', { signal: tracked.signal }));
      await expectNothingLeft(tracked);
    });
  });

  describe('input checks, before any request', () => {
    it('rejects a workflow without build_id with a ValidationError naming the field', async () => {
      const service = serveBuild(completed());
      const error = await rejection(makeClient().waitForBuild({ id: 'wf_9', build_id: undefined }), ValidationError);
      expect(error.field).toBe('build_id');
      expect(error.message).toMatch(/workflow wf_9 .*build_id: is missing, so there is no build to wait for/);
      expect(service.polls).toEqual([]);
    });

    it.each([
      ['an empty id', ''],
      ['"."', '.'],
      ['"..", which a URL parser would resolve to another path', '..'],
    ])('rejects %s with a ValidationError', async (_, id) => {
      const service = serveBuild(completed());
      await rejection(makeClient().waitForBuild(id), ValidationError);
      expect(service.polls).toEqual([]);
    });

    it.each([
      ['intervalMs: 0', { intervalMs: 0 }, 'intervalMs'],
      ['intervalMs: NaN', { intervalMs: Number.NaN }, 'intervalMs'],
      ['intervalMs: Infinity', { intervalMs: Infinity }, 'intervalMs'],
      ['timeoutMs: -1', { timeoutMs: -1 }, 'timeoutMs'],
      ['requestTimeoutMs: 0', { requestTimeoutMs: 0 }, 'requestTimeoutMs'],
      ['maxIntervalMs below intervalMs', { intervalMs: 1000, maxIntervalMs: 500 }, 'maxIntervalMs'],
      // No primitive value: comparing it with maxIntervalMs would throw a TypeError, not a ValidationError.
      ['intervalMs: an object without a prototype', { intervalMs: Object.create(null) as number, maxIntervalMs: 500 }, 'intervalMs'],
      ['onProgress: not a function', { onProgress: 'log' as unknown as () => void }, 'onProgress'],
    ])('rejects %s with a ValidationError', async (_, options, field) => {
      const service = serveBuild(completed());
      const error = await rejection(makeClient().waitForBuild('bld_1', options), ValidationError);
      expect(error.field).toBe(field);
      expect(service.polls).toEqual([]);
    });

    it.each([
      ['signal', { signal: 'not a signal' }, { signal: 'not a signal' }],
      ['headers', { headers: { 'x-note': '€' } }, { headers: { 'x-note': '€' } }],
      ["requestTimeoutMs, a call's timeoutMs", { timeoutMs: 0 }, { requestTimeoutMs: 0 }],
      ["intervalMs, a call's timeoutMs", { timeoutMs: Number.NaN }, { intervalMs: Number.NaN }],
    ])('words a bad %s as the per-call options word it', async (_, callOptions, waitOptions) => {
      const client = makeClient();
      const callError = await rejection(client.workflows.get('wf_1', callOptions as never), ValidationError);
      const waitError = await rejection(client.waitForBuild('bld_1', waitOptions as never), ValidationError);
      expect(waitError.issues.map((issue) => issue.message)).toEqual(callError.issues.map((issue) => issue.message));
      expect(waitError.message).toContain('options of waitForBuild');
    });

    it('accepts timeoutMs: Infinity, a wait with no deadline', async () => {
      serveBuild(building(1), completed());
      const { value } = await run(makeClient().waitForBuild('bld_1', { timeoutMs: Infinity }));
      expect(value?.status).toBe('completed');
    });
  });

  describe('a completed build without a download URL', () => {
    it.each([
      ['missing', completed({ download_url: undefined })],
      ['null', completed({ download_url: null })],
    ])('rejects with ResponseValidationError when download_url is %s', async (_, body) => {
      serveBuild(building(90), body);
      const error = await rejection(makeClient().waitForBuild('bld_1'), ResponseValidationError);
      expect(error.issues).toEqual([expect.objectContaining({ path: ['download_url'] })]);
      expect(error.body).toMatchObject({ status: 'completed' });
      expect(error.message).toContain('/v1/builds/bld_1');
    });
  });

  describe('failure statuses', () => {
    it.each(['failed', 'error', 'cancelled', 'canceled'])(
      'rejects with BuildFailedError on "%s", carrying the build and its logs',
      async (status) => {
        const logs = [
          { at: '12:00', line: 'Compiling action 1/1' },
          { at: '12:01', line: 'boom' },
        ];
        const failed = { status, progress: 40, logs, reason: 'bad action' };
        const service = serveBuild(building(40), failed);
        const onProgress = vi.fn();

        const error = await rejection(makeClient().waitForBuild('bld_1', { onProgress }), BuildFailedError);

        expect(error.build).toEqual(failed);
        expect(error.logs).toEqual(logs);
        expect(error.message).toContain(`"${status}"`);
        expect(error.at).toBe(2000);
        expect(service.polls).toHaveLength(2);
        expect(onProgress).toHaveBeenLastCalledWith(failed);
        await expectNothingLeft();
      },
    );
  });

  describe('the schedule', () => {
    it('polls every intervalMs while nothing moves: a stalled build is not polled less often', async () => {
      const service = serveBuild(
        building(10),
        building(10),
        building(10),
        building(10),
        building(10),
        building(10),
        building(10),
        completed(),
      );

      await run(makeClient().waitForBuild('bld_1'));

      expect(service.gaps()).toEqual([2000, 2000, 2000, 2000, 2000, 2000, 2000]);
    });

    it('backs off only while polls fail: 1.5x per failed poll up to maxIntervalMs, intervalMs again after an answer', async () => {
      const service = serveBuild(building(1), reply(503), reply(503), networkError, reply(502), building(1), building(1), completed());
      await run(makeClient().waitForBuild('bld_1', { intervalMs: 1000, maxIntervalMs: 2000 }));
      expect(service.gaps()).toEqual([1000, 1500, 2000, 2000, 2000, 1000, 1000]);
    });

    it('still accepts maxIntervalMs, which no longer stretches the polls of a stalled build', async () => {
      const service = serveBuild(building(1), building(1), building(1), building(1), completed());
      await run(makeClient().waitForBuild('bld_1', { intervalMs: 1000, maxIntervalMs: 30_000 }));
      expect(service.gaps()).toEqual([1000, 1000, 1000, 1000]);
    });

    it('keeps polling through a status it has never seen, at the interval, never faster', async () => {
      const service = serveBuild(
        { status: 'queued' },
        { status: 'provisioning', eta: 30 },
        { status: 'provisioning', eta: 29 },
        { status: 'QUEUED_FOR_SIGNING' },
        completed(),
      );
      const seen: string[] = [];

      const { value } = await run(makeClient().waitForBuild('bld_1', { onProgress: (b) => seen.push(b.status) }));

      expect(value?.status).toBe('completed');
      expect(seen).toEqual(['queued', 'provisioning', 'QUEUED_FOR_SIGNING', 'completed']);
      expect(service.gaps()).toEqual([2000, 2000, 2000, 2000]);
    });

    it('treats progress going backwards as a change, reported once', async () => {
      const service = serveBuild(building(50), building(30), building(30), building(60), completed());
      const progress: (number | null | undefined)[] = [];

      await run(makeClient().waitForBuild('bld_1', { onProgress: (b) => progress.push(b.progress) }));

      expect(progress).toEqual([50, 30, 60, undefined]);
      expect(service.polls).toEqual([0, 2000, 4000, 6000, 8000]);
    });

    it('waits at least as long as a Retry-After on a successful poll asks', async () => {
      const service = serveBuild(ok(building(10), { 'retry-after': '5' }), building(20), completed());
      await run(makeClient().waitForBuild('bld_1'));
      expect(service.polls).toEqual([0, 5000, 7000]);
    });

    it('sleeps no longer than MAX_RETRY_AFTER_MS on a Retry-After, on a success or an error: one rule with retries', async () => {
      const service = serveBuild(
        ok(building(10), { 'retry-after': '3600' }),
        reply(503, undefined, { 'retry-after': '86400' }),
        completed(),
      );
      await run(makeClient().waitForBuild('bld_1'));
      expect(service.polls).toEqual([0, MAX_RETRY_AFTER_MS, 2 * MAX_RETRY_AFTER_MS]);
    });
  });

  describe('a finished build is seen within one intervalMs, whatever the progress, in no more polls than a naive loop', () => {
    // The shared fake clock: time moves only when nothing else can run, so each time below is exact.
    useFakeClock();

    /** Progress at `t` ms into a build that ends at `endsAt`. Stepwise: 0, then 50 from 10 %, 90 from 60 %. */
    const patterns = {
      rising: (t: number, endsAt: number) => Math.floor((100 * t) / endsAt),
      stepwise: (t: number, endsAt: number) => (t < endsAt * 0.1 ? 0 : t < endsAt * 0.6 ? 50 : 90),
      stalled: () => 0,
    };

    /** Serves a build that is `completed` from `endsAt` ms on (fake clock) and building before; records polls. */
    function serveTimedBuild(endsAt: number, progress: (t: number, endsAt: number) => number) {
      const start = Date.now();
      const polls: number[] = [];
      server.use(
        http.get(`${BASE_URL}/v1/builds/:id`, () => {
          const t = Date.now() - start;
          polls.push(t);
          return HttpResponse.json(t >= endsAt ? completed() : building(progress(t, endsAt)));
        }),
      );
      return polls;
    }

    /** When `while (true) { get; sleep intervalMs }` polls, answers taking no time: every intervalMs until it sees the end. */
    const naivePolls = (endsAt: number, intervalMs: number) =>
      Array.from({ length: Math.ceil(endsAt / intervalMs) + 1 }, (_, i) => i * intervalMs);

    const cases = (['rising', 'stepwise', 'stalled'] as const).flatMap((pattern) =>
      [
        [10_000, undefined],
        [10_700, undefined],
        [7_300, 1000],
        [23_050, 5000],
      ].map(([endsAt, intervalMs]) => [pattern, endsAt!, intervalMs] as const),
    );

    it.each(cases)('%s progress, build ending at %i ms, intervalMs %s', async (pattern, endsAt, intervalMs) => {
      const interval = intervalMs ?? 2000;
      const polls = serveTimedBuild(endsAt, patterns[pattern]);

      const state = await settle(makeClient().waitForBuild('bld_1', intervalMs === undefined ? {} : { intervalMs }));

      const naive = naivePolls(endsAt, interval);
      expect(state.ok && state.value.status).toBe('completed');
      // Resolved at the first poll tick at or after the end: exactly when the naive loop sees it.
      expect(state.elapsedMs).toBe(naive.at(-1));
      expect(state.elapsedMs - endsAt).toBeLessThanOrEqual(interval);
      expect(polls).toEqual(naive);
    });

    it("the issue's case: a 10 s build stalled at 0 is seen at 10 s, not 16.25 s, in 6 polls", async () => {
      const polls = serveTimedBuild(10_000, patterns.stalled);
      const state = await settle(makeClient().waitForBuild('bld_1'));
      expect(state.elapsedMs).toBe(10_000);
      expect(polls).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);
    });

    it('rising progress through the mock service: createAndWait on a 10 s build resolves at 10 s exactly', async () => {
      server.useMock({ buildDurationMs: 10_000 });
      const progress: number[] = [];

      const state = await settle(
        makeClient({ apiPrefix: '/api/v1' }).workflows.createAndWait(createInput, {
          onProgress: (b) => progress.push(b.progress ?? -1),
        }),
      );

      expect(state.ok).toBe(true);
      expect(state.elapsedMs).toBe(10_000);
      expect(progress).toEqual([0, 20, 40, 60, 80, 100]);
      expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(6); // the naive loop's count
    });

    it('a Retry-After longer than the interval wins over it, on a stalled build', async () => {
      const service = serveBuild(building(0), ok(building(0), { 'retry-after': '7' }), building(0), completed());
      const state = await settle(makeClient().waitForBuild('bld_1'));
      expect(service.polls).toEqual([0, 2000, 9000, 11_000]);
      expect(state.elapsedMs).toBe(11_000);
    });

    it('a Retry-After on a 503 wins over the failed-poll backoff too', async () => {
      const service = serveBuild(building(0), reply(503, undefined, { 'retry-after': '20' }), completed());
      await settle(makeClient().waitForBuild('bld_1'));
      expect(service.polls).toEqual([0, 2000, 22_000]);
    });
  });

  describe('transient failures while polling', () => {
    it('waits out a 429 for its Retry-After, even past the interval cap, and carries on', async () => {
      const service = serveBuild(building(10), reply(429, { error: 'slow down' }, { 'retry-after': '30' }), building(50), completed());

      const { value } = await run(makeClient().waitForBuild('bld_1'));

      expect(value?.status).toBe('completed');
      expect(service.polls).toEqual([0, 2000, 32_000, 34_000]);
    });

    it('keeps going after 503s, one request per poll (the poller owns the schedule, not the core retries)', async () => {
      const service = serveBuild(building(10), reply(503, { message: 'maintenance' }), reply(503), building(60), completed());

      const { value } = await run(makeClient({ maxRetries: 5 }).waitForBuild('bld_1'));

      expect(value?.status).toBe('completed');
      expect(service.polls).toEqual([0, 2000, 5000, 9500, 11_500]);
    });

    it('honours a Retry-After on a 503', async () => {
      const service = serveBuild(reply(503, undefined, { 'retry-after': '12' }), completed());
      await run(makeClient().waitForBuild('bld_1'));
      expect(service.polls).toEqual([0, 12_000]);
    });

    it.each([
      ['a connection error', networkError],
      ['a 408', reply(408)],
      ['a 502 with an HTML page', () => new HttpResponse('<html><title>Bad gateway</title></html>', { status: 502 })],
    ])('keeps going after %s', async (_, failure) => {
      const service = serveBuild(building(10), failure, completed());
      const { value } = await run(makeClient().waitForBuild('bld_1'));
      expect(value?.status).toBe('completed');
      expect(service.polls).toEqual([0, 2000, 5000]);
    });

    it('cuts a poll that hangs after requestTimeoutMs and polls again', async () => {
      const service = serveBuild(building(10), hang, completed());
      const { value } = await run(makeClient().waitForBuild('bld_1', { requestTimeoutMs: 1000 }));
      expect(value?.status).toBe('completed');
      // The poll at 2000 times out at 3000; the next comes 3000 (1.5 x 2000) later.
      expect(service.polls).toEqual([0, 2000, 6000]);
    });

    it('sends each poll as one attempt, its timeout never longer than the time left', async () => {
      serveBuild(building(10));
      const request = vi.spyOn(HttpCore.prototype, 'requestRedacting');

      await rejection(makeClient({ timeoutMs: 2500, maxRetries: 3 }).waitForBuild('bld_1', { timeoutMs: 6000 }), WaitTimeoutError);

      // Polls at 0, 2000 and 4000 (2500 is the client's timeout, then only 2000 ms are left); none at the deadline.
      expect(request.mock.calls.map(([sent]) => [sent.timeoutMs, sent.maxRetries])).toEqual([
        [2500, 0],
        [2500, 0],
        [2000, 0],
      ]);
    });

    it('logs each transient failure through the client logger', async () => {
      serveBuild(reply(503), completed());
      const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
      await run(makeClient({ logger }).waitForBuild('bld_1'));
      expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/poll of build bld_1 failed \(503 .*polling on until the deadline/));
      expect(JSON.stringify(logger.warn.mock.calls)).not.toContain(API_KEY);
    });

    it('still ends at the deadline when every poll fails, with no build seen', async () => {
      serveBuild(reply(503));
      const error = await rejection(makeClient().waitForBuild('bld_1', { timeoutMs: 20_000 }), WaitTimeoutError);
      expect(error.build).toBeUndefined();
      expect(error.at).toBe(20_000);
    });
  });

  describe('errors that end the wait at once', () => {
    it.each([
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [400, BadRequestError],
      [409, ConflictError],
      [422, UnprocessableEntityError],
    ] as const)('%i rejects with the typed error on that poll', async (status, ErrorClass) => {
      const service = serveBuild(building(10), reply(status, { message: 'no' }));
      const tracked = trackedSignal();

      const error = await rejection(makeClient().waitForBuild('bld_1', { signal: tracked.signal }), ErrorClass);

      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect(error.at).toBe(2000);
      expect(service.polls).toEqual([0, 2000]);
      await expectNothingLeft(tracked);
    });

    it('a body that is not a build (no status) rejects with ResponseValidationError', async () => {
      serveBuild({ state: 'building' });
      const error = await rejection(makeClient().waitForBuild('bld_1'), ResponseValidationError);
      expect(error.issues[0]?.path).toEqual(['status']);
    });

    it('without response validation, a body that is not a build still rejects clearly', async () => {
      serveBuild(() => HttpResponse.json([1, 2]));
      const error = await rejection(makeClient({ validateResponses: false }).waitForBuild('bld_1'), ResponseValidationError);
      expect(error.body).toEqual([1, 2]);
    });

    it('checks each poll as builds.get checks a build, with or without response validation', async () => {
      for (const validateResponses of [true, false]) {
        serveBuild({ status: 'building', progress: 'forty' });
        const error = await rejection(makeClient({ validateResponses }).waitForBuild('bld_1'), ResponseValidationError);
        expect(error.issues.map((issue) => issue.path)).toEqual([['progress']]);
        expect(error.message).toContain('/v1/builds/bld_1');
      }
    });
  });

  describe('the deadline', () => {
    it('rejects with WaitTimeoutError at timeoutMs exactly, carrying the last build seen', async () => {
      const service = serveBuild(building(40, { logs: ['still going'] }));

      const error = await rejection(makeClient().waitForBuild('bld_1', { timeoutMs: 10_000 }), WaitTimeoutError);

      expect(error.at).toBe(10_000);
      expect(error.timeoutMs).toBe(10_000);
      expect(error.build).toEqual(building(40, { logs: ['still going'] }));
      expect(service.polls).toEqual([0, 2000, 4000, 6000, 8000]);
      await expectNothingLeft();
    });

    it('aborts a poll still in flight when the deadline passes (timeout mid-request)', async () => {
      const service = serveBuild(building(40), hang);
      const tracked = trackedSignal();

      const error = await rejection(makeClient().waitForBuild('bld_1', { timeoutMs: 3000, signal: tracked.signal }), WaitTimeoutError);

      // The client's 60 s request timeout does not matter: each poll gets at most the time left.
      expect(error.at).toBe(3000);
      expect(error.build).toEqual(building(40));
      expect(service.polls).toEqual([0, 2000]);
      await expectNothingLeft(tracked);
    });

    it('defaults to 10 minutes', async () => {
      // A Retry-After of a minute: ten polls, not three hundred, reach the default deadline.
      serveBuild(ok(building(1), { 'retry-after': '60' }));
      const error = await rejection(makeClient().waitForBuild('bld_1'), WaitTimeoutError);
      expect(error.at).toBe(600_000);
      expect(error.timeoutMs).toBe(600_000);
    });
  });

  describe('aborting', () => {
    it('before the first poll: rejects with AbortError carrying the reason, and sends nothing', async () => {
      const service = serveBuild(completed());
      const tracked = trackedSignal();
      const reason = new Error('user left');
      tracked.controller.abort(reason);

      const error = await rejection(makeClient().waitForBuild('bld_1', { signal: tracked.signal }), AbortError);

      expect(error.cause).toBe(reason);
      expect(error.at).toBe(0);
      expect(service.polls).toEqual([]);
      await expectNothingLeft(tracked);
    });

    it('mid-sleep: rejects at once, without waiting for the sleep to end, and polls no more', async () => {
      const service = serveBuild(building(10));
      const tracked = trackedSignal();
      const state = observe(makeClient().waitForBuild('bld_1', { signal: tracked.signal, intervalMs: 60_000 }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(service.polls).toEqual([0]);
      expect(tracked.listening(), 'one listener while sleeping').toBe(1);

      tracked.controller.abort('stop');
      await flush();

      expect(state.error).toBeInstanceOf(AbortError);
      expect((state.error as AbortError).cause).toBe('stop');
      expect(state.at).toBe(1000);
      await expectNothingLeft(tracked);
      await vi.advanceTimersByTimeAsync(600_000);
      expect(service.polls).toEqual([0]);
    });

    it('mid-request: rejects at once and cancels the request', async () => {
      let requestSignal: AbortSignal | undefined;
      const service = serveBuild(building(10), ({ request }) => {
        requestSignal = request.signal;
        return new Promise<never>(() => undefined);
      });
      const tracked = trackedSignal();
      const state = observe(makeClient().waitForBuild('bld_1', { signal: tracked.signal }));
      await vi.advanceTimersByTimeAsync(2500);
      expect(service.polls).toEqual([0, 2000]);
      expect(state.settled).toBe(false);

      tracked.controller.abort();
      await flush();

      expect(state.error).toBeInstanceOf(AbortError);
      expect(state.at).toBe(2500);
      expect(requestSignal?.aborted, 'the poll request was aborted').toBe(true);
      await expectNothingLeft(tracked);
    });

    it('after a failure, a timeout or an abort, the signal has no listeners left', async () => {
      for (const [steps, options] of [
        [[building(1), { status: 'failed' }], {}],
        [[building(1)], { timeoutMs: 5000 }],
        [[reply(404)], {}],
      ] as const) {
        serveBuild(...steps);
        const tracked = trackedSignal();
        const state = await run(makeClient().waitForBuild('bld_1', { ...options, signal: tracked.signal }));
        expect(state.error).toBeInstanceOf(Error);
        await expectNothingLeft(tracked);
      }
    });
  });

  describe('onProgress', () => {
    it('fires once per change of status or progress, never twice for the same state', async () => {
      serveBuild(
        building(10),
        building(10),
        building(30, { logs: ['a'] }),
        building(30, { logs: ['a', 'b'] }),
        { status: 'packaging' },
        { status: 'packaging', progress: null },
        completed(),
      );
      const calls: Build[] = [];

      await run(makeClient().waitForBuild('bld_1', { onProgress: (b) => calls.push(b) }));

      expect(calls.map((b) => [b.status, b.progress])).toEqual([
        ['building', 10],
        ['building', 30],
        ['packaging', undefined],
        ['completed', undefined],
      ]);
    });

    it('a callback that throws or rejects is an observer: the wait goes on, and the logger hears of it', async () => {
      const callbacks: [() => unknown, number][] = [
        [
          () => {
            throw new Error('render failed');
          },
          3,
        ],
        [() => Promise.reject(new Error('render failed')), 3],
        [() => new Promise<void>(() => undefined), 0],
      ];
      for (const [onProgress, warned] of callbacks) {
        const service = serveBuild(building(10), building(50), completed());
        const warnings: string[] = [];
        const logger = { error() {}, info() {}, debug() {}, warn: (line: string) => void warnings.push(line) };
        const tracked = trackedSignal();

        const state = await run(
          makeClient({ logger }).waitForBuild('bld_1', { signal: tracked.signal, onProgress: onProgress as () => void }),
        );

        expect(state.error).toBeUndefined();
        expect(service.polls).toHaveLength(3);
        expect(warnings).toEqual(Array.from({ length: warned }, () => '[wfa] onProgress for build bld_1 failed (Error); the wait goes on'));
        await expectNothingLeft(tracked);
      }
    });

    it('a callback that throws or rejects with a value nothing can inspect (a revoked Proxy) is still only an observer', async () => {
      const callbacks = [
        () => {
          throw revokedProxy();
        },
        () => Promise.reject(revokedProxy()),
      ];
      for (const onProgress of callbacks) {
        const service = serveBuild(building(10), completed());
        const warnings: string[] = [];
        const logger = { error() {}, info() {}, debug() {}, warn: (line: string) => void warnings.push(line) };

        const state = await run(makeClient({ logger }).waitForBuild('bld_1', { onProgress: onProgress as () => void }));

        expect(state.error).toBeUndefined();
        expect(service.polls).toHaveLength(2);
        expect(warnings).toEqual(Array.from({ length: 2 }, () => '[wfa] onProgress for build bld_1 failed (object); the wait goes on'));
      }
    });
  });
});

// ---- client.builds.watch ------------------------------------------------------------------------------------

/** Collects what a watch yields, and how it ended. */
async function collect(iterable: AsyncIterable<Build>) {
  const yielded: Build[] = [];
  const ended = (async () => {
    for await (const build of iterable) yielded.push(build);
  })();
  const state = await run(ended);
  return { yielded, error: state.error, at: state.at };
}

describe('client.builds.watch', () => {
  it('yields only changed states and ends after the completed one', async () => {
    const service = serveBuild(building(10), building(10), building(40), building(40), building(40), completed());

    const { yielded, error } = await collect(makeClient().builds.watch('bld_1'));

    expect(error).toBeUndefined();
    expect(yielded).toEqual([building(10), building(40), completed()]);
    expect(service.polls).toHaveLength(6);
  });

  it('yields a failed build as its last state instead of throwing', async () => {
    serveBuild(building(10), { status: 'cancelled', logs: ['cancelled by user'] });
    const { yielded, error } = await collect(makeClient().builds.watch('bld_1'));
    expect(error).toBeUndefined();
    expect(yielded.at(-1)).toEqual({ status: 'cancelled', logs: ['cancelled by user'] });
  });

  it('sends nothing until the iteration starts, and holds no timer before', async () => {
    const service = serveBuild(completed());
    const watch = makeClient().builds.watch('bld_1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(service.polls).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    await collect(watch);
    expect(service.polls).toEqual([10_000]);
  });

  it('stops polling when the loop is left early, leaving nothing behind', async () => {
    const service = serveBuild(building(10), building(20), completed());
    const tracked = trackedSignal();
    const ended = (async () => {
      for await (const build of makeClient().builds.watch('bld_1', { signal: tracked.signal })) {
        if (build.progress === 10) break;
      }
    })();

    await run(ended);
    await vi.advanceTimersByTimeAsync(60_000);

    expect(service.polls).toEqual([0]);
    await expectNothingLeft(tracked);
  });

  it('holds no timer while the loop body runs', async () => {
    serveBuild(building(10), completed());
    let timersDuringBody = -1;
    await collect(
      (async function* () {
        for await (const build of makeClient().builds.watch('bld_1')) {
          timersDuringBody = Math.max(timersDuringBody, vi.getTimerCount());
          yield build;
        }
      })(),
    );
    expect(timersDuringBody).toBe(0);
  });

  it('throws WaitTimeoutError at its deadline, after yielding what it saw', async () => {
    serveBuild(building(10), building(20));
    const { yielded, error, at } = await collect(makeClient().builds.watch('bld_1', { timeoutMs: 8000 }));
    expect(yielded).toEqual([building(10), building(20)]);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).build).toEqual(building(20));
    expect(at).toBe(8000);
  });

  it('throws AbortError when its signal aborts', async () => {
    serveBuild(building(10));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 3000);
    const { error, at } = await collect(makeClient().builds.watch('bld_1', { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(at).toBe(3000);
  });

  it('throws bad arguments at the call, before iterating', () => {
    const client = makeClient();
    expect(() => client.builds.watch('', {})).toThrow(ValidationError);
    expect(() => client.builds.watch({ build_id: null })).toThrow(/build_id: is missing/);
    expect(() => client.builds.watch('bld_1', { intervalMs: -5 })).toThrow(ValidationError);
  });
});

// ---- client.workflows.createAndWait --------------------------------------------------------------------------

const createInput = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message' }],
};
const createdWorkflow = { id: 'wf_1', ...createInput, status: 'building', created_at: '2024-05-01T12:00:00Z', build_id: 'bld_1' };

function serveCreate(body: object = createdWorkflow) {
  const created: unknown[] = [];
  server.use(
    http.post(`${BASE_URL}/v1/workflows`, async ({ request }) => {
      created.push({ body: await request.json(), trace: request.headers.get('x-trace') });
      return HttpResponse.json(body, { status: 201 });
    }),
  );
  return created;
}

describe('client.workflows.createAndWait', () => {
  it('creates the workflow, waits for its build and resolves with both', async () => {
    const created = serveCreate();
    const service = serveBuild(building(20), completed());
    const events: string[] = [];

    const { value } = await run(
      makeClient().workflows.createAndWait(createInput, {
        headers: { 'x-trace': 't9' },
        onCreated: (wf) => events.push(`created ${wf.id}`),
        onProgress: (b) => events.push(`${b.status} ${b.progress ?? ''}`.trim()),
      }),
    );

    expect(created).toEqual([{ body: createInput, trace: 't9' }]);
    expect(service.paths).toEqual(['/v1/builds/bld_1', '/v1/builds/bld_1']);
    expect(service.headers.map((h) => h.get('x-trace'))).toEqual(['t9', 't9']);
    expect(events).toEqual(['created wf_1', 'building 20', 'completed']);
    expect(value?.workflow).toEqual(createdWorkflow);
    expect(value?.build).toEqual(completed());
    expectTypeOf(value!.build.download_url).toEqualTypeOf<string>();
  });

  it('checks the input before sending anything', async () => {
    const created = serveCreate();
    const error = await rejection(makeClient().workflows.createAndWait({ ...createInput, name: '' }), ValidationError);
    expect(error.field).toBe('name');
    expect(created).toEqual([]);
  });

  it('rejects with ResponseValidationError when the created workflow has no build_id, the workflow in its body', async () => {
    serveCreate({ ...createdWorkflow, build_id: undefined });
    const service = serveBuild(completed());
    const onCreated = vi.fn();

    const error = await rejection(makeClient().workflows.createAndWait(createInput, { onCreated }), ResponseValidationError);

    expect(error.message).toMatch(/POST \/v1\/workflows \(created workflow\): build_id: is required/);
    expect(error.issues[0]?.path).toEqual(['build_id']);
    expect(error.body).toMatchObject({ id: 'wf_1' }); // what was created is not lost
    expect(onCreated).not.toHaveBeenCalled(); // create() itself rejects: onCreated only ever gets a build_id
    expect(service.polls).toEqual([]);
  });

  it('rejects with BuildFailedError when the build fails; onCreated already had the workflow', async () => {
    serveCreate();
    serveBuild(building(10), { status: 'failed', logs: 'stack trace' });
    const onCreated = vi.fn();

    const error = await rejection(makeClient().workflows.createAndWait(createInput, { onCreated }), BuildFailedError);

    expect(error.logs).toBe('stack trace');
    expect(onCreated).toHaveBeenCalledWith(createdWorkflow);
  });

  it('times the deadline from the creation, and its signal covers the wait', async () => {
    serveCreate();
    serveBuild(building(10));
    const tracked = trackedSignal();
    setTimeout(() => tracked.controller.abort(), 7000);

    const error = await rejection(makeClient().workflows.createAndWait(createInput, { signal: tracked.signal }), AbortError);

    expect(error.at).toBe(7000);
    await expectNothingLeft(tracked);
  });
});
