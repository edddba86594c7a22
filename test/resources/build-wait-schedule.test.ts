/**
 * Many waits on one client share one poll schedule, on a fake clock: the next due poll first, a bounded number
 * in flight, about the service's pace in polls a second when the client is paced, each wait's own deadline,
 * signal and onProgress, deliveries (`builds.notify`) that end a wait with one poll, and `builds.waitForAll`.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbortError, BuildFailedError, Client, ValidationError, WaitTimeoutError, WfaError } from '../../src/index.js';
import { MAX_POLLS_IN_FLIGHT, PollSchedule, type Place } from '../../src/resources/poll-schedule.js';

const DOWNLOAD_URL = 'https://downloads.example.com/bld.zip';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

type Body = Record<string, unknown>;

/**
 * A build service as a `fetch`: `GET …/builds/:id` answers `state(id)`. With `perSecond`, requests are answered
 * one after another at that pace, as a client's rate gate in front of the service would let them through.
 * `hold` keeps every answer back until `release()`.
 */
function fakeService(options: { perSecond?: number; state?: (id: string, poll: number) => Body; hold?: boolean } = {}) {
  const start = Date.now();
  const polls: { at: number; id: string }[] = [];
  const perBuild = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  let nextSlot = 0;
  let held: (() => void)[] = [];
  const state = options.state ?? (() => ({ status: 'building', progress: 10 }));
  const service = {
    polls,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    /** Polls of `id` so far. */
    count: (id: string) => perBuild.get(id) ?? 0,
    release: () => {
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    fetch: async (input: unknown): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const id = decodeURIComponent(url.pathname.split('/').pop()!);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (options.hold) await new Promise<void>((resolve) => held.push(resolve));
        if (options.perSecond) {
          const slot = Math.max(Date.now(), nextSlot);
          nextSlot = slot + 1000 / options.perSecond;
          await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
        }
        const poll = perBuild.get(id) ?? 0;
        perBuild.set(id, poll + 1);
        polls.push({ at: Date.now() - start, id });
        return Response.json(state(id, poll));
      } finally {
        inFlight--;
      }
    },
  };
  return service;
}

/** A client without its rate gate, so that what is measured is the schedule alone. */
function makeClient(fetch: (input: unknown) => Promise<Response>): Client {
  return new Client({
    baseUrl: 'http://builds.test',
    apiKey: 'wfa_test_schedule',
    apiPrefix: '/v1',
    fetch,
    maxRetries: 0,
    rateLimit: false,
  });
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `bld_${i}`);

/** Keeps a promise's outcome without awaiting it, so the clock can move while it is pending. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('PollSchedule', () => {
  /** Places queued with these due times on a schedule of one slot, and the order they are granted in. */
  async function grantOrder(dueTimes: number[]) {
    const schedule = new PollSchedule(1);
    const order: number[] = [];
    const turns = dueTimes.map(async (dueAt) => {
      const place = schedule.join(`b:${dueAt}`);
      const turn = await schedule.turn(place, dueAt, { deadline: Infinity });
      order.push(dueAt);
      expect(turn).toBe('go');
      schedule.leave(place);
    });
    await vi.runAllTimersAsync();
    await Promise.all(turns);
    return order;
  }

  it('grants the next due poll first, whatever order the waits queued in', async () => {
    expect(await grantOrder([3_000, 1_000, 2_000, 500])).toEqual([500, 1_000, 2_000, 3_000]);
  });

  it('grants the most overdue first once a slot frees up', async () => {
    const schedule = new PollSchedule(1);
    const first = schedule.join('b:first');
    expect(await schedule.turn(first, 0, { deadline: Infinity })).toBe('go');
    const order: string[] = [];
    const queued = [
      ['late', 300],
      ['early', 100],
      ['middle', 200],
    ].map(async ([name, dueAt]) => {
      const place = schedule.join(`b:${name}`);
      await schedule.turn(place, dueAt as number, { deadline: Infinity });
      order.push(name as string);
      schedule.leave(place);
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual([]);
    schedule.leave(first);
    await Promise.all(queued);
    expect(order).toEqual(['early', 'middle', 'late']);
  });

  it('grants a wait a delivery named before every overdue one', async () => {
    const schedule = new PollSchedule(1);
    const first = schedule.join('b:first');
    expect(await schedule.turn(first, 0, { deadline: Infinity })).toBe('go');
    const order: string[] = [];
    const queued = ['overdue', 'named'].map(async (name, i) => {
      const place = schedule.join(`b:${name}`);
      await schedule.turn(place, i * 100, { deadline: Infinity });
      order.push(name);
      schedule.leave(place);
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(schedule.poke('b:named')).toBe(1);
    schedule.leave(first);
    await Promise.all(queued);
    expect(order).toEqual(['named', 'overdue']);
  });

  it('holds no timer once no wait is queued', async () => {
    const schedule = new PollSchedule(1);
    const place: Place = schedule.join('b:1');
    const controller = new AbortController();
    const turn = schedule.turn(place, 60_000, { deadline: Infinity, signal: controller.signal });
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect(await turn).toEqual({ aborted: controller.signal.reason });
    schedule.leave(place);
    expect(vi.getTimerCount()).toBe(0);
  });
  it('hears a signal 200 waits share through one listener; its abort ends them all, and leaves none', async () => {
    const schedule = new PollSchedule(1);
    const controller = new AbortController();
    const turns = Array.from({ length: 200 }, (_, i) =>
      schedule.turn(schedule.join(`b:${i}`), 60_000, { deadline: Infinity, signal: controller.signal }),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(await Promise.all(turns)).toEqual(Array(200).fill({ aborted: controller.signal.reason }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('many waits on one client', () => {
  it(`never has more than ${MAX_POLLS_IN_FLIGHT} polls in flight, and all 200 waits end`, async () => {
    const service = fakeService({ hold: true, state: () => ({ status: 'completed', download_url: DOWNLOAD_URL }) });
    const client = makeClient(service.fetch);
    const waits = ids(200).map((id) => watch(client.waitForBuild(id)));
    for (let round = 0; round < 200 && waits.some((w) => !w.settled); round++) {
      await vi.advanceTimersByTimeAsync(0);
      expect(service.inFlight).toBeLessThanOrEqual(MAX_POLLS_IN_FLIGHT);
      service.release();
    }
    expect(service.maxInFlight).toBe(MAX_POLLS_IN_FLIGHT);
    expect(waits.every((w) => w.settled && (w.value as { status: string }).status === 'completed')).toBe(true);
    expect(service.polls).toHaveLength(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('against a service answering at once, 200 waits each poll every intervalMs, as 200 lone waits would', async () => {
    const service = fakeService();
    const client = makeClient(service.fetch);
    const controller = new AbortController();
    const waits = ids(200).map((id) => client.waitForBuild(id, { signal: controller.signal }).catch(() => undefined));
    await vi.advanceTimersByTimeAsync(60_000 - 1);
    controller.abort();
    await Promise.all(waits);
    // At 0, 2 s, ... 58 s: 30 polls each.
    for (const id of ids(200)) expect(service.count(id)).toBe(30);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('paced at 20 requests a second, 200 waits poll 20 builds a second, each about every 10 s, none starved', async () => {
    const service = fakeService({ perSecond: 20 });
    const client = makeClient(service.fetch);
    const controller = new AbortController();
    const waits = ids(200).map((id) => client.waitForBuild(id, { signal: controller.signal }).catch(() => undefined));
    await vi.advanceTimersByTimeAsync(60_000);
    // Another call of the client queues behind the few polls in flight, not behind 200 of them.
    const started = Date.now();
    const other = watch(client.builds.get('bld_other'));
    await vi.advanceTimersByTimeAsync(((MAX_POLLS_IN_FLIGHT + 1) * 1000) / 20);
    expect(other.settled, `builds.get answered within ${Date.now() - started} ms`).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000 - (Date.now() - started));
    controller.abort();
    await Promise.all(waits);
    // After the first round (10 s), a steady state: count the polls of the next 100 s.
    const steady = service.polls.filter((p) => p.at >= 10_000 && p.at < 110_000 && p.id !== 'bld_other');
    expect(steady.length).toBeGreaterThanOrEqual(1_990);
    expect(service.maxInFlight).toBeLessThanOrEqual(MAX_POLLS_IN_FLIGHT + 1);
    for (const id of ids(200)) {
      const times = service.polls.filter((p) => p.id === id && p.at >= 10_000 && p.at < 110_000).map((p) => p.at);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.min(...gaps), id).toBeGreaterThanOrEqual(9_000);
      expect(Math.max(...gaps), id).toBeLessThanOrEqual(11_000);
    }
  });

  it('an aborted wait leaves at once, queued or polling, and its slot goes to the next', async () => {
    const service = fakeService({ hold: true });
    const client = makeClient(service.fetch);
    const controllers = ids(20).map(() => new AbortController());
    const waits = ids(20).map((id, i) => watch(client.waitForBuild(id, { signal: controllers[i]!.signal })));
    await vi.advanceTimersByTimeAsync(0);
    expect(service.inFlight).toBe(MAX_POLLS_IN_FLIGHT);
    // One still queued, one polling.
    controllers[15]!.abort();
    controllers[0]!.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(waits[15]!.error).toBeInstanceOf(AbortError);
    expect(waits[0]!.error).toBeInstanceOf(AbortError);
    // The aborted poll's slot went to the next due wait (bld_8): still 8 in flight at the service, 9 sent.
    expect(service.inFlight).toBe(MAX_POLLS_IN_FLIGHT + 1);
    for (const controller of controllers) controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(waits.every((w) => AbortError.is(w.error))).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a wait queued behind a full schedule ends at its own deadline with WaitTimeoutError, sending nothing', async () => {
    const service = fakeService({ hold: true });
    const client = makeClient(service.fetch);
    const busy = new AbortController();
    const ahead = ids(MAX_POLLS_IN_FLIGHT).map((id) => watch(client.waitForBuild(id, { signal: busy.signal })));
    const late = watch(client.waitForBuild('bld_late', { timeoutMs: 5_000 }));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(late.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(late.error).toBeInstanceOf(WaitTimeoutError);
    expect(service.count('bld_late')).toBe(0);
    busy.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(ahead.every((w) => AbortError.is(w.error))).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a wait whose poll is held at a closed rate gate still ends at its own timeoutMs', async () => {
    let sent = 0;
    const fetch = async (): Promise<Response> =>
      ++sent === 1 ? new Response('{}', { status: 429, headers: { 'retry-after': '60' } }) : Response.json({ status: 'building' });
    // The client's gate on (the default): the 429 closes it for 60 s.
    const client = new Client({ baseUrl: 'http://builds.test', apiKey: 'wfa_test_schedule', apiPrefix: '/v1', fetch, maxRetries: 0 });
    await expect(client.builds.get('bld_0')).rejects.toThrow();
    const started = Date.now();
    const wait = watch(client.waitForBuild('bld_1', { timeoutMs: 5_000 }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(wait.error).toBeInstanceOf(WaitTimeoutError);
    expect(Date.now() - started).toBe(5_000);
    expect(sent).toBe(1);
  });

  it("an onProgress that never settles or throws delays no one's polls", async () => {
    const service = fakeService({
      state: (_id, poll) => (poll < 2 ? { status: 'building', progress: poll * 40 } : { status: 'completed', download_url: DOWNLOAD_URL }),
    });
    const client = makeClient(service.fetch);
    const seen = new Map<string, number>();
    const waits = ids(50).map((id, i) =>
      client.waitForBuild(id, {
        onProgress: (): Promise<never> => {
          seen.set(id, (seen.get(id) ?? 0) + 1);
          if (i % 2) throw new Error('render failed');
          return new Promise(() => undefined);
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(4_000);
    const builds = await Promise.all(waits);
    expect(builds.every((b) => b.status === 'completed')).toBe(true);
    // Polls at 0, 2 s and 4 s each; every state seen once, by its own wait.
    expect(service.polls).toHaveLength(150);
    for (const id of ids(50)) expect(seen.get(id)).toBe(3);
  });
});

describe('builds.notify', () => {
  const workflow = (i: number) => ({ id: `wf_${i}`, build_id: `bld_${i}` });
  const delivery = (i: number) => ({ event: 'build.completed', workflow_id: `wf_${i}`, data: { download_url: DOWNLOAD_URL } });

  it('ends the matching wait at once with one poll, and no other wait polls', async () => {
    let done = false;
    const service = fakeService({
      state: (id) => (done && id === 'bld_3' ? { status: 'completed', download_url: DOWNLOAD_URL } : { status: 'building' }),
    });
    const client = makeClient(service.fetch);
    const controller = new AbortController();
    const waits = [1, 2, 3].map((i) => watch(client.waitForBuild(workflow(i), { intervalMs: 60_000, signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(service.polls).toHaveLength(3);
    done = true;
    expect(client.builds.notify(delivery(3))).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(waits[2]!.value).toMatchObject({ status: 'completed' });
    expect(service.count('bld_3')).toBe(2);
    expect(service.polls).toHaveLength(4);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
  });

  it('finds a wait started with a build id by the workflow_id its polls carry, or by a build_id', async () => {
    const service = fakeService({ state: (id) => ({ status: 'building', workflow_id: id.replace('bld', 'wf') }) });
    const client = makeClient(service.fetch);
    const controller = new AbortController();
    void client.waitForBuild('bld_7', { intervalMs: 60_000, signal: controller.signal }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.builds.notify(delivery(7))).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(service.count('bld_7')).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.builds.notify('bld_7')).toBe(1);
    expect(client.builds.notify({ data: { build_id: 'bld_7' } })).toBe(0); // already due: one poll for both
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
  });

  it('a forged delivery (the build still building) ends nothing, and a flood of them costs one poll per interval', async () => {
    const service = fakeService();
    const client = makeClient(service.fetch);
    const wait = watch(client.waitForBuild(workflow(1), { intervalMs: 10_000, timeoutMs: 30_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    for (let i = 0; i < 100; i++) {
      client.builds.notify(delivery(1));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(wait.settled).toBe(false);
    // The first poll, then one bought by the deliveries; the rest wait for the scheduled poll at 11 s.
    expect(service.count('bld_1')).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(wait.error).toBeInstanceOf(WaitTimeoutError);
    expect(client.builds.notify(delivery(1))).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('finds the wait of workflows.createAndWait by the created workflow', async () => {
    let done = false;
    const service = fakeService({ state: () => (done ? { status: 'completed', download_url: DOWNLOAD_URL } : { status: 'building' }) });
    const create = async (input: unknown, init?: RequestInit): Promise<Response> =>
      init?.method === 'POST'
        ? Response.json(
            { id: 'wf_c', name: 'x', platform: 'zapier', status: 'building', created_at: '2026-11-27T00:00:00Z', build_id: 'bld_c' },
            { status: 201 },
          )
        : service.fetch(input);
    const client = makeClient(create as (input: unknown) => Promise<Response>);
    const input = { name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] };
    const wait = watch(client.workflows.createAndWait(input, { intervalMs: 60_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    done = true;
    expect(wait.error).toBeUndefined();
    expect(client.builds.notify({ workflow_id: 'wf_c' })).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.value).toMatchObject({ workflow: { id: 'wf_c' }, build: { status: 'completed' } });
    expect(service.count('bld_c')).toBe(2);
  });

  it('a watch left unfinished holds nothing in the schedule: no delivery finds it, no timer runs', async () => {
    const service = fakeService();
    const client = makeClient(service.fetch);
    const states = client.builds.watch(workflow(4), { intervalMs: 1_000 });
    expect((await states.next()).value).toMatchObject({ status: 'building' });
    // Suspended in the caller's loop body, never resumed nor returned.
    expect(client.builds.notify(delivery(4))).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(service.count('bld_4')).toBe(1);
  });

  it('a delivery nobody waits for does nothing and holds nothing', () => {
    const service = fakeService();
    const client = makeClient(service.fetch);
    expect(client.builds.notify(delivery(9))).toBe(0);
    expect(client.builds.notify({ event: 'build.failed', workflow_id: 42, data: null } as never)).toBe(0);
    expect(service.polls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses what is neither an event nor a build id with ValidationError', () => {
    const client = makeClient(fakeService().fetch);
    expect(() => client.builds.notify(null as never)).toThrow(ValidationError);
    expect(() => client.builds.notify(42 as never)).toThrow(/argument of builds.notify/);
  });
});

describe('builds.waitForAll', () => {
  it('settles each build in the list order: one failed build hides no other, a build listed twice is polled once', async () => {
    const service = fakeService({
      state: (id) =>
        id === 'bld_bad' ? { status: 'failed', logs: ['boom'] } : { status: 'completed', download_url: `https://dl.example.com/${id}.zip` },
    });
    const client = makeClient(service.fetch);
    const results = await client.builds.waitForAll(['bld_1', { id: 'wf_2', build_id: 'bld_bad' }, 'bld_3', 'bld_1']);
    expect(results.map((r) => [r.status, r.buildId])).toEqual([
      ['fulfilled', 'bld_1'],
      ['rejected', 'bld_bad'],
      ['fulfilled', 'bld_3'],
      ['fulfilled', 'bld_1'],
    ]);
    const failed = results[1]!;
    expect(failed.status === 'rejected' && BuildFailedError.is(failed.reason) && WfaError.is(failed.reason)).toBe(true);
    const first = results[0]!;
    expect(first.status === 'fulfilled' && first.value.download_url).toBe('https://dl.example.com/bld_1.zip');
    expect(service.polls).toHaveLength(3);
  });

  it('refuses a bad target or option with ValidationError naming it, before anything is sent', async () => {
    const service = fakeService();
    const client = makeClient(service.fetch);
    await expect(client.builds.waitForAll(['bld_1', { id: 'wf_2' }])).rejects.toThrow(/targets\[1\]/);
    await expect(client.builds.waitForAll(['bld_1'], { intervalMs: -1 })).rejects.toThrow(ValidationError);
    await expect(client.builds.waitForAll('bld_1' as never)).rejects.toThrow(/targets of builds.waitForAll/);
    expect(service.polls).toHaveLength(0);
  });

  it('resolves with an empty list for an empty list', async () => {
    expect(await makeClient(fakeService().fetch).builds.waitForAll([])).toEqual([]);
  });
});
