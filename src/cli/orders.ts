/**
 * `wfa orders list|get`.
 */
import { expectPositionals, parseCommand } from './args.js';
import { createGroup, showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson } from './context.js';
import { ExitCode } from './exit-codes.js';
import { LIST_HELP, LIST_OPTIONS, listParams, printList } from './list.js';

const LIST_USAGE = 'wfa orders list [--status <status>] [--limit <n>] [--page <n>] [--all]';

const listCommand: Command = {
  name: 'list',
  summary: 'Print your orders as a JSON array',
  help: `Usage: ${LIST_USAGE}

Prints one page of your orders (or, with --all, every one) as a JSON array on stdout.

Options:
${LIST_HELP}

${CONNECTION_HELP}`,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, { ...CONNECTION_OPTIONS, ...LIST_OPTIONS }, LIST_USAGE);
    if (values.help) return showHelp(context, this.help);
    expectPositionals(positionals, [], LIST_USAGE);
    const params = listParams(values);
    const client = await createClient(values, context);
    await printList(client.orders.list(params, { signal: context.signal }), { all: values.all, context });
    return ExitCode.Ok;
  },
};

const GET_USAGE = 'wfa orders get <order_id>';

const getCommand: Command = {
  name: 'get',
  summary: 'Print one order as JSON',
  help: `Usage: ${GET_USAGE}

Prints the order as JSON on stdout.

${CONNECTION_HELP}`,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, CONNECTION_OPTIONS, GET_USAGE);
    if (values.help) return showHelp(context, this.help);
    const [id = ''] = expectPositionals(positionals, ['order_id'], GET_USAGE);
    const client = await createClient(values, context);
    printJson(context.stdout, await client.orders.get(id, { signal: context.signal }));
    return ExitCode.Ok;
  },
};

/**
 * The `orders` command group: `list`, `get`.
 *
 * @example
 * ```ts
 * await orders.run(['list', '--status', 'paid', '--all'], context);
 * ```
 */
export const orders: Command = createGroup('orders', 'List and read orders', [listCommand, getCommand]);
