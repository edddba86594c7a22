/**
 * Showing a build's progress: a bar redrawn in place on a terminal, or one plain line per change elsewhere
 * (a CI log, a file), where carriage returns and escape codes would turn into noise.
 */
import type { Build } from '../index.js';
import type { Output } from './context.js';
import { printable } from './printable.js';

/**
 * How progress is shown: `'bar'` redraws one line, `'lines'` writes a line per change, `'auto'` picks
 * `'bar'` when the output is a terminal.
 */
export type ProgressMode = 'bar' | 'lines' | 'auto';

export interface ProgressOptions {
  /** Shown before each state: the build's id, so that parallel waits can be told apart in one log; a function when the id is known only later. Default `'build'`. */
  label?: string | (() => string) | undefined;
  /** Default `'auto'`. */
  mode?: ProgressMode | undefined;
  /** Cells in the bar. Default 24. */
  width?: number | undefined;
}

/** A progress display: feed it each new state, then finish it. */
export interface ProgressDisplay {
  /** Shows a build state; a state equal to the last one shown is skipped. */
  update(build: Build): void;
  /** Ends the display (on a terminal, moves to a new line); safe to call twice. */
  finish(): void;
}

const FULL = '█';
const EMPTY = '░';
// Erase the whole line, then go back to its start: a shorter redraw leaves nothing of the longer one.
const REDRAW = '\r\u001b[2K';

/** The bar for a percentage (clamped to 0–100), `width` cells wide. */
export function renderBar(percent: number, width: number): string {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  const filled = Math.round((clamped / 100) * width);
  return `[${FULL.repeat(filled)}${EMPTY.repeat(width - filled)}]`;
}

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A size for people, in the unit that suits `scale` (default: the size itself): `300 B`, `1.5 KB`, `293 KB`,
 * `12 MB`. Give the total as `scale` to show a count and its total in one unit (`0.5 KB of 1.2 KB`).
 */
export function formatBytes(bytes: number, scale = bytes): string {
  let unit = 0;
  while (unit < UNITS.length - 1 && scale >= 1024 ** (unit + 1)) unit += 1;
  const value = bytes / 1024 ** unit;
  return `${unit === 0 || value >= 10 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** The percentage a state stands for: a completed build is 100% even if it reports no progress. */
function percentOf(build: Build): number | undefined {
  if (build.status === 'completed') return 100;
  return typeof build.progress === 'number' ? Math.round(build.progress) : undefined;
}

/** One state as a plain line, for logs. */
export function formatProgressLine(build: Build, label: string): string {
  const percent = percentOf(build);
  return `${label}: ${build.status}${percent === undefined ? '' : ` ${percent}%`}`;
}

/** One state as a bar, for a terminal. */
export function formatProgressBar(build: Build, label: string, width: number): string {
  const percent = percentOf(build);
  const figure = percent === undefined ? '   ?' : `${String(percent).padStart(3)}%`;
  return `${label} ${renderBar(percent ?? 0, width)} ${figure} ${build.status}`;
}

/** Creates a progress display on an output (stderr for `wfa`, so stdout carries only the result). */
export function createProgressDisplay(output: Output, options: ProgressOptions = {}): ProgressDisplay {
  const { label = 'build', mode = 'auto', width = 24 } = options;
  const bar = mode === 'bar' || (mode === 'auto' && output.isTTY === true);
  let last: string | undefined;
  let open = false;

  return {
    update(build) {
      const shown = typeof label === 'function' ? label() : label;
      // The status is the service's text: escaped, so that it cannot move the cursor the bar relies on.
      const text = printable(bar ? formatProgressBar(build, shown, width) : formatProgressLine(build, shown));
      if (text === last) return;
      last = text;
      if (bar) {
        output.write(`${REDRAW}${text}`);
        open = true;
      } else {
        output.write(`${text}\n`);
      }
    },
    finish() {
      if (open) output.write('\n');
      open = false;
    },
  };
}
