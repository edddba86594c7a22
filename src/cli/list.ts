/** The options of the `list` commands (paging, and the filters of the endpoint table), and how a list is printed. */
import type { PagePromise } from '../index.js';
import { integerOption } from './args.js';
import { printJson, type Context } from './context.js';

const PAGING = { limit: { type: 'string' }, page: { type: 'string' }, all: { type: 'boolean' } } as const;

/** The options of a list command with these filters (`status`). */
export function listOptions(filters: readonly string[]): typeof PAGING {
  // Typed as the paging alone: a filter's value is read by name (`listParams`).
  return { ...Object.fromEntries(filters.map((filter) => [filter, { type: 'string' }])), ...PAGING };
}

export function listHelp(filters: readonly string[]): string {
  return [
    ...filters.map((filter) => `  ${`--${filter} <${filter}>`.padEnd(19)}only items with this ${filter}`),
    '  --limit <n>        items per page',
    '  --page <n>         the page to print (default 1)',
    '  --all              every item of every page from --page on, fetched page by page',
  ].join('\n');
}

/** What a list command passes to the client: its filters as given, and the paging as numbers. */
export function listParams(values: Record<string, unknown>, filters: readonly string[]): Record<string, string | number | undefined> {
  return {
    ...Object.fromEntries(filters.map((filter) => [filter, values[filter] as string | undefined])),
    limit: integerOption(values['limit'] as string | undefined, '--limit', 1),
    page: integerOption(values['page'] as string | undefined, '--page', 1),
  };
}

/**
 * Prints a list as one JSON array on stdout: one page, or with `all` every item, each through `show` when
 * given (integrations mask their keys there). The array is printed only once complete, so a failure half-way
 * leaves no truncated JSON behind.
 */
export async function printList<T>(
  list: PagePromise<T>,
  options: { all: boolean | undefined; context: Context; show?: (item: T) => unknown },
): Promise<void> {
  const { all, context, show = (item: T): unknown => item } = options;
  if (all) {
    const items: unknown[] = [];
    for await (const item of list) items.push(show(item));
    printJson(context.stdout, items);
    return;
  }
  const page = await list;
  printJson(context.stdout, page.items.map(show));
  // A hint for a person at a terminal; logs and scripts read the exit code and stdout only.
  if (page.hasNextPage() && context.stderr.isTTY) {
    context.stderr.write(`(page ${page.info.page}; more with --page ${page.info.page + 1}, or --all for everything)\n`);
  }
}
