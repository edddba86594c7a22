/**
 * A resource group's plain commands, made from the endpoint table: `list`, and each call that takes only an
 * id (`get`, `delete`, …). Calls with a body are written by hand, and passed in beside them.
 */
import type { PagePromise } from '../index.js';
import { ENDPOINTS, type Endpoint } from '../resources/endpoints.js';
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson } from './context.js';
import { asUsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { listHelp, listOptions, listParams, printList } from './list.js';
import { methodOf } from './method-of.js';

/** What a group adds to its generic commands. */
export interface ResourceCommandOptions {
  /** Commands written by hand: one with a generic command's name replaces it. */
  own?: readonly Command[];
  /** How an item is printed (integrations mask their keys). */
  show?: (item: unknown) => unknown;
  /** More help, by command name. */
  details?: Readonly<Record<string, string>>;
}

const past = (verb: string) => (verb.endsWith('e') ? `${verb}d` : `${verb}ed`);

function listCommand(name: string, endpoint: Endpoint, show: (item: unknown) => unknown, details: string): Command {
  const plural = endpoint.path.slice(1);
  const filters = endpoint.list?.filters ?? [];
  const usage = `wfa ${plural} list ${filters.map((filter) => `[--${filter} <${filter}>] `).join('')}[--limit <n>] [--page <n>] [--all]`;
  return {
    name: 'list',
    summary: `Print your ${plural} as a JSON array`,
    help: `Usage: ${usage}

Prints one page of your ${plural} (or, with --all, every one) as a JSON array on stdout.${details ? `\n${details}` : ''}

Options:
${listHelp(filters)}

${CONNECTION_HELP}`,
    async run(args, context) {
      const { values, positionals } = parseCommand(args, { ...CONNECTION_OPTIONS, ...listOptions(filters) }, usage);
      if (values.help) return showHelp(context, this.help);
      expectPositionals(positionals, [], usage);
      const params = listParams(values, filters);
      const client = await createClient(values, context);
      try {
        const pages = methodOf(client, name)(params, { signal: context.signal }) as PagePromise<unknown>;
        await printList(pages, { all: values.all, context, show });
      } catch (error) {
        // A filter the SDK refuses before sending (`--status ''`) is the command line's mistake.
        throw asUsageError(error, (field) => (filters.includes(field) ? `--${field}` : undefined));
      }
      return ExitCode.Ok;
    },
  };
}

function idCommand(name: string, endpoint: Endpoint, show: (item: unknown) => unknown, details: string): Command {
  const verb = name.split('.')[1]!;
  const singular = endpoint.noun;
  const usage = `wfa ${endpoint.path.split('/')[1]} ${verb} <${singular}_id>`;
  const summary = endpoint.method === 'GET' ? `Print one ${singular} as JSON` : `${verb[0]!.toUpperCase()}${verb.slice(1)} one ${singular}`;
  return {
    name: verb,
    summary,
    help: `Usage: ${usage}

${endpoint.method === 'GET' ? `Prints the ${singular} as JSON on stdout.` : `${summary.split(' ')[0]}s the ${singular} and prints the response as JSON on stdout, or\n{"id": …, "${past(verb)}": true} when it is empty.`}${details ? `\n${details}` : ''}

${CONNECTION_HELP}`,
    async run(args, context) {
      const { values, positionals } = parseCommand(args, CONNECTION_OPTIONS, usage);
      if (values.help) return showHelp(context, this.help);
      const [id = ''] = expectPositionals(positionals, [`${singular}_id`], usage);
      const client = await createClient(values, context);
      const data = await methodOf(client, name)(id, { signal: context.signal });
      printJson(context.stdout, data === undefined ? { id, [past(verb)]: true } : show(data));
      return ExitCode.Ok;
    },
  };
}

/** `resource`'s commands: the generic ones in the table's order, then those written by hand. */
export function resourceCommands(
  resource: string,
  { own = [], show = (item) => item, details = {} }: ResourceCommandOptions = {},
): Command[] {
  const generic = (Object.entries(ENDPOINTS) as [string, Endpoint][])
    .filter(([name, endpoint]) => name.startsWith(`${resource}.`) && !endpoint.body)
    .map(([name, endpoint]) => {
      const make = endpoint.list ? listCommand : idCommand;
      const command = make(name, endpoint, show, details[name.split('.')[1]!] ?? '');
      return own.find((mine) => mine.name === command.name) ?? command;
    });
  return [...generic, ...own.filter((mine) => !generic.includes(mine))];
}
