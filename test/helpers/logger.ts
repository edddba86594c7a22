/** A logger that keeps every line it is given, for tests that search log lines (for secrets, for wording). */
import { inspect } from 'node:util';

export function captureLogger() {
  const lines: string[] = [];
  // Any further argument is kept too, inspected deeply: a secret in an object logged beside the line still shows.
  const keep = (line: string, ...rest: unknown[]) => {
    lines.push([line, ...rest.map((value) => inspect(value, { depth: 8 }))].join(' '));
  };
  return { lines, logger: { error: keep, warn: keep, info: keep, debug: keep } };
}
