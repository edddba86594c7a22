/**
 * The cold `import()` of the built root entry against `node -e 0`, each in a fresh process, alternated; medians.
 * `npm run bench` reports it with the other budgets; alone: `node --import tsx bench/cold-start.ts [runs]`
 * after `npm run build` (wall time: run it on a quiet machine, and give the load beside the figure).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median wall time, in ms, of `node -e 0` and of a process that imports the root entry and exits. */
export function coldImport(runs: number): { empty: number; sdk: number } {
  const empty: number[] = [];
  const sdk: number[] = [];
  const url = new URL('../dist/index.js', import.meta.url).href;
  const time = (args: string[]) => {
    const start = performance.now();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    return performance.now() - start;
  };
  for (let i = 0; i < runs; i++) {
    empty.push(time(['-e', '0']));
    sdk.push(time(['--input-type=module', '-e', `await import(${JSON.stringify(url)})`]));
  }
  return { empty: median(empty), sdk: median(sdk) };
}

/** The files of the package that importing the root entry loads (each costs a read and a module record). */
export function modulesLoaded(): string[] {
  const hooks = `export async function load(url, context, next) { if (url.includes('/dist/')) console.log(url); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const url = new URL('../dist/index.js', import.meta.url).href;
  const args = [
    '--import',
    `data:text/javascript,${encodeURIComponent(register)}`,
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(url)})`,
  ];
  return execFileSync(process.execPath, args, { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.replace(/^.*\/dist\//, ''));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const modules = modulesLoaded();
  console.log(`${modules.length} modules: ${modules.join(' ')}`);
  const load = loadavg()[0]!.toFixed(2);
  const { empty, sdk } = coldImport(Number(process.argv[2] ?? 15));
  console.log(
    `${(sdk / empty).toFixed(2)}x (${sdk.toFixed(1)} ms vs ${empty.toFixed(1)} ms), load ${load} before, ${loadavg()[0]!.toFixed(2)} after`,
  );
}
