/**
 * `wfa integrations list|delete|save`: third-party platform keys kept by the service. The key is read from
 * `WFA_INTEGRATION_KEY` or stdin (asked with echo off on a terminal), never from an argument, and masked in all output.
 */
import { parseCommand } from './args.js';
import { createGroup, showHelp, type Command } from './command.js';
import { createClient, SERVICE_HELP, SERVICE_OPTIONS } from './config.js';
import { printJson, type Context } from './context.js';
import { ConfigError, UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { ask, MAX_PIPED, readPiped, withoutFinalLineBreak } from './input.js';
import { masked } from './mask.js';
import { UNSEEN } from './printable.js';
import { resourceCommands } from './resource-commands.js';

const SAVE_USAGE = 'wfa integrations save <platform> [--label <label>]  (the key on stdin or in $WFA_INTEGRATION_KEY)';

// Anything that looks like the platform key given as an option, with any suffix (`--key:…`, `--apikey…`), is
// refused without being quoted.
const KEY_ARGUMENT = /^-{1,2}(?:k|api-?key|integration-?key|token|secret|pass)/i;

// Only the final line break of a file or `echo` is removed, from every source: any other space around a key is
// a paste gone wrong, refused rather than trimmed into a key the user never saw.
async function readKey(context: Context, platform: string): Promise<string> {
  const fromEnv = context.env['WFA_INTEGRATION_KEY'];
  if (fromEnv !== undefined) return withoutFinalLineBreak(fromEnv);
  if (context.stdin?.isTTY) return ask(context, `API key for ${platform} (not shown): `, { echo: false });
  if (!context.stdin) throw new ConfigError('No key: set WFA_INTEGRATION_KEY, or pipe the key on stdin');
  return readPiped(context, 'the key');
}

/** What is wrong with a key, whatever its source, or `undefined`; never quoting it. */
function keyProblem(key: string): string | undefined {
  if (key.length > MAX_PIPED) return `the key is longer than ${MAX_PIPED} characters`;
  if (key.trim() === '') return 'the key is empty';
  // A stray escape, NUL or second line (a paste, a file of several lines) would be saved as part of the key and
  // fail later; a bidi override or zero-width character hides in a terminal.
  // What a terminal does not show (printable.ts's rule): no key has them.
  const unseen = [...key].findIndex((char) => UNSEEN.test(char));
  if (unseen >= 0) {
    return `the key has a control, format or invisible character at position ${unseen + 1}; nothing was saved (the key is not shown)`;
  }
  if (/^\s|\s$/u.test(key)) return 'the key starts or ends with a space (or a no-break space); nothing was saved (the key is not shown)';
  return undefined;
}

const save: Command = {
  name: 'save',
  summary: "Save (or update) a platform's API key, read from stdin or $WFA_INTEGRATION_KEY",
  help: `Usage: ${SAVE_USAGE}

Saves a third-party platform's API key on the service (saving again for a platform updates it, as the
service decides) and prints the saved record as JSON, its key masked (****abcd).

The key is never an argument, which other users could see in \`ps\`. It is read from, in order:
  WFA_INTEGRATION_KEY     the variable, if set
  stdin                   typed when asked, with nothing shown, on a terminal; else everything piped in
Only the final line break is removed; a key with a control, format or invisible character, or a space at
either end, is refused and nothing is saved.

Options:
  --label <label>        a name to tell keys for the same platform apart

${SERVICE_HELP}

Examples:
  wfa integrations save shopify --label "Main store"          # asks for the key
  pass show shopify/api-key | wfa integrations save shopify    # from a password manager`,
  async run(args, context) {
    if (args.some((arg) => KEY_ARGUMENT.test(arg))) {
      throw new UsageError(
        "the platform's key is never an argument (other users can see arguments in `ps`): pipe it on stdin or set WFA_INTEGRATION_KEY. The service's own key comes from WFA_API_KEY or `wfa login`.",
        SAVE_USAGE,
      );
    }
    const { values, positionals } = parseCommand(args, { ...SERVICE_OPTIONS, label: { type: 'string' } }, SAVE_USAGE);
    if (values.help) return showHelp(context, this.help);
    const [platform] = positionals;
    if (!platform) throw new UsageError('missing <platform>', SAVE_USAGE);
    // Not quoted: an extra argument may be the key itself.
    if (positionals.length > 1)
      throw new UsageError('wfa integrations save takes one argument, the platform; the key is read from stdin', SAVE_USAGE);
    const client = await createClient(values, context);
    const key = await readKey(context, platform);
    const problem = keyProblem(key);
    if (problem !== undefined) throw new UsageError(problem, SAVE_USAGE);
    const saved = await client.integrations.save(
      { platform, api_key: key, ...(values.label === undefined ? {} : { label: values.label }) },
      { signal: context.signal },
    );
    printJson(context.stdout, masked(saved, key));
    return ExitCode.Ok;
  },
};

export const integrations: Command = createGroup(
  'integrations',
  'Save, list and remove third-party platform keys',
  resourceCommands('integrations', {
    own: [save],
    // Masked item by item: whatever a record holds, no credential-named field is printed as received.
    show: (item) => masked(item),
    details: {
      list: 'Every field named like a credential (api_key, token, secret, …) is masked, and so is any copy of its\nvalue elsewhere in the record, whatever the service returns.',
    },
  }),
);
