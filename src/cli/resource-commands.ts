/**
 * The `list` and `get` subcommands every resource group has, written once: a resource only says what it is
 * called and which client method answers.
 */
import type { Client, PagePromise } from '../index.js';
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson } from './context.js';
import { ExitCode } from './exit-codes.js';
import { LIST_HELP, LIST_OPTIONS, listParams, printList } from './list.js';

/** What a list subcommand passes to the client. */
export type ListParams = ReturnType<typeof listParams>;

/** `wfa <plural> list`: one page, or every item with `--all`, as a JSON array. */
export function listCommand(
  plural: string,
  list: (client: Client, params: ListParams, signal: AbortSignal) => PagePromise<unknown>,
  example = '',
): Command {
  const usage = `wfa ${plural} list [--status <status>] [--limit <n>] [--page <n>] [--all]`;
  return {
    name: 'list',
    summary: `Print your ${plural} as a JSON array`,
    help: `Usage: ${usage}

Prints one page of your ${plural} (or, with --all, every one) as a JSON array on stdout.

Options:
${LIST_HELP}

${CONNECTION_HELP}${example ? `\n\nExample:\n  ${example}` : ''}`,
    async run(args, context) {
      const { values, positionals } = parseCommand(args, { ...CONNECTION_OPTIONS, ...LIST_OPTIONS }, usage);
      if (values.help) return showHelp(context, this.help);
      expectPositionals(positionals, [], usage);
      const params = listParams(values);
      const client = await createClient(values, context);
      await printList(list(client, params, context.signal), { all: values.all, context });
      return ExitCode.Ok;
    },
  };
}

/** `wfa <plural> get <id>`: one item as JSON. */
export function getCommand(
  plural: string,
  idName: string,
  summary: string,
  get: (client: Client, id: string, signal: AbortSignal) => Promise<unknown>,
  details = '',
): Command {
  const usage = `wfa ${plural} get <${idName}>`;
  return {
    name: 'get',
    summary,
    help: `Usage: ${usage}

${details || `${summary} on stdout.`}

${CONNECTION_HELP}`,
    async run(args, context) {
      const { values, positionals } = parseCommand(args, CONNECTION_OPTIONS, usage);
      if (values.help) return showHelp(context, this.help);
      const [id = ''] = expectPositionals(positionals, [idName], usage);
      const client = await createClient(values, context);
      printJson(context.stdout, await get(client, id, context.signal));
      return ExitCode.Ok;
    },
  };
}
