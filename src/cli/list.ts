/** The paging options of the `list` commands, and how a list is printed. */
import type { PagePromise } from '../index.js';
import { integerOption } from './args.js';
import { printJson, type Context } from './context.js';

export const LIST_OPTIONS = {
  status: { type: 'string' },
  limit: { type: 'string' },
  page: { type: 'string' },
  all: { type: 'boolean' },
} as const;

export const LIST_HELP = [
  '  --status <status>  only items with this status',
  '  --limit <n>        items per page',
  '  --page <n>         the page to print (default 1)',
  '  --all              every item of every page from --page on, fetched page by page',
].join('\n');

export function listParams(values: { status?: string | undefined; limit?: string | undefined; page?: string | undefined }): {
  status: string | undefined;
  limit: number | undefined;
  page: number | undefined;
} {
  return { status: values.status, limit: integerOption(values.limit, '--limit', 1), page: integerOption(values.page, '--page', 1) };
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
