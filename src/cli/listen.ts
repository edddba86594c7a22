/**
 * `wfa listen --forward-to <url>`: polls the service for builds and POSTs the `build.completed` delivery the
 * service would send to a local URL, once per completed build, so webhooks can be tried without a tunnel.
 */
import type { WebhookSignaturePreset } from '../webhooks/index.js';
import { durationOption, expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import type { Context } from './context.js';
import { ConfigError, UsageError } from './errors.js';
import { ExitCode, exitCodesHelp } from './exit-codes.js';
import { listen } from './listener.js';

const USAGE = 'wfa listen --forward-to <url> [--workflow <id> ...] [--sign hmac-sha256|standard-webhooks] [options]';

// It runs until stopped: it never exits 0, and has no build of its own to fail or time out.
const LISTEN_EXIT_CODES_HELP = exitCodesHelp([ExitCode.Usage, ExitCode.RequestFailed, ExitCode.Interrupted, ExitCode.Terminated]);

const HELP = `Usage: ${USAGE}

Forwards webhooks to this machine without a tunnel: polls the service for builds, and when one completes,
POSTs the build.completed delivery the service would send to --forward-to. Each completed build is
forwarded once. Each delivery is printed on stdout as one JSON line (with the response's status); a summary
line goes to stderr. Stops on Ctrl+C (exit code 130) or SIGTERM (143).

Options:
  --forward-to <url>            where to POST deliveries (http or https), such as http://localhost:3000/webhooks
  --workflow <id>               follow this workflow's builds (repeat for more); a build that has already
                                completed is forwarded at once. Without it: workflows created since launch
  --interval <duration>         time between polls (default 2s)
  --sign <scheme>               sign deliveries: hmac-sha256 or standard-webhooks
  --secret-env <name>           the environment variable holding the signing secret (default WFA_WEBHOOK_SECRET)
  --signature-header <name>     hmac-sha256: the header (default x-signature)
  --signature-encoding <enc>    hmac-sha256: hex (default) or base64
  --signature-prefix <text>     hmac-sha256: text before the signature, such as sha256=
  --pretty-body                 send the body pretty-printed, keys in another order, as some senders do
                                (signed as sent): a receiver that re-serialises JSON before verifying then
                                fails here as it would in production

  The secret is read from the environment only: arguments are visible to other users in \`ps\`.
  Durations: a number of seconds (90), or with a unit: 500ms, 30s, 5m, 1h.

${CONNECTION_HELP}

Exit codes:
${LISTEN_EXIT_CODES_HELP}

Example:
  export WFA_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
  wfa listen --forward-to http://localhost:3000/webhooks --sign standard-webhooks`;

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  'forward-to': { type: 'string' },
  workflow: { type: 'string', multiple: true },
  interval: { type: 'string' },
  sign: { type: 'string' },
  'secret-env': { type: 'string' },
  'signature-header': { type: 'string' },
  'signature-encoding': { type: 'string' },
  'signature-prefix': { type: 'string' },
  'pretty-body': { type: 'boolean' },
} as const;

// `user:password@` before the host, with or without a scheme (`admin:pw@localhost:3000/x` parses as scheme `admin:`).
const CREDENTIALS = /^(?:[a-z][a-z\d+.-]*:\/\/)?[^/?#]*@/i;

/** Never quoted: a mistyped value may hold a password, which every delivery line would otherwise print too. */
function forwardToOption(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing --forward-to <url>', USAGE);
  if (CREDENTIALS.test(value)) throw new UsageError('--forward-to must not hold a user name or password (user:password@)', USAGE);
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new UsageError('--forward-to must be an http(s) URL, such as http://localhost:3000/webhooks', USAGE);
  }
  return value;
}

// A conventional environment variable name: upper case, up to 64 characters, no long run of digits.
const ENV_NAME = /^(?!.*\d{6})[A-Z_][A-Z0-9_]{0,63}$/;

/** The signing preset the options ask for; the secret comes from the environment, and is never printed. */
async function signingPreset(
  values: { sign?: string | undefined } & Partial<
    Record<`secret-env` | `signature-${'header' | 'encoding' | 'prefix'}`, string | undefined>
  >,
  env: Context['env'],
): Promise<WebhookSignaturePreset | undefined> {
  const scheme = values.sign;
  const hmacOnly = (['signature-header', 'signature-encoding', 'signature-prefix'] as const).find((name) => values[name] !== undefined);
  if (hmacOnly && scheme !== 'hmac-sha256') throw new UsageError(`--${hmacOnly} goes with --sign hmac-sha256`, USAGE);
  if (scheme === undefined) {
    if (values['secret-env'] !== undefined) throw new UsageError('--secret-env goes with --sign', USAGE);
    return undefined;
  }
  if (scheme !== 'hmac-sha256' && scheme !== 'standard-webhooks') {
    throw new UsageError(`--sign must be hmac-sha256 or standard-webhooks, got "${scheme}"`, USAGE);
  }
  const encoding = values['signature-encoding'] ?? 'hex';
  if (encoding !== 'hex' && encoding !== 'base64') {
    throw new UsageError(`--signature-encoding must be hex or base64, got "${encoding}"`, USAGE);
  }
  const variable = values['secret-env'] ?? 'WFA_WEBHOOK_SECRET';
  // Only a conventional name is quoted: a value such as whsec_… or sk_live_… is a secret typed in the wrong place.
  const named = ENV_NAME.test(variable) ? `the environment variable ${variable}` : undefined;
  if (!named && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
    throw new UsageError(
      '--secret-env takes the name of an environment variable, such as WFA_WEBHOOK_SECRET (the value given is not shown: it may be a secret)',
      USAGE,
    );
  }
  const secret = env[variable];
  if (!secret) {
    throw new ConfigError(
      `--sign ${scheme} needs the signing secret in ${named ?? 'the environment variable named by --secret-env (not shown: it looks like a secret, not a name)'}, which is not set`,
    );
  }
  // Loaded on use, so that unsigned forwarding does not load the webhooks entry.
  const webhooks = await import('../webhooks/index.js');
  return scheme === 'standard-webhooks'
    ? webhooks.standardWebhooks({ secret })
    : webhooks.hmacSha256({
        secret,
        header: values['signature-header'] ?? 'x-signature',
        encoding,
        prefix: values['signature-prefix'],
      });
}

export const listenCommand: Command = {
  name: 'listen',
  summary: 'Forward build.completed webhooks to a local URL, polling the service',
  help: HELP,
  async run(args, context) {
    // "From now on" is from launch, not from the first poll after the client has loaded and listed.
    const since = Date.now();
    const { values, positionals } = parseCommand(args, OPTIONS, USAGE);
    if (values.help) return showHelp(context, HELP);
    expectPositionals(positionals, [], USAGE);
    const forwardTo = forwardToOption(values['forward-to']);
    const workflowIds = values.workflow ?? [];
    const empty = workflowIds.find((id) => id.trim() === '');
    if (empty !== undefined) throw new UsageError('--workflow needs a workflow id', USAGE);
    const intervalMs = durationOption(values.interval, '--interval') ?? 2000;
    const preset = await signingPreset(values, context.env);
    const client = await createClient(values, context);
    const prettyBody = values['pretty-body'] === true;
    return listen({ forwardTo, workflowIds: [...new Set(workflowIds)], intervalMs, preset, prettyBody, since }, client, context);
  },
};
