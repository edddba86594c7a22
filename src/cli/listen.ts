/**
 * `wfa listen --forward-to <url>`: polls the service for builds and POSTs the `build.completed` delivery the
 * service would send to a local URL, once per completed build, so webhooks can be tried without a tunnel.
 */
import { AbortError, AuthenticationError, NotFoundError, PermissionDeniedError } from '../core/errors.js';
import type { Client } from '../index.js';
import type { WebhookSignaturePreset } from '../webhooks/index.js';
import { durationOption, expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import type { Context } from './context.js';
import { ConfigError, UsageError } from './errors.js';
import { EXIT_CODES_HELP, ExitCode } from './exit-codes.js';

const USAGE = 'wfa listen --forward-to <url> [--workflow <id> ...] [--sign hmac-sha256|standard-webhooks] [options]';

const HELP = `Usage: ${USAGE}

Forwards webhooks to this machine without a tunnel: polls the service for builds, and when one completes,
POSTs the build.completed delivery the service would send to --forward-to. Each completed build is
forwarded once. Each delivery is printed on stdout as one JSON line (with the answer's status); a summary
line goes to stderr. Stops on Ctrl+C (exit code 130) or SIGTERM (143).

Options:
  --forward-to <url>            where to POST deliveries (http or https), such as http://localhost:3000/webhooks
  --workflow <id>               follow this workflow's builds (repeat for more); a build that has already
                                completed is forwarded at once. Without it: workflows created from now on
  --interval <duration>         time between polls (default 2s)
  --sign <scheme>               sign deliveries: hmac-sha256 or standard-webhooks
  --secret-env <name>           the environment variable holding the signing secret (default WFA_WEBHOOK_SECRET)
  --signature-header <name>     hmac-sha256: the header (default x-signature)
  --signature-encoding <enc>    hmac-sha256: hex (default) or base64
  --signature-prefix <text>     hmac-sha256: text before the signature, such as sha256=

  The secret is read from the environment only: arguments are visible to other users in \`ps\`.
  Durations: a number of seconds (90), or with a unit: 500ms, 30s, 5m, 1h.

${CONNECTION_HELP}

Exit codes:
${EXIT_CODES_HELP}

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
} as const;

const DELIVERY_TIMEOUT_MS = 10_000;
const FINISHED = new Set(['completed', 'failed', 'error', 'cancelled', 'canceled']);

interface Settings {
  forwardTo: string;
  workflowIds: readonly string[];
  intervalMs: number;
  preset: WebhookSignaturePreset | undefined;
}

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
  const secret = env[variable];
  if (!secret) throw new ConfigError(`--sign ${scheme} needs the signing secret in the environment variable ${variable}, which is not set`);
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

/** Resolves after `ms`, or at once when `signal` is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A failure that polling again cannot fix: the key is wrong or lacks the right. */
function isFatal(error: unknown): boolean {
  return AuthenticationError.is(error) || PermissionDeniedError.is(error);
}

class Listener {
  /** Workflows whose builds are followed, with the build each had when last read. */
  private readonly watched = new Map<string, string | undefined>();
  /** Workflows present when listening started (without --workflow): not followed. */
  private readonly before = new Set<string>();
  /** Builds that finished (forwarded when completed): never looked at again. */
  private readonly finished = new Set<string>();
  private readonly warned = new Set<string>();
  private lastError: string | undefined;
  delivered = 0;

  constructor(
    private readonly client: Client,
    private readonly settings: Settings,
    private readonly context: Context,
  ) {
    for (const id of settings.workflowIds) this.watched.set(id, undefined);
  }

  /** Without --workflow, the workflows that exist now, so that only those created later are followed. */
  async start(): Promise<void> {
    if (this.settings.workflowIds.length > 0) return;
    for await (const workflow of this.client.workflows.list({}, { signal: this.context.signal })) this.before.add(workflow.id);
  }

  /** One round: learn each followed workflow's current build, then read the builds not yet finished. */
  async poll(): Promise<void> {
    const { signal } = this.context;
    if (this.settings.workflowIds.length === 0) {
      for await (const workflow of this.client.workflows.list({}, { signal })) {
        if (!this.before.has(workflow.id)) this.watched.set(workflow.id, workflow.build_id);
      }
    } else {
      for (const id of this.watched.keys()) {
        try {
          this.watched.set(id, (await this.client.workflows.get(id, { signal })).build_id);
        } catch (error) {
          if (isFatal(error) || signal.aborted) throw error;
          if (NotFoundError.is(error)) {
            this.warnOnce(`gone:${id}`, `workflow ${id} was not found; its builds are not followed`);
            this.watched.delete(id);
            continue;
          }
          // Like a build that cannot be read: said once, its last known build kept, tried again next round.
          const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          this.warnOnce(`workflow:${id}`, `workflow ${id} could not be read (${text}); tried again next round`);
        }
      }
    }
    for (const [workflowId, buildId] of this.watched) {
      if (buildId === undefined) {
        this.warnOnce(
          `no-build:${workflowId}`,
          `workflow ${workflowId} has no build_id in the service's answer; its builds cannot be followed`,
        );
        continue;
      }
      if (this.finished.has(buildId)) continue;
      const build = await this.client.builds.get(buildId, { signal }).catch((error: unknown) => {
        // One unreadable build (purged, a bad id) must not stop the others: said once, tried again next round.
        if (isFatal(error) || signal.aborted) throw error;
        const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        this.warnOnce(`build:${buildId}`, `build ${buildId} of workflow ${workflowId} could not be read (${text}); skipped`);
        return undefined;
      });
      if (build === undefined || !FINISHED.has(build.status)) continue;
      // Marked before sending: a delivery is attempted once, whatever its answer.
      this.finished.add(buildId);
      if (build.status === 'completed' && typeof build.download_url === 'string') {
        await this.forward(workflowId, buildId, build.download_url);
      }
    }
  }

  private async forward(workflowId: string, buildId: string, downloadUrl: string): Promise<void> {
    const { forwardTo, preset } = this.settings;
    const payload = { event: 'build.completed', workflow_id: workflowId, data: { download_url: downloadUrl } };
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'wfa-listen' };
    if (preset) {
      const { signWebhook } = await import('../webhooks/index.js');
      // One id per build: the same build forwarded twice (two listeners) is recognisably the same delivery.
      Object.assign(headers, await signWebhook(preset, body, { id: `msg_${buildId}` }));
    }
    const record: Record<string, unknown> = { at: new Date().toISOString(), url: forwardTo, build_id: buildId, payload };
    // Stopped by Ctrl+C or after DELIVERY_TIMEOUT_MS, whichever comes first.
    const timeout = new AbortController();
    const stop = () => timeout.abort(this.context.signal.reason);
    this.context.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => timeout.abort(new Error(`no answer within ${DELIVERY_TIMEOUT_MS} ms`)), DELIVERY_TIMEOUT_MS);
    try {
      const response = await fetch(forwardTo, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: timeout.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      record['status'] = response.status;
    } catch (error) {
      if (this.context.signal.aborted) throw error;
      record['error'] = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    } finally {
      clearTimeout(timer);
      this.context.signal.removeEventListener('abort', stop);
    }
    this.delivered += 1;
    this.context.stdout.write(`${JSON.stringify(record)}\n`);
    const outcome = record['status'] !== undefined ? String(record['status']) : `failed (${String(record['error'])})`;
    this.context.stderr.write(`build.completed ${workflowId} (${buildId}) -> ${forwardTo}: ${outcome}\n`);
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.context.stderr.write(`wfa listen: ${message}\n`);
  }

  /** A failed round: said once, not every round while the service stays down, and again once it changes. */
  failed(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (text !== this.lastError) this.context.stderr.write(`wfa listen: ${text} (polling goes on)\n`);
    this.lastError = text;
  }

  succeeded(): void {
    this.lastError = undefined;
  }
}

async function listen(settings: Settings, client: Client, context: Context): Promise<ExitCode> {
  const listener = new Listener(client, settings, context);
  const what = settings.workflowIds.length > 0 ? `builds of ${settings.workflowIds.join(', ')}` : 'builds of workflows created from now on';
  const signed = settings.preset ? `, signed (${settings.preset.scheme})` : '';
  try {
    await listener.start();
    context.stderr.write(`Forwarding build.completed for ${what} to ${settings.forwardTo}${signed}. Press Ctrl+C to stop.\n`);
    while (!context.signal.aborted) {
      try {
        await listener.poll();
        listener.succeeded();
      } catch (error) {
        if (context.signal.aborted) break;
        if (isFatal(error)) throw error;
        listener.failed(error);
      }
      await pause(settings.intervalMs, context.signal);
    }
  } catch (error) {
    if (!(context.signal.aborted && (AbortError.is(error) || error === context.signal.reason))) throw error;
  }
  context.stderr.write(`Stopped listening (${listener.delivered} ${listener.delivered === 1 ? 'delivery' : 'deliveries'} forwarded).\n`);
  return ExitCode.Interrupted;
}

export const listenCommand: Command = {
  name: 'listen',
  summary: 'Forward build.completed webhooks to a local URL, polling the service',
  help: HELP,
  async run(args, context) {
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
    return listen({ forwardTo, workflowIds: [...new Set(workflowIds)], intervalMs, preset }, client, context);
  },
};
