/**
 * A fake clock for tests of waits (backoff, Retry-After, timeouts): time moves on only when nothing else is
 * left to run, so a wait of a minute passes at once and a test never depends on how busy the machine is.
 */
import { afterEach, beforeEach, onTestFinished, vi } from 'vitest';

// Not `setImmediate`: settle() needs a real one.
const FAKED = ['setTimeout', 'clearTimeout', 'Date', 'performance'] as const;

/** Fakes `setTimeout`, `Date` and `performance` for every test of the file, or of the describe block. */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: [...FAKED] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** The same fake clock, from now to the end of the calling test only. */
export function fakeClockInThisTest(): void {
  vi.useFakeTimers({ toFake: [...FAKED] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

/** How a promise ended, and how much fake time passed before it did. */
export type Settled<T> = ({ ok: true; value: T } | { ok: false; error: unknown }) & { elapsedMs: number };

// Captured before any test fakes it: real I/O (a file read) needs real time to finish.
const realSetTimeout = globalThis.setTimeout;
// Requests to the OS in flight (files, DNS, connects, writes), as opposed to servers and pipes left open.
// (FSReqPromise, CloseReq, GetAddrInfoReqWrap...: every request's name has `Req` in it, or is one of these.)
const REAL_IO = /Req|^(ConnectWrap|WriteWrap|ShutdownWrap)$/;
const realIoInFlight = () => process.getActiveResourcesInfo().some((name) => REAL_IO.test(name));

/**
 * Runs `promise` to its end under the fake clock. Whatever can run without time passing runs first (a real
 * `setImmediate` lets pending callbacks go), and real I/O in flight is waited for; only then is the clock
 * moved to the next timer. So how busy the machine is changes how long this takes, never what it returns.
 */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  const started = Date.now();
  let done = false;
  const outcome = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void outcome.then(() => {
    done = true;
  });
  for (let steps = 0, ioWaits = 0, idleWaits = 0; !done; ) {
    for (let i = 0; i < 20 && !done; i++) await new Promise((resolve) => setImmediate(resolve));
    if (done) break;
    // A first `import()` is loaded by vitest's module runner: neither a timer nor a request to the OS.
    if ((realIoInFlight() && ++ioWaits < 10_000) || (vi.getTimerCount() === 0 && ++idleWaits < 100)) {
      await new Promise((resolve) => realSetTimeout(resolve, 1));
      continue;
    }
    if (vi.getTimerCount() === 0 || ++steps > 1_000) throw new Error('settle: the promise waits on nothing the clock can move');
    await vi.advanceTimersToNextTimerAsync();
  }
  return { ...(await outcome), elapsedMs: Date.now() - started };
}

/** Runs `promise` to its end under the fake clock, like `await`: its value, or its error thrown. */
export async function run<T>(promise: Promise<T>): Promise<T> {
  const settled = await settle(promise);
  if (!settled.ok) throw settled.error;
  return settled.value;
}
