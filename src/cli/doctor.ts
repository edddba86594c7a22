/**
 * `wfa doctor`: checks a deployment against what the SDK expects (reachable, path prefix, key, list envelope,
 * unknown fields and statuses, latency, clock skew) through the public client only; see docs/design.md.
 */
import type { Client, Workflow, WorkflowStatus } from '../index.js';
import { ApiError, AbortError, ResponseValidationError } from '../core/errors.js';
import { redact, usableSecrets } from '../core/redact.js';
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, resolveConnection } from './config.js';
import { printJson, type Context } from './context.js';
import { ConfigError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { readStoredLogin } from './stored-login.js';

// The named fields of a public type: the lists below must match them exactly, or this file does not compile.
type Named<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
const WORKFLOW_FIELDS = {
  id: 1,
  name: 1,
  platform: 1,
  status: 1,
  created_at: 1,
  build_id: 1,
  trigger: 1,
  actions: 1,
} satisfies Record<Named<Workflow>, 1>;
const WORKFLOW_STATUSES = { building: 1, active: 1, completed: 1, failed: 1 } satisfies Record<WorkflowStatus, 1>;

const KNOWN_PREFIXES = ['/api/v1', '/v1'];
/** Sent when no key is set, so the prefix and reachability can still be checked; a 401 is then expected. */
const NO_KEY = 'wfa-doctor-no-key';
/** More than this between the server's `Date` and this machine's clock is a problem (the `Date` header has 1 s steps). */
const MAX_SKEW_MS = 60_000;

type Level = 'ok' | 'warn' | 'fail';

interface Check {
  name: string;
  level: Level;
  message: string;
  hint?: string | undefined;
}

interface Probe {
  prefix: string;
  status?: number | undefined;
  /** Why nothing answered (a connection error's message). */
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

/** Doctor is run to find what is wrong: no request of its own is retried, or may hang it for the default minute. */
const REQUEST_OPTIONS = { maxRetries: 0, timeoutMs: 10_000 } as const;

async function probe(client: Client, prefix: string, signal: AbortSignal): Promise<Probe> {
  const sentAt = Date.now();
  try {
    const { data, response } = await client.request({ method: 'GET', path: '/workflows', query: { limit: 20 }, signal }).withResponse();
    return {
      prefix,
      status: response.status,
      elapsedMs: Math.round(response.elapsedMs),
      date: response.headers.get('date'),
      sentAt,
      body: data,
    };
  } catch (error) {
    if (AbortError.is(error) && signal.aborted) throw error;
    if (ApiError.is(error)) return { prefix, status: error.status, elapsedMs: Date.now() - sentAt, date: error.headers['date'], sentAt };
    return { prefix, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), sentAt };
  }
}

function keyCheck(answer: Probe, hasKey: boolean, keySource: string): Check {
  const status = answer.status ?? 0;
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
    message: `not checked: the service answered ${status}`,
    hint: status >= 500 ? 'The service failed; try again later or ask its operators.' : undefined,
  };
}

async function envelopeChecks(
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
      hint: 'The SDK keeps them as received (workflow["name"]); a newer SDK version may type them.',
    });
  } else {
    checks.push({ name: 'fields', level: 'ok', message: `every field and status of ${items.length} workflows is known to the SDK` });
  }
  return { checks, envelope };
}

function clockCheck(answer: Probe): { check: Check; skewMs: number | null } {
  const serverTime = answer.date ? Date.parse(answer.date) : Number.NaN;
  if (!Number.isFinite(serverTime)) {
    const message = answer.date
      ? 'not checked: the service sent a Date header that is not a date'
      : 'not checked: the service sent no Date header';
    return { check: { name: 'clock', level: 'ok', message }, skewMs: null };
  }
  // The server wrote its Date about half-way through the round trip.
  const skewMs = Math.round(serverTime - (answer.sentAt + (answer.elapsedMs ?? 0) / 2));
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

const USAGE = 'wfa doctor [--json] [--api-prefix <path>] [--base-url <url>] [--api-key <key>]';

const HELP = `Usage: ${USAGE}

Checks the service at the base URL against what the SDK expects, and says what to fix:
  - whether it is reachable, and the round-trip time
  - which path prefix answers (/api/v1 or /v1; another with --api-prefix)
  - whether the API key is accepted
  - which list envelope it uses, whether the SDK reads it, and fields or statuses the SDK does not know
  - the server's clock skew, from its Date header
Exits 0 when nothing is wrong (warnings included), 1 without a base URL, 2 when a check failed.

Options:
  --json               print the report as JSON
  --api-prefix <path>  check this path prefix (a gateway's, such as /wfa/v1) instead of /api/v1 and /v1

${CONNECTION_HELP}`;

function render(report: { baseUrl: string; checks: Check[] }): string {
  const lines = [`wfa doctor: ${report.baseUrl}`];
  for (const check of report.checks) {
    lines.push(`  ${check.level.padEnd(4)}  ${check.name}: ${check.message}`);
    if (check.hint && check.level !== 'ok') lines.push(`        hint: ${check.hint}`);
  }
  const failed = report.checks.filter((check) => check.level === 'fail').length;
  lines.push(failed === 0 ? 'No problems found.' : `${failed} problem${failed === 1 ? '' : 's'} found.`);
  return `${lines.join('\n')}\n`;
}

async function connection(values: { 'api-key'?: string | undefined; 'base-url'?: string | undefined }, context: Context) {
  try {
    const { baseUrl, apiKey } = await resolveConnection(values, context.env);
    const source = values['api-key'] ? '--api-key' : context.env['WFA_API_KEY']?.trim() ? 'WFA_API_KEY' : 'saved by wfa login';
    return { baseUrl, apiKey: apiKey as string | undefined, source, problem: undefined };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const baseUrl = (values['base-url'] ?? context.env['WFA_BASE_URL'])?.trim() || (await readStoredLogin(context.env))?.baseUrl;
    return { baseUrl, apiKey: undefined, source: 'none', problem: error.message };
  }
}

export const doctor: Command = {
  name: 'doctor',
  summary: 'Check the service: reachable, prefix, key, list envelope, latency, clock',
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(
      args,
      { ...CONNECTION_OPTIONS, json: { type: 'boolean' }, 'api-prefix': { type: 'string' } },
      USAGE,
    );
    if (values.help) return showHelp(context, HELP);
    expectPositionals(positionals, [], USAGE);
    const found = await connection(values, context);
    if (!found.baseUrl) throw new ConfigError(found.problem ?? 'No base URL: pass --base-url <url> or set WFA_BASE_URL.');
    const baseUrl = found.baseUrl;
    const { Client } = await import('../index.js');
    const prefixes = values['api-prefix'] !== undefined ? [values['api-prefix']] : KNOWN_PREFIXES;
    const probes: Probe[] = [];
    const clientFor = (apiKey: string, prefix: string) => new Client({ baseUrl, apiKey, apiPrefix: prefix, ...REQUEST_OPTIONS });
    for (const prefix of prefixes) probes.push(await probe(clientFor(found.apiKey ?? NO_KEY, prefix), prefix, context.signal));

    const checks: Check[] = [];
    const report: Record<string, unknown> = { baseUrl };
    const answered = probes.filter((p) => p.status !== undefined);
    const answering = answered.filter((p) => p.status !== 404);
    const chosen = answering[0];
    report['reachable'] = answered.length > 0;
    report['prefixes'] = probes.map(({ prefix, status, error }) => ({ prefix, status: status ?? null, error: error ?? null }));
    report['prefix'] = chosen?.prefix ?? null;
    if (answered.length === 0) {
      checks.push({
        name: 'reachable',
        level: 'fail',
        message: `no answer (${probes[0]?.error ?? 'unknown error'})`,
        hint: 'Check the URL, that the service runs, and your network or proxy (HTTPS_PROXY).',
      });
    } else {
      const fastest = Math.min(...answered.map((p) => p.elapsedMs ?? Number.POSITIVE_INFINITY));
      report['latencyMs'] = fastest;
      checks.push({ name: 'reachable', level: 'ok', message: `answered in ${fastest} ms` });
      if (!chosen) {
        checks.push({
          name: 'path prefix',
          level: 'fail',
          message: `none answers: ${prefixes.join(' and ')} gave 404`,
          hint: 'The service may be under another path (a gateway): find it and pass --api-prefix <path> (apiPrefix in the SDK).',
        });
      } else {
        const others = answering.slice(1).map((p) => p.prefix);
        checks.push({
          name: 'path prefix',
          level: 'ok',
          message: `${chosen.prefix} answers${others.length ? ` (${others.join(', ')} too)` : ''}`,
        });
        const key = keyCheck(chosen, found.apiKey !== undefined, found.source);
        if (found.problem && key.level === 'fail') key.hint = found.problem;
        checks.push(key);
        report['keyAccepted'] = key.level === 'ok';
        if (key.level === 'ok' && found.apiKey) {
          const result = await envelopeChecks(clientFor(found.apiKey, chosen.prefix), chosen.body, context.signal);
          checks.push(...result.checks);
          report['envelope'] = result.envelope;
        }
        const clock = clockCheck(chosen);
        report['clockSkewMs'] = clock.skewMs;
        checks.push(clock.check);
      }
    }
    report['checks'] = checks;
    report['ok'] = checks.every((check) => check.level !== 'fail');
    // The service's own words (field names, statuses) may echo the key, in any form.
    const shown = redact(report, usableSecrets([found.apiKey]));
    if (values.json) printJson(context.stdout, shown);
    else context.stdout.write(render(shown as { baseUrl: string; checks: Check[] }));
    return report['ok'] ? ExitCode.Ok : ExitCode.RequestFailed;
  },
};
