/** A logger that keeps every line it is given, for tests that search log lines (for secrets, for wording). */
export function captureLogger() {
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
  };
  return { lines, logger: { error: keep, warn: keep, info: keep, debug: keep } };
}
