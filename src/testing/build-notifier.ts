/**
 * Sends `build.completed` when a build ends, once per build, whether or not anyone polls it. A single timer
 * waits for the next build due; it is unref'd so it never keeps a Node process alive, and requests also check
 * for due builds, which is what moves things along when a test injects its own clock.
 */

import { buildStatus, endsAt } from './builds.js';
import type { Store, StoredBuild } from './store.js';
import type { MockWebhookDelivery, MockWebhookEvent } from './types.js';

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

  function send(url: string, payload: MockWebhookEvent): void {
    const delivery: MockWebhookDelivery = { url, payload, at: new Date(deps.now()).toISOString() };
    sent.push(delivery);
    const controller = new AbortController();
    controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(new Error('webhook delivery timed out')), DELIVERY_TIMEOUT_MS);
    unref(timeout);
    const attempt = (async () => {
      try {
        const response = await deps.fetch()(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'workflow-automation-sdk-mock' },
          body: JSON.stringify(payload),
          signal: controller.signal,
        });
        delivery.status = response.status;
        // Read to the end rather than cancel(): under msw's fetch interceptor, cancelling a passed-through
        // body never settles, and the delivery would stay in flight for ever.
        await response.arrayBuffer();
      } catch (error) {
        delivery.error = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timeout);
        controllers.delete(controller);
      }
    })();
    inFlight.add(attempt);
    void attempt.finally(() => inFlight.delete(attempt));
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
        send(url, { event: 'build.completed', workflow_id: build.workflowId, data: { download_url: deps.downloadUrl(build, at) } });
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
      sent = [];
    },
  };
}
