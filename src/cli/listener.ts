/**
 * `wfa listen`'s polling loop: follows workflows' builds, and POSTs each completed build's `build.completed`
 * delivery to the local URL once, signed and shaped as the options say.
 */
import { AbortError, AuthenticationError, NotFoundError, PermissionDeniedError } from '../core/errors.js';
import type { Client } from '../index.js';
import { readBoundedAnswer } from '../testing/bounded-answer.js';
import type { WebhookSignaturePreset } from '../webhooks/index.js';
import type { Context } from './context.js';
import { ExitCode } from './exit-codes.js';
import { hideUrlCredentials } from './log-url.js';
import { printable } from './printable.js';

const DELIVERY_TIMEOUT_MS = 10_000;
const FINISHED = new Set(['completed', 'failed', 'error', 'cancelled', 'canceled']);

/** What the options asked for, checked. */
export interface Settings {
  forwardTo: string;
  workflowIds: readonly string[];
  intervalMs: number;
  preset: WebhookSignaturePreset | undefined;
  /** `--pretty-body`: the body pretty-printed, keys in reverse order, as some senders' JSON libraries write it. */
  prettyBody: boolean;
  /** When `wfa listen` was launched (ms since the epoch): without --workflow, workflows created from then on are followed. */
  since: number;
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

  /**
   * Without --workflow, the workflows created before launch, so that only later ones are followed: one created
   * while this first listing runs is new, although it is listed (by its `created_at`, on the service's clock).
   */
  async start(): Promise<void> {
    if (this.settings.workflowIds.length > 0) return;
    for await (const workflow of this.client.workflows.list({}, { signal: this.context.signal })) {
      if (!(Date.parse(workflow.created_at) >= this.settings.since)) this.before.add(workflow.id);
    }
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
          `workflow ${workflowId} has no build_id in the service's response; its builds cannot be followed`,
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
      // Marked before sending: a delivery is attempted once, whatever its response.
      this.finished.add(buildId);
      if (build.status === 'completed' && typeof build.download_url === 'string') {
        await this.forward(workflowId, buildId, build.download_url);
      }
    }
  }

  private async forward(workflowId: string, buildId: string, downloadUrl: string): Promise<void> {
    const { forwardTo, preset } = this.settings;
    const payload = { event: 'build.completed', workflow_id: workflowId, data: { download_url: downloadUrl } };
    const body = this.settings.prettyBody ? JSON.stringify(reversed(payload), null, 2) : JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'wfa-listen' };
    if (preset) {
      const { signWebhook } = await import('../webhooks/index.js');
      // One id per build: the same build forwarded twice (two listeners) is recognisably the same delivery.
      Object.assign(headers, await signWebhook(preset, body, { id: `msg_${buildId}` }));
    }
    // Shown with its credential query fields hidden (`?token=`), as `wfa mock` logs a webhook URL.
    const shown = hideUrlCredentials(forwardTo);
    const record: Record<string, unknown> = { at: new Date().toISOString(), url: shown, build_id: buildId, payload };
    // Stopped by Ctrl+C or after DELIVERY_TIMEOUT_MS, whichever comes first.
    const timeout = new AbortController();
    const stop = () => timeout.abort(this.context.signal.reason);
    this.context.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => timeout.abort(new Error(`no response within ${DELIVERY_TIMEOUT_MS} ms`)), DELIVERY_TIMEOUT_MS);
    try {
      const response = await fetch(forwardTo, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: timeout.signal,
      });
      record['status'] = response.status;
      // Past the bound the rest is not read: aborting drops the connection.
      if (!(await readBoundedAnswer(response.body).catch(() => true))) timeout.abort(new Error('answer too long'));
    } catch (error) {
      if (this.context.signal.aborted) throw error;
      const text = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      record['error'] = hideUrlCredentials(text, forwardTo);
    } finally {
      clearTimeout(timer);
      this.context.signal.removeEventListener('abort', stop);
    }
    this.delivered += 1;
    this.context.stdout.write(`${printable(JSON.stringify(record))}\n`);
    const outcome = record['status'] !== undefined ? String(record['status']) : `failed (${String(record['error'])})`;
    this.context.stderr.write(`${printable(`build.completed ${workflowId} (${buildId}) -> ${shown}: ${outcome}`)}\n`);
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.context.stderr.write(`wfa listen: ${printable(message)}\n`);
  }

  /** A failed round: said once, not every round while the service stays down, and again once it changes. */
  failed(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (text !== this.lastError) this.context.stderr.write(`wfa listen: ${printable(text)} (polling goes on)\n`);
    this.lastError = text;
  }

  succeeded(): void {
    this.lastError = undefined;
  }
}

/** Polls until Ctrl+C or SIGTERM; a failed round is said once and polling goes on. */
export async function listen(settings: Settings, client: Client, context: Context): Promise<ExitCode> {
  const listener = new Listener(client, settings, context);
  const what = settings.workflowIds.length > 0 ? `builds of ${settings.workflowIds.join(', ')}` : 'builds of workflows created from now on';
  const signed = settings.preset ? `, signed (${settings.preset.scheme})` : '';
  try {
    await listener.start();
    context.stderr.write(
      `Forwarding build.completed for ${what} to ${hideUrlCredentials(settings.forwardTo)}${signed}. Press Ctrl+C to stop.\n`,
    );
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

/** The same JSON with every object's keys in reverse order: what a sender need not keep, and a receiver must not rely on. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversed(item)]),
  );
}
