/**
 * `onAbort`: many listeners on one signal through one listener of its own, gone with the last, and an abort
 * that reaches every listener still there, once, with the signal's reason.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from '../../src/core/abort-listeners.js';

const count = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('onAbort', () => {
  it('adds one listener to a signal for any number of its own, and removes it with the last', () => {
    const { signal } = new AbortController();
    const stops = Array.from({ length: 50 }, () => onAbort(signal, () => undefined));
    expect(count(signal)).toBe(1);
    for (const stop of stops.slice(1)) stop();
    expect(count(signal)).toBe(1);
    stops[0]!();
    expect(count(signal)).toBe(0);
    onAbort(signal, () => undefined);
    expect(count(signal)).toBe(1);
  });

  it('calls each listener still there once, with the reason, and leaves no listener', () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const stopFirst = onAbort(controller.signal, () => heard.push('first'));
    onAbort(controller.signal, (reason) => heard.push(`second ${(reason as Error).name}`));
    const stopThird = onAbort(controller.signal, () => heard.push('third'));
    stopThird();
    controller.abort();
    controller.abort();
    expect(heard).toEqual(['first', 'second AbortError']);
    expect(count(controller.signal)).toBe(0);
    stopFirst();
  });

  it('a listener that removes another while the abort is told does not stop it being told', () => {
    const controller = new AbortController();
    const heard: string[] = [];
    let stopOther = (): void => undefined;
    onAbort(controller.signal, () => {
      heard.push('one');
      stopOther();
    });
    stopOther = onAbort(controller.signal, () => heard.push('other'));
    controller.abort('why');
    expect(heard).toEqual(['one', 'other']);
  });

  it('keeps signals apart', () => {
    const a = new AbortController();
    const b = new AbortController();
    const heard: string[] = [];
    onAbort(a.signal, () => heard.push('a'));
    onAbort(b.signal, () => heard.push('b'));
    a.abort();
    expect(heard).toEqual(['a']);
    expect(count(b.signal)).toBe(1);
  });
});
