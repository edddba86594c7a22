/** The checks `wfa doctor` makes of a deployment: its key, its list envelope and fields, its clock. */
import type { Client, Workflow, WorkflowStatus } from '../index.js';
import { AbortError, ResponseValidationError } from '../core/errors.js';

// The named fields of a public type: the lists below must match them exactly, or this file does not compile.
type Named<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
const WORKFLOW_FIELDS = {
  id: 1,
  name: 1,
  platform: 1,
  status: 1,
  created_at: 1,
  updated_at: 1,
  build_id: 1,
  trigger: 1,
  actions: 1,
} satisfies Record<Named<Workflow>, 1>;
const WORKFLOW_STATUSES = { building: 1, active: 1, completed: 1, failed: 1 } satisfies Record<WorkflowStatus, 1>;

/** More than this between the server's `Date` and this machine's clock is a problem (the `Date` header has 1 s steps). */
const MAX_SKEW_MS = 60_000;

export type Level = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  level: Level;
  message: string;
  hint?: string | undefined;
}

export interface Probe {
  prefix: string;
  status?: number | undefined;
  /** Why nothing responded (a connection error's message). */
  error?: string | undefined;
  elapsedMs?: number | undefined;
  date?: string | null | undefined;
  sentAt: number;
  body?: unknown;
}

/** Where a list body keeps its items, described without the SDK's rules, which the list call then applies. */
export function describeEnvelope(body: unknown): { shape: string; itemsAt: string | undefined; fields: string[]; items: unknown[] } {
  if (Array.isArray(body)) return { shape: 'a bare JSON array', itemsAt: '', fields: [], items: body };
  if (typeof body !== 'object' || body === null)
    return { shape: `not a list (${body === null ? 'null' : typeof body})`, itemsAt: undefined, fields: [], items: [] };
  const record = body as Record<string, unknown>;
  const fields = Object.keys(record);
  const inner = record['data'];
  const holders: Array<[string, Record<string, unknown>]> = [['', record]];
  if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) holders.push(['data.', inner as Record<string, unknown>]);
  for (const [path, holder] of holders) {
    const key = Object.keys(holder).find((name) => Array.isArray(holder[name]));
    if (key === undefined) continue;
    const others = fields.filter((name) => name !== key && `${name}.` !== path);
    return {
      shape: `an object with the items under "${path}${key}"${others.length ? ` and ${others.join(', ')}` : ''}`,
      itemsAt: path + key,
      fields,
      items: holder[key] as unknown[],
    };
  }
  return { shape: `an object with no array in it (fields: ${fields.join(', ') || 'none'})`, itemsAt: undefined, fields, items: [] };
}

export function keyCheck(probe: Probe, hasKey: boolean, keySource: string): Check {
  const status = probe.status ?? 0;
  if (!hasKey) {
    return {
      name: 'API key',
      level: 'fail',
      message: 'none set',
      hint: 'Run `wfa login`, or set WFA_API_KEY (wfa mock prints one to try).',
    };
  }
  if (status >= 200 && status < 300) return { name: 'API key', level: 'ok', message: `accepted (${keySource})` };
  if (status === 401 || status === 403) {
    return {
      name: 'API key',
      level: 'fail',
      message: `rejected with ${status} (${keySource})`,
      hint: 'Check that the key is for this base URL, or get a new one with `wfa login`.',
    };
  }
  return {
    name: 'API key',
    level: 'fail',
    message: `not checked: the service responded ${status}`,
    hint: status >= 500 ? 'The service failed; try again later or ask its operators.' : undefined,
  };
}

export async function envelopeChecks(
  client: Client,
  body: unknown,
  signal: AbortSignal,
): Promise<{ checks: Check[]; envelope: Record<string, unknown> }> {
  const described = describeEnvelope(body);
  const checks: Check[] = [];
  const envelope: Record<string, unknown> = { shape: described.shape, itemsAt: described.itemsAt ?? null, fields: described.fields };
  // The SDK's own list call is the authority on whether it reads this envelope.
  try {
    const page = await client.workflows.list({ limit: 20 }, { signal });
    envelope['sdkReads'] = true;
    envelope['paging'] = page.info;
    checks.push({
      name: 'list envelope',
      level: 'ok',
      message: `${described.shape}; the SDK reads it (${page.items.length} items on the first page)`,
    });
  } catch (error) {
    if (AbortError.is(error) && signal.aborted) throw error;
    envelope['sdkReads'] = false;
    const reason = ResponseValidationError.is(error) ? 'the SDK cannot read it' : `listing failed (${(error as Error).name})`;
    checks.push({
      name: 'list envelope',
      level: 'fail',
      message: `${described.shape}; ${reason}`,
      hint: 'Please report this shape (wfa doctor --json) in an issue; meanwhile client.request() returns the body as received.',
    });
  }
  const items = described.items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
  const unknownFields = [...new Set(items.flatMap((item) => Object.keys(item).filter((name) => !Object.hasOwn(WORKFLOW_FIELDS, name))))];
  const unknownStatuses = [
    ...new Set(
      items.map((item) => item['status']).filter((s): s is string => typeof s === 'string' && !Object.hasOwn(WORKFLOW_STATUSES, s)),
    ),
  ];
  envelope['unknownFields'] = unknownFields;
  envelope['unknownStatuses'] = unknownStatuses;
  if (items.length === 0) {
    checks.push({ name: 'fields', level: 'ok', message: 'no workflows to look at (create one to check its fields)' });
  } else if (unknownFields.length > 0 || unknownStatuses.length > 0) {
    const parts = [
      unknownFields.length ? `fields ${unknownFields.join(', ')}` : '',
      unknownStatuses.length ? `statuses ${unknownStatuses.join(', ')}` : '',
    ].filter(Boolean);
    checks.push({
      name: 'fields',
      level: 'warn',
      message: `workflows have ${parts.join(' and ')} this SDK does not know`,
      // The example is a field it does not know, as the user would read it.
      hint: `The SDK keeps them as received (${unknownFields.length ? `workflow[${JSON.stringify(unknownFields[0])}]` : 'workflow.status, a string'}); a newer SDK version may type them.`,
    });
  } else {
    checks.push({ name: 'fields', level: 'ok', message: `every field and status of ${items.length} workflows is known to the SDK` });
  }
  return { checks, envelope };
}

export function clockCheck(probe: Probe): { check: Check; skewMs: number | null } {
  const serverTime = probe.date ? Date.parse(probe.date) : Number.NaN;
  if (!Number.isFinite(serverTime)) {
    const message = probe.date
      ? 'not checked: the service sent a Date header that is not a date'
      : 'not checked: the service sent no Date header';
    return { check: { name: 'clock', level: 'ok', message }, skewMs: null };
  }
  // The server wrote its Date about half-way through the round trip.
  const skewMs = Math.round(serverTime - (probe.sentAt + (probe.elapsedMs ?? 0) / 2));
  const seconds = Math.round(skewMs / 1000);
  const message = `the server's clock is ${Math.abs(seconds)} s ${skewMs >= 0 ? 'ahead of' : 'behind'} this machine's (±1 s)`;
  if (Math.abs(skewMs) <= MAX_SKEW_MS) return { check: { name: 'clock', level: 'ok', message }, skewMs };
  return {
    check: {
      name: 'clock',
      level: 'fail',
      message,
      hint: "Set this machine's clock (NTP), or tell the service's operators: Retry-After dates and webhook timestamps are read on these clocks.",
    },
    skewMs,
  };
}
