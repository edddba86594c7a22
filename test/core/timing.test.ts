import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { AbortSource, runPhase } from '../../src/core/timing.js';

describe('AbortSource', () => {
  it('calls each listener once with the reason; a removed one, or one added after the abort, never', () => {
    const source = new AbortSource();
    const kept = vi.fn();
    const removed = vi.fn();
    source.addListener(kept);
    source.addListener(removed);
    source.removeListener(removed);
    const reason = new Error('stop');
    source.abort(reason);
    source.abort(new Error('again'));
    const late = vi.fn();
    source.addListener(late);
    expect(kept.mock.calls).toEqual([[reason]]);
    expect(removed).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
    expect(source.aborted).toBe(true);
    expect(source.reason).toBe(reason);
  });

  it('without a reason aborts with an AbortError, as AbortController does', () => {
    const source = new AbortSource();
    source.abort();
    expect(source.reason).toBeInstanceOf(DOMException);
    expect((source.reason as DOMException).name).toBe('AbortError');
  });

  it('makes its signal only when read: aborted with it afterwards, or already aborted when read after', () => {
    const before = new AbortSource();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    expect(before.signal).toBe(signal);
    before.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');

    const after = new AbortSource();
    after.abort('late');
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe('late');
  });
});

describe('runPhase', () => {
  it("aborts its work's source on the caller's abort, after the phase has settled", async () => {
    const controller = new AbortController();
    let given: AbortSource | undefined;
    const phase = runPhase(
      (abort) => {
        given = abort;
        return new Promise<never>(() => undefined);
      },
      { signal: controller.signal, deadline: Number.POSITIVE_INFINITY },
    );
    expect(given?.aborted).toBe(false);
    controller.abort('stop');
    expect(await phase).toEqual({ type: 'aborted', reason: 'stop' });
    expect(given?.reason).toBe('stop');
  });

  it('phases sharing one signal put one listener on it, and none once they settle (200 calls in flight on one signal)', async () => {
    const controller = new AbortController();
    const ends: (() => void)[] = [];
    const phases = Array.from({ length: 200 }, () =>
      runPhase(() => new Promise<void>((resolve) => ends.push(resolve)), { signal: controller.signal, deadline: Number.POSITIVE_INFINITY }),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const end of ends) end();
    await Promise.all(phases);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
