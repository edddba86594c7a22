/**
 * A build's life, read off the clock: `building` with progress rising from 0 to 99, then `completed` (or
 * `failed`) once `durationMs` has passed. Nothing is stored as it happens, so an injected clock can jump
 * forward or back and every response stays consistent.
 */

import type { StoredBuild } from './store.js';
import type { MockBuild, MockWorkflow } from './types.js';

const FAILURE = 'Packaging failed: the mock was told to fail this build';

export function buildStatus(build: StoredBuild, at: number): MockBuild['status'] {
  if (build.cancelledAt !== undefined) return 'cancelled';
  if (at >= endsAt(build)) return build.fails ? 'failed' : 'completed';
  return 'building';
}

export function endsAt(build: StoredBuild): number {
  return build.startedAt + build.durationMs;
}

/** Where the artifact of a completed build can be downloaded (served by the mock without an API key). */
export function downloadUrl(build: StoredBuild): string {
  return `${build.origin}/downloads/${encodeURIComponent(build.id)}.zip`;
}

export function workflowStatus(build: StoredBuild | undefined, at: number): MockWorkflow['status'] {
  const status = build ? buildStatus(build, at) : 'completed';
  if (status === 'completed') return 'active';
  if (status === 'building') return 'building';
  return 'failed';
}

function progressAt(build: StoredBuild, at: number): number {
  if (build.durationMs <= 0) return 99;
  return Math.min(99, Math.max(0, Math.floor(((at - build.startedAt) / build.durationMs) * 100)));
}

// Each log line appears once progress reaches its threshold, so logs grow with the build.
function plannedLogs(build: StoredBuild): [threshold: number, line: string][] {
  const count = build.steps.length;
  return [
    [0, `Build ${build.id} queued for workflow ${build.workflowId}`],
    [0, `Target platform ${build.platform}, trigger ${build.triggerType}`],
    ...build.steps.map((step, i): [number, string] => [10 + Math.floor((70 * i) / count), `Compiling action ${i + 1}/${count}: ${step}`]),
    [85, `Packaging for ${build.platform}`],
  ];
}

function logsUpTo(build: StoredBuild, progress: number): string[] {
  return plannedLogs(build)
    .filter(([threshold]) => threshold <= progress)
    .map(([, line]) => line);
}

/** The body of `GET /builds/{id}` at time `at`. */
export function buildView(build: StoredBuild, at: number, urlOf: (build: StoredBuild) => string = downloadUrl): MockBuild {
  const status = buildStatus(build, at);
  const base = { id: build.id, workflow_id: build.workflowId, created_at: new Date(build.startedAt).toISOString() };
  switch (status) {
    case 'building': {
      const progress = progressAt(build, at);
      return { ...base, status, progress, logs: logsUpTo(build, progress) };
    }
    case 'completed': {
      const url = urlOf(build);
      const logs = [...logsUpTo(build, 100), `Artifact ready: ${url}`, 'Build completed'];
      return { ...base, status, progress: 100, download_url: url, logs, finished_at: iso(endsAt(build)) };
    }
    case 'failed': {
      const logs = [...logsUpTo(build, 100), `ERROR ${FAILURE}`, 'Build failed'];
      return { ...base, status, error: FAILURE, logs, finished_at: iso(endsAt(build)) };
    }
    case 'cancelled': {
      const cancelledAt = build.cancelledAt ?? at;
      const error = `Workflow ${build.workflowId} was deleted while building`;
      const logs = [...logsUpTo(build, progressAt(build, cancelledAt)), `Build cancelled: ${error}`];
      return { ...base, status, error, logs, finished_at: iso(cancelledAt) };
    }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
