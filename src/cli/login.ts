/**
 * `wfa login`: exchanges an email and password (asked on the terminal with echo off, or `WFA_EMAIL` and
 * `WFA_PASSWORD`) for an API key and saves only the key. `wfa logout` removes it.
 */
import type { Client } from '../index.js';
import { parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { apiPrefixOption, newClient, SERVICE_OPTIONS } from './config.js';
import type { Context } from './context.js';
import { ConfigError, UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { ask } from './input.js';
import { configFile, removeLogin, saveLogin } from './stored-login.js';

const LOGIN_USAGE = 'wfa login [--base-url <url>] [--api-prefix <path>] [--email <address>]';

const LOGIN_HELP = `Usage: ${LOGIN_USAGE}

Logs in with your email and password and saves the API key the service issues in
$XDG_CONFIG_HOME/wfa/config.json (else ~/.config/wfa/config.json), readable only by you (mode 0600).
Every command then uses that key when neither --api-key nor WFA_API_KEY is given, and only for the service
it was issued by. The password is never saved, and never taken as an argument: type it when asked (nothing
is shown), or set WFA_PASSWORD.

Options:
  --base-url <url>      the service address (default: $WFA_BASE_URL)
  --api-prefix <path>   the path prefix (default: $WFA_API_PREFIX, else found with one call and saved with the key)
  --email <address>     your email (default: $WFA_EMAIL, else asked)

Environment:
  WFA_EMAIL, WFA_PASSWORD   log in without a terminal (CI); prefer a secret store to a shell profile

Prints the config file's path on stdout.`;

// A password given as an argument is refused before anything else, without quoting it: arguments are visible
// to every user in `ps`. Any option beginning with `p` (`-p…`, `--pw…`, `--password…`): login has none of its own.
const PASSWORD_ARGUMENT = /^-{1,2}p/i;

function refusePasswordArguments(args: readonly string[]): void {
  if (args.some((arg) => PASSWORD_ARGUMENT.test(arg))) {
    throw new UsageError(
      'wfa login never takes a password as an argument: arguments are visible to other users (`ps`) and kept in your shell history. Type it when asked, or set WFA_PASSWORD.',
      LOGIN_USAGE,
    );
  }
}

async function credentials(values: { email?: string | undefined }, context: Context): Promise<{ email: string; password: string }> {
  const fromEnv = context.env['WFA_PASSWORD'];
  const canAsk = context.stdin?.isTTY === true;
  let email = (values.email ?? context.env['WFA_EMAIL'])?.trim() || undefined;
  if (!email && !canAsk) throw new ConfigError('No email: pass --email <address> or set WFA_EMAIL (no terminal to ask on)');
  if (fromEnv === undefined && !canAsk) {
    throw new ConfigError('No password: set WFA_PASSWORD, or run wfa login in a terminal to type it (never as an argument)');
  }
  email ??= (await ask(context, 'Email: ', { echo: true })).trim();
  const password = fromEnv ?? (await ask(context, 'Password: ', { echo: false }));
  if (!email) throw new UsageError('no email given', LOGIN_USAGE);
  if (!password) throw new UsageError('no password given', LOGIN_USAGE);
  return { email, password };
}

/**
 * The prefix the service answers under, found with one small call and saved with the key, so that later
 * commands send each request once. `undefined` when the call failed: they then detect it as the SDK does.
 */
async function confirmedPrefix(client: Client, signal: AbortSignal): Promise<string | undefined> {
  try {
    await client.workflows.list({ limit: 1 }, { signal, maxRetries: 0 });
  } catch (error) {
    if (signal.aborted) throw error;
    // Not a reason to fail the login: the key is good, only the prefix stays to be found.
  }
  const { apiPrefix, prefixConfirmed } = client.toJSON();
  return prefixConfirmed ? apiPrefix : undefined;
}

export const login: Command = {
  name: 'login',
  summary: 'Log in with email and password; saves the API key for the other commands',
  help: LOGIN_HELP,
  async run(args, context) {
    refusePasswordArguments(args);
    const { values, positionals } = parseCommand(args, { ...SERVICE_OPTIONS, email: { type: 'string' } }, LOGIN_USAGE);
    if (values.help) return showHelp(context, LOGIN_HELP);
    // Not quoted: someone may have typed the password as a plain argument.
    if (positionals.length > 0) throw new UsageError('wfa login takes no arguments (a password is typed when asked)', LOGIN_USAGE);
    const baseUrl = (values['base-url'] ?? context.env['WFA_BASE_URL'])?.trim();
    if (!baseUrl)
      throw new ConfigError('No base URL: pass --base-url <url> or set WFA_BASE_URL (for example https://automation.example.com).');
    if (!configFile(context.env)) throw new ConfigError('Nowhere to save the key: set HOME or XDG_CONFIG_HOME');
    // Before the password is asked: a malformed --base-url or --api-prefix is said first.
    const given = apiPrefixOption(values, context.env);
    const client = await newClient({ baseUrl, apiKey: undefined, apiPrefix: given });
    const { email, password } = await credentials(values, context);
    const { apiKey } = await client.auth.issueKey({ email, password }, { signal: context.signal });
    // A prefix given is saved as given; only `auto` needs the call that finds it.
    const apiPrefix =
      given !== undefined && given !== 'auto' ? given : await confirmedPrefix(await newClient({ baseUrl, apiKey }), context.signal);
    const path = await saveLogin(context.env, { baseUrl, apiKey, email, ...(apiPrefix === undefined ? {} : { apiPrefix }) });
    context.stderr.write(`Logged in to ${baseUrl} as ${email}. The API key is saved in ${path} (readable only by you).\n`);
    context.stdout.write(`${path}\n`);
    return ExitCode.Ok;
  },
};

const LOGOUT_USAGE = 'wfa logout';

const LOGOUT_HELP = `Usage: ${LOGOUT_USAGE}

Removes the API key \`wfa login\` saved. The key itself stays valid on the service (the service has no call to
revoke it). WFA_API_KEY, if set, is not affected.`;

export const logout: Command = {
  name: 'logout',
  summary: 'Remove the API key wfa login saved',
  help: LOGOUT_HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, {}, LOGOUT_USAGE);
    if (values.help) return showHelp(context, LOGOUT_HELP);
    if (positionals.length > 0) throw new UsageError('wfa logout takes no arguments', LOGOUT_USAGE);
    const removed = await removeLogin(context.env);
    context.stderr.write(removed ? `Logged out: removed ${removed}.\n` : 'Not logged in: no saved key to remove.\n');
    return ExitCode.Ok;
  },
};
