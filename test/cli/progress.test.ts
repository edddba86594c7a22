import { describe, expect, test } from 'vitest';
import type { Output } from '../../src/cli/context.js';
import { createProgressDisplay, formatBytes, formatProgressBar, formatProgressLine, renderBar } from '../../src/cli/progress.js';
import type { Build } from '../../src/index.js';

// A completed build always has its URL; a status the SDK does not know is typed opaque, so it needs a cast.
const URL = 'https://downloads.example.com/bld_1.zip';
const QUEUED = { status: 'queued' } as unknown as Build;

function recorder(isTTY: boolean): Output & { text: () => string } {
  const chunks: string[] = [];
  return { isTTY, write: (text: string) => chunks.push(text), text: () => chunks.join('') };
}

describe('renderBar', () => {
  test.each([
    [0, '[░░░░░░░░░░]'],
    [52, '[█████░░░░░]'],
    [100, '[██████████]'],
    [-5, '[░░░░░░░░░░]'],
    [250, '[██████████]'],
    [Number.NaN, '[░░░░░░░░░░]'],
  ])('%d%% is %s', (percent, bar) => {
    expect(renderBar(percent, 10)).toBe(bar);
  });
});

describe('formatBytes', () => {
  test.each([
    [0, undefined, '0 B'],
    [300, undefined, '300 B'],
    [1023, undefined, '1023 B'],
    [1536, undefined, '1.5 KB'],
    [300_000, undefined, '293 KB'],
    [1_572_864, undefined, '1.5 MB'],
    [50 * 1024 ** 2, undefined, '50 MB'],
    [3 * 1024 ** 3, undefined, '3.0 GB'],
    [512, 1_572_864, '0.0 MB'],
    [786_432, 1_572_864, '0.8 MB'],
  ])('%d bytes (scale %s) reads %s', (bytes, scale, text) => {
    expect(formatBytes(bytes, scale)).toBe(text);
  });
});

describe('one state', () => {
  test('as a line: label, status and percentage', () => {
    expect(formatProgressLine({ status: 'building', progress: 52 }, 'bld_1')).toBe('bld_1: building 52%');
  });

  test('as a line, a completed build is 100% and a state without progress has no figure', () => {
    expect(formatProgressLine({ status: 'completed', download_url: URL }, 'bld_1')).toBe('bld_1: completed 100%');
    expect(formatProgressLine({ status: 'failed' }, 'bld_1')).toBe('bld_1: failed');
  });

  test('as a bar: label, bar, right-aligned percentage and status', () => {
    expect(formatProgressBar({ status: 'building', progress: 7 }, 'bld_1', 10)).toBe('bld_1 [█░░░░░░░░░]   7% building');
    expect(formatProgressBar(QUEUED, 'bld_1', 4)).toBe('bld_1 [░░░░]    ? queued');
  });
});

describe('createProgressDisplay', () => {
  test('on a terminal, redraws one line in place and ends it with a newline', () => {
    const output = recorder(true);
    const display = createProgressDisplay(output, { label: 'b', width: 4 });

    display.update({ status: 'building', progress: 50 });
    display.update({ status: 'completed', progress: 100, download_url: URL });
    display.finish();

    expect(output.text()).toBe('\r\u001b[2Kb [██░░]  50% building\r\u001b[2Kb [████] 100% completed\n');
  });

  test('elsewhere, writes one plain line per change and nothing to finish', () => {
    const output = recorder(false);
    const display = createProgressDisplay(output, { label: 'b' });

    display.update({ status: 'building', progress: 10 });
    display.update({ status: 'building', progress: 10 });
    display.update({ status: 'building', progress: 60 });
    display.finish();

    expect(output.text()).toBe('b: building 10%\nb: building 60%\n');
  });

  test('the mode can be forced either way', () => {
    const lines = recorder(true);
    const bar = recorder(false);

    createProgressDisplay(lines, { mode: 'lines' }).update({ status: 'building', progress: 1 });
    createProgressDisplay(bar, { mode: 'bar', width: 2 }).update({ status: 'building', progress: 1 });

    expect(lines.text()).toBe('build: building 1%\n');
    expect(bar.text()).toBe('\r\u001b[2Kbuild [░░]   1% building');
  });

  test('finish on a terminal with nothing drawn writes nothing, and twice is harmless', () => {
    const output = recorder(true);
    const display = createProgressDisplay(output);

    display.finish();
    display.update({ status: 'building', progress: 3 });
    display.finish();
    display.finish();

    expect(output.text().match(/\n/g)).toHaveLength(1);
  });
});
