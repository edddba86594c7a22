/**
 * Sends `build.completed` when a build ends, once per build, whether or not anyone polls it, and again after
 * a failed attempt, as a real sender would. A single timer waits for the next build due; it is unref'd so it
 * never keeps a Node process alive, and requests also check for due builds, which is what moves things along
 * when a test injects its own clock.
 */

import { buildStatus, endsAt } from './builds.js';
import type { Store, StoredBuild } from './store.js';
import type { MockWebhookDelivery, MockWebhookEvent } from './types.js';
import { readBoundedAnswer } from './bounded-answer.js';
import { observe } from '../core/observe.js';

const DELIVERY_TIMEOUT_MS = 10_000;

export interface BuildNotifier {
  /** Settles every build that has ended on the clock, sending the webhooks that are due. */
  sweep(): void;
  /** (Re)arms the timer for the next build due. */
  schedule(): void;
  /** Sweeps, then waits until no delivery is in flight. */
  flush(): Promise<void>;
  deliveries(): readonly MockWebhookDelivery[];
  /** Drops the timer, aborts deliveries in flight and forgets past ones; with `stop`, nothing starts again. */
  clear(options?: { stop?: boolean }): void;
}

/** What the notifier reads from its mock; functions, because the store and URL change on reset. */
export interface NotifierDeps {
  now: () => number;
  store: () => Store;
  webhookUrl: () => string | undefined;
  fetch: () => typeof globalThis.fetch;
  downloadUrl: (build: StoredBuild, at: number) => string;
  /** Waits before the 2nd, 3rd... attempt of a delivery that failed. */
  retryDelaysMs: readonly number[];
  /** Told of each attempt once its outcome is known. */
  onDelivery: (delivery: MockWebhookDelivery) => unknown;
}

// fetch's own message is "fetch failed"; what failed (a refused connection, a reset) is in its cause.
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

function unref(timer: ReturnType<typeof setTimeout>): void {
  // Node's timers have unref(); a browser's are numbers and never keep anything alive.
  (timer as unknown as { unref?: () => void }).unref?.();
}

export function createBuildNotifier(deps: NotifierDeps): BuildNotifier {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let sent: MockWebhookDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();

  const retries = new Set<ReturnType<typeof setTimeout>>();
  // Bumped by clear(), so that an attempt of before a reset schedules no retry after it.
  let generation = 0;

  // An observer's failure, a throw or a rejection, is not the delivery's.
  const report = (delivery: MockWebhookDelivery): void => observe(() => deps.onDelivery({ ...delivery }));

  // One POST; a failure (no answer, or not 2xx) schedules the next attempt while the delays last.
  function send(url: string, payload: MockWebhookEvent, id: string, attempt: number): void {
    const delivery: MockWebhookDelivery = { url, payload, id, attempt, at: new Date(deps.now()).toISOString() };
    sent.push(delivery);
    const started = generation;
    const controller = new AbortController();
    controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(new Error('webhook delivery timed out')), DELIVERY_TIMEOUT_MS);
    unref(timeout);
    const posting = (async () => {
      try {
        const response = await deps.fetch()(url, {
          method: 'POST',
          // The same webhook-id on every attempt, so that a receiver's dedupe can tell a retry.
          headers: { 'content-type': 'application/json', 'user-agent': 'workflow-automation-sdk-mock', 'webhook-id': id },
          body: JSON.stringify(payload),
          // A 3xx is a failed delivery, as at real senders: following it would post the event wherever it points.
          redirect: 'manual',
          signal: controller.signal,
        });
        delivery.status = response.status;
        if (!(await readBoundedAnswer(response.body))) controller.abort(new Error('answer too long'));
      } catch (error) {
        if (delivery.status === undefined) delivery.error = describeFailure(error);
      } finally {
        clearTimeout(timeout);
        controllers.delete(controller);
      }
      const delay = deps.retryDelaysMs[attempt - 1];
      const failed = delivery.status === undefined || delivery.status < 200 || delivery.status > 299;
      if (failed && delay !== undefined && !stopped && started === generation) {
        delivery.retryInMs = delay;
        const retry = setTimeout(() => {
          retries.delete(retry);
          send(url, payload, id, attempt + 1);
        }, delay);
        unref(retry);
        retries.add(retry);
      }
      report(delivery);
    })();
    inFlight.add(posting);
    void posting.finally(() => inFlight.delete(posting));
  }

  function sweep(): void {
    const at = deps.now();
    for (const build of deps.store().builds.values()) {
      if (build.settled) continue;
      const status = buildStatus(build, at);
      if (status === 'building') continue;
      build.settled = true;
      const url = deps.webhookUrl();
      if (status === 'completed' && url && !stopped) {
        const payload: MockWebhookEvent = {
          event: 'build.completed',
          workflow_id: build.workflowId,
          data: { download_url: deps.downloadUrl(build, at) },
        };
        send(url, payload, `evt_${build.id}`, 1);
      }
    }
  }

  function schedule(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    let next = Infinity;
    for (const build of deps.store().builds.values()) {
      if (!build.settled && build.cancelledAt === undefined) next = Math.min(next, endsAt(build));
    }
    if (next === Infinity) return;
    // With an injected clock that stands still this re-arms now and then; the timer is unref'd, so harmless.
    timer = setTimeout(
      () => {
        timer = undefined;
        sweep();
        schedule();
      },
      Math.max(0, next - deps.now()),
    );
    unref(timer);
  }

  return {
    sweep,
    schedule,
    async flush() {
      sweep();
      schedule();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    deliveries: () => sent.map((delivery) => ({ ...delivery })),
    clear(options = {}) {
      if (options.stop) stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (const controller of controllers) controller.abort(new Error('mock service reset or closed'));
      generation += 1;
      for (const retry of retries) clearTimeout(retry);
      retries.clear();
      sent = [];
    },
  };
}
