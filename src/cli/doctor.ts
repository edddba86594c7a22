/**
 * `wfa doctor`: checks a deployment against what the SDK expects (reachable, path prefix, key, list envelope,
 * unknown fields and statuses, latency, clock skew) through the public client only; see docs/design.md.
 */
import type { Client } from '../index.js';
import { ApiError, AbortError } from '../core/errors.js';
import { redact, usableSecrets } from '../core/redact.js';
import { expectPositionals, parseCommand } from './args.js';
import { showHelp, type Command } from './command.js';
import { apiPrefixOption, CONNECTION_HELP, CONNECTION_OPTIONS, type ConnectionValues, newClient, resolveConnection } from './config.js';
import { printJson, type Context } from './context.js';
import { ConfigError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { printable } from './printable.js';
import { readStoredLogin } from './stored-login.js';
import { clockCheck, envelopeChecks, keyCheck, type Check, type Probe } from './doctor-checks.js';

const KNOWN_PREFIXES = ['/api/v1', '/v1'];
/** Sent when no key is set, so the prefix and reachability can still be checked; a 401 is then expected. */
const NO_KEY = 'wfa-doctor-no-key';
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

const USAGE = 'wfa doctor [--json] [--api-prefix <path>] [--base-url <url>] [--api-key <key>]';

const HELP = `Usage: ${USAGE}

Checks the service at the base URL against what the SDK expects, and says what to fix:
  - whether it is reachable, and the round-trip time
  - which path prefix responds (/api/v1 or /v1; only the one --api-prefix or WFA_API_PREFIX names, such as a
    gateway's /wfa/v1, when set)
  - whether the API key is accepted
  - which list envelope it uses, whether the SDK reads it, and fields or statuses the SDK does not know
  - the server's clock skew, from its Date header
Exits 0 when nothing is wrong (warnings included), 1 without a base URL, 2 when a check failed.

Options:
  --json               print the report as JSON

${CONNECTION_HELP}`;

function render(report: { baseUrl: string; checks: Check[] }): string {
  const lines = [`wfa doctor: ${report.baseUrl}`];
  for (const check of report.checks) {
    lines.push(`  ${check.level.padEnd(4)}  ${check.name}: ${check.message}`);
    if (check.hint && check.level !== 'ok') lines.push(`        hint: ${check.hint}`);
  }
  const failed = report.checks.filter((check) => check.level === 'fail').length;
  lines.push(failed === 0 ? 'No problems found.' : `${failed} problem${failed === 1 ? '' : 's'} found.`);
  return `${lines.map(printable).join('\n')}\n`;
}

async function connection(values: ConnectionValues, context: Context) {
  try {
    const { baseUrl, apiKey, apiPrefix } = await resolveConnection(values, context.env);
    const source = values['api-key'] ? '--api-key' : context.env['WFA_API_KEY']?.trim() ? 'WFA_API_KEY' : 'saved by wfa login';
    return { baseUrl, apiKey: apiKey as string | undefined, apiPrefix, source, problem: undefined };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const baseUrl = (values['base-url'] ?? context.env['WFA_BASE_URL'])?.trim() || (await readStoredLogin(context.env))?.baseUrl;
    const apiPrefix = apiPrefixOption(values, context.env);
    return { baseUrl, apiKey: undefined, apiPrefix, source: 'none', problem: error.message };
  }
}

export const doctor: Command = {
  name: 'doctor',
  summary: 'Check the service: reachable, prefix, key, list envelope, latency, clock',
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(args, { ...CONNECTION_OPTIONS, json: { type: 'boolean' } }, USAGE);
    if (values.help) return showHelp(context, HELP);
    expectPositionals(positionals, [], USAGE);
    const found = await connection(values, context);
    if (!found.baseUrl) throw new ConfigError(found.problem ?? 'No base URL: pass --base-url <url> or set WFA_BASE_URL.');
    const baseUrl = found.baseUrl;
    const prefixes = found.apiPrefix !== undefined && found.apiPrefix !== 'auto' ? [found.apiPrefix] : KNOWN_PREFIXES;
    const probes: Probe[] = [];
    const clientFor = (apiKey: string, prefix: string) => newClient({ baseUrl, apiKey, apiPrefix: prefix, ...REQUEST_OPTIONS });
    for (const prefix of prefixes) probes.push(await probe(await clientFor(found.apiKey ?? NO_KEY, prefix), prefix, context.signal));

    const checks: Check[] = [];
    const report: Record<string, unknown> = { baseUrl };
    const responded = probes.filter((p) => p.status !== undefined);
    const served = responded.filter((p) => p.status !== 404);
    const chosen = served[0];
    report['reachable'] = responded.length > 0;
    report['prefixes'] = probes.map(({ prefix, status, error }) => ({ prefix, status: status ?? null, error: error ?? null }));
    report['prefix'] = chosen?.prefix ?? null;
    if (responded.length === 0) {
      checks.push({
        name: 'reachable',
        level: 'fail',
        message: `no response (${probes[0]?.error ?? 'unknown error'})`,
        hint: 'Check the URL, that the service runs, and your network or proxy (HTTPS_PROXY).',
      });
    } else {
      const fastest = Math.min(...responded.map((p) => p.elapsedMs ?? Number.POSITIVE_INFINITY));
      report['latencyMs'] = fastest;
      checks.push({ name: 'reachable', level: 'ok', message: `responded in ${fastest} ms` });
      if (!chosen) {
        checks.push({
          name: 'path prefix',
          level: 'fail',
          message: `none responds: ${prefixes.join(' and ')} gave 404`,
          hint: 'The service may be under another path (a gateway): find it and pass --api-prefix <path> (apiPrefix in the SDK).',
        });
      } else {
        const others = served.slice(1).map((p) => p.prefix);
        checks.push({
          name: 'path prefix',
          level: 'ok',
          message: `${chosen.prefix} responds${others.length ? ` (${others.join(', ')} too)` : ''}`,
        });
        const key = keyCheck(chosen, found.apiKey !== undefined, found.source);
        if (found.problem && key.level === 'fail') key.hint = found.problem;
        checks.push(key);
        report['keyAccepted'] = key.level === 'ok';
        if (key.level === 'ok' && found.apiKey) {
          const result = await envelopeChecks(await clientFor(found.apiKey, chosen.prefix), chosen.body, context.signal);
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
