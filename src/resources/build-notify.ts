/** `builds.notify`: a webhook delivery about a build makes the waits for it poll at once. */
import { ValidationError } from '../core/errors.js';
import type { HttpCore } from '../core/http.js';
import { buildKey, scheduleOf, workflowKey } from './poll-schedule.js';

/**
 * What `builds.notify` takes: a webhook event as `createWebhookHandler` gives it (its `workflow_id`), or
 * anything naming a build (`build_id`, at the top or in `data`). Fields of other types are ignored.
 */
export interface BuildNotice {
  /** The workflow whose build the delivery is about (`wf_...`): every delivery of the service names one. */
  readonly workflow_id?: string | undefined;
  /** A build id, where a delivery names one. */
  readonly build_id?: string | undefined;
  /** The event's content: its `build_id`, if a string, is read too. */
  readonly data?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The number of waits that will poll at once. Never throws on a delivery's content: it is the service's, not the caller's. */
export function notifyWaits(core: HttpCore, notice: BuildNotice | string): number {
  if (typeof notice !== 'string' && (typeof notice !== 'object' || notice === null)) {
    const issue = { path: [], message: 'must be a webhook event or a build id', code: 'invalid_type' };
    throw new ValidationError('argument of builds.notify', [issue]);
  }
  const schedule = scheduleOf(core, false);
  if (!schedule) return 0;
  if (typeof notice === 'string') return schedule.poke(buildKey(notice));
  const data = typeof notice.data === 'object' && notice.data !== null ? (notice.data as { build_id?: unknown }) : {};
  const keys = new Set<string>();
  for (const id of [text(notice.build_id), text(data.build_id)]) if (id) keys.add(buildKey(id));
  const workflowId = text(notice.workflow_id);
  if (workflowId) keys.add(workflowKey(workflowId));
  let woken = 0;
  for (const key of keys) woken += schedule.poke(key);
  return woken;
}
