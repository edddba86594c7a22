/**
 * Confirms a delivery with the service before its handler runs: re-reads the event's subject through the API.
 * Loaded by the handler only when `confirm` is set, so an endpoint that does not confirm never carries it.
 *
 * @module
 */

import { NotFoundError, ValidationError, WfaError } from '../core/errors.js';
import { atDeadline, now } from '../core/timing.js';
import type { BuildCompletedEvent } from './parse.js';

/**
 * What `confirm` needs of a client: the two reads of `Client` that confirm a `build.completed` event. Any
 * object of this shape works (a `Client`, a wrapper, a test double), so `/webhooks` needs no import of the
 * client: an endpoint that does not confirm never loads the HTTP code.
 *
 * @example
 * ```ts
 * import { Client } from 'workflow-automation-sdk';
 * const client: WebhookConfirmClient = new Client({ apiKey: process.env.WFA_API_KEY });
 * ```
 */
export interface WebhookConfirmClient {
  /** `client.workflows`: the event's workflow, for its current `build_id`. */
  workflows: {
    /** Reads one workflow; `signal` aborts it when `confirmTimeoutMs` has passed. */
    get(
      id: string,
      options?: { signal?: AbortSignal | undefined },
    ): PromiseLike<{
      /** Must be the event's `workflow_id` when present. */
      id?: string | undefined;
      /** The workflow's current build. */
      build_id?: string | null | undefined;
    }>;
  };
  /** `client.builds`: that build's status and download URL. */
  builds: {
    /** Reads one build; `signal` aborts it when `confirmTimeoutMs` has passed. */
    get(
      id: string,
      options?: { signal?: AbortSignal | undefined },
    ): PromiseLike<{
      /** Must be `completed`. */
      status: string;
      /** Must be the event's `download_url`. */
      download_url?: string | null | undefined;
    }>;
  };
}

/** What the service said: agrees, disagrees (401), or could not say (503). */
export type Confirmation = { agrees: true } | { agrees: false; error: WfaError } | { agrees: undefined; error: unknown };

/**
 * Reads the workflow, then its build, and checks that the build is `completed` with the event's `download_url`.
 * A 404 is a disagreement: the subject does not exist for this key; so is an id the client refuses to send.
 * Any other failure, or no response within `timeoutMs`, is "could not say".
 */
export async function confirmBuildCompleted(
  client: WebhookConfirmClient,
  event: BuildCompletedEvent,
  timeoutMs: number,
): Promise<Confirmation> {
  const controller = new AbortController();
  const disarm = atDeadline(now() + timeoutMs, () =>
    controller.abort(new WfaError(`Confirming the delivery took longer than ${timeoutMs} ms (confirmTimeoutMs)`)),
  );
  const options = { signal: controller.signal };
  const disagree = (why: string): Confirmation => ({
    agrees: false,
    error: new WfaError(`Webhook delivery not confirmed by the service: ${why}; the handler did not run`),
  });
  const timeout = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  timeout.catch(() => {});
  try {
    // Raced with the timeout too: a client that ignores the signal must not hold the delivery.
    const workflow = await Promise.race([client.workflows.get(event.workflow_id, options), timeout]);
    // A lenient lookup that returns another workflow confirms nothing about this one.
    if (workflow?.id !== undefined && workflow.id !== event.workflow_id) {
      return disagree(`the service returned another workflow for ${clip(event.workflow_id)}`);
    }
    const buildId = workflow?.build_id;
    if (typeof buildId !== 'string' || buildId === '') return disagree(`workflow ${clip(event.workflow_id)} has no build_id to read`);
    const build = await Promise.race([client.builds.get(buildId, options), timeout]);
    if (build?.status !== 'completed') return disagree(`build ${clip(buildId)} of workflow ${clip(event.workflow_id)} is not completed`);
    // The URLs are never quoted: a download URL may carry a signature, and the event's may be anything.
    if (!sameUrl(build.download_url, event.data.download_url)) {
      return disagree(`the download_url differs from the one of build ${clip(buildId)} of workflow ${clip(event.workflow_id)}`);
    }
    return { agrees: true };
  } catch (error) {
    if (NotFoundError.is(error)) return disagree(`workflow ${clip(event.workflow_id)} or its build was not found`);
    // The client refused the id before any request ("..", too long, a lone surrogate): a forgery, not an outage.
    if (ValidationError.is(error))
      return disagree(`the event's workflow_id cannot be a workflow's id (${error.issues[0]?.message ?? 'invalid'})`);
    return { agrees: undefined, error };
  } finally {
    disarm();
  }
}

/** Equal as URLs (`HTTPS://X.test/a` is `https://x.test/a`); otherwise as strings. */
function sameUrl(service: unknown, event: string): boolean {
  if (typeof service !== 'string') return false;
  try {
    return new URL(service).href === new URL(event).href;
  } catch {
    return service === event;
  }
}

function clip(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}
