/**
 * Where `wfa` finds the service: `--api-key`/`--base-url`/`--api-prefix`, else `WFA_API_KEY`/`WFA_BASE_URL`/
 * `WFA_API_PREFIX`, else the login `wfa login` saved (its key and prefix only for the service that issued it).
 * The key is never printed.
 */
import type { Client, ClientOptions } from '../index.js';
import type { Context } from './context.js';
import { asUsageError, ConfigError, UsageError } from './errors.js';
import { readStoredLogin, sameService } from './stored-login.js';

/**
 * Where the service is: options of every command that calls it, those that take no `--api-key` too (`login`
 * gets a key, `integrations save` refuses any key argument).
 */
export const SERVICE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-prefix': { type: 'string' },
} as const;

/** The options of every command that calls the service with a key. */
export const CONNECTION_OPTIONS = {
  'api-key': { type: 'string' },
  ...SERVICE_OPTIONS,
} as const;

/** What a command reads of the connection options. */
export type ConnectionValues = { [Name in keyof typeof CONNECTION_OPTIONS]?: string | undefined };

/**
 * The names of {@link CONNECTION_OPTIONS}, which take a value: needed to find a command's name among
 * options given before it (`wfa --base-url http://… workflows list`).
 */
export const CONNECTION_VALUE_OPTIONS: readonly string[] = Object.keys(CONNECTION_OPTIONS);

const BASE_URL_HELP = '  --base-url <url>    the service address (default: $WFA_BASE_URL)';
const API_PREFIX_HELP = [
  "  --api-prefix <path>  the path prefix: /api/v1, /v1, a gateway's own, or auto (default: $WFA_API_PREFIX,",
  '                      else the one `wfa login` confirmed, else auto: /api/v1, then /v1 on a 404)',
];

/** The help of {@link CONNECTION_OPTIONS}. */
export const CONNECTION_HELP = [
  'Connection:',
  BASE_URL_HELP,
  '  --api-key <key>     your API key (default: $WFA_API_KEY, else the key `wfa login`',
  '                      saved; prefer those: arguments are visible to other users in `ps`)',
  ...API_PREFIX_HELP,
].join('\n');

/** The help of {@link SERVICE_OPTIONS}, for a command that takes no `--api-key`. */
export const SERVICE_HELP = ['Connection:', BASE_URL_HELP, ...API_PREFIX_HELP].join('\n');

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** `undefined`: the SDK's default, `'auto'`. */
  apiPrefix: string | undefined;
}

const HOW_TO_TRY =
  'Run `wfa login`, or to try wfa without an account, run `wfa mock` in another terminal and export the two variables it prints.';

/**
 * Reads the connection from options, then the environment, then the saved login; throws a
 * {@link ConfigError} naming what is missing and how to set it.
 */
export async function resolveConnection(values: ConnectionValues, env: Context['env']): Promise<Connection> {
  let apiKey = (values['api-key'] ?? env['WFA_API_KEY'])?.trim() || undefined;
  let baseUrl = (values['base-url'] ?? env['WFA_BASE_URL'])?.trim() || undefined;
  let apiPrefix = apiPrefixOption(values, env);
  let elsewhere: string | undefined;
  if (!apiKey) {
    const stored = await readStoredLogin(env);
    if (stored && !baseUrl) baseUrl = stored.baseUrl;
    // The saved key goes only to the service that issued it, never to another base URL; so does its prefix.
    if (stored && baseUrl && sameService(stored.baseUrl, baseUrl)) {
      apiKey = stored.apiKey;
      apiPrefix ??= stored.apiPrefix;
    } else if (stored) elsewhere = stored.baseUrl;
  }
  if (!apiKey && !baseUrl) {
    throw new ConfigError(`No API key and no base URL: pass --api-key and --base-url, or set WFA_API_KEY and WFA_BASE_URL. ${HOW_TO_TRY}`);
  }
  if (!baseUrl)
    throw new ConfigError('No base URL: pass --base-url <url> or set WFA_BASE_URL (for example https://automation.example.com).');
  if (!apiKey && elsewhere) {
    throw new ConfigError(
      `No API key for ${baseUrl}: the key saved by \`wfa login\` is for ${elsewhere}. Run \`wfa login\` for this service, or set WFA_API_KEY.`,
    );
  }
  if (!apiKey) throw new ConfigError(`No API key: pass --api-key <key> or set WFA_API_KEY. ${HOW_TO_TRY}`);
  return { apiKey, baseUrl, apiPrefix };
}

/**
 * `--api-prefix`, else `WFA_API_PREFIX`; an empty variable (`WFA_API_PREFIX= wfa …`) is unset, as for the other
 * variables. An empty `--api-prefix ''` is refused: no prefix at all is `--api-prefix /`.
 */
export function apiPrefixOption(values: ConnectionValues, env: Context['env']): string | undefined {
  const given = values['api-prefix'];
  if (given?.trim() === '') throw new UsageError('--api-prefix is empty: pass /api/v1, /v1, a path such as /wfa/v1, / for none, or auto');
  return given ?? (env['WFA_API_PREFIX']?.trim() || undefined);
}

// The client options the connection flags set, by the name the SDK's errors give them.
const FLAG_OF: Readonly<Record<string, string>> = {
  baseUrl: '--base-url (or WFA_BASE_URL)',
  apiPrefix: '--api-prefix (or WFA_API_PREFIX)',
};

/**
 * `new Client(options)`. A connection option the SDK refuses (a malformed base URL or prefix) is a usage error
 * naming the flag and variable, not the SDK's option; the value is not quoted (a base URL may hold a password).
 */
export async function newClient(options: ClientOptions): Promise<Client> {
  // Loaded here, on first use, so that `--help` and usage errors answer without loading the HTTP client.
  const { Client } = await import('../index.js');
  try {
    return new Client(options);
  } catch (error) {
    throw asUsageError(error, (field) => (Object.hasOwn(FLAG_OF, field) ? FLAG_OF[field] : undefined));
  }
}

/** A client for the connection the options and environment give. */
export async function createClient(values: ConnectionValues, context: Pick<Context, 'env'>): Promise<Client> {
  const { apiKey, baseUrl, apiPrefix } = await resolveConnection(values, context.env);
  return newClient({ apiKey, baseUrl, apiPrefix });
}
