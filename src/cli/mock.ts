/**
 * `wfa mock`: the SDK's mock service on a local port, to try `wfa` and the SDK without an account. It runs
 * until Ctrl+C or SIGTERM, then closes its port and exits 130 or 143 (interrupted, as any stopped command).
 */
import type { MockRefusal, MockServer, MockServerOptions, MockService, MockServiceOptions, MockWebhookDelivery } from '../testing/index.js';
import { expectPositionals, integerOption, parseCommand } from './args.js';
import { hideQueryCredentials, hideUrl, hideUrlCredentials } from './log-url.js';
import { showHelp, type Command } from './command.js';
import type { Context, Output } from './context.js';
import { ConfigError, UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { buildMsOption, errorRateOption, failBuildsOption, rateLimitOption } from './mock-options.js';

type Testing = typeof import('../testing/index.js');

const USAGE =
  'wfa mock [--port 4010] [--host 127.0.0.1] [--build-ms 3000] [--latency <ms>] [--error-rate <0..1>] [--rate-limit 20/s] [--rate-limit-headers] [--webhook-url <url>] [--fail-builds all|<share>|<pattern>] [--quiet] [--json]';

const HELP = `Usage: ${USAGE}

Runs a mock of the Workflow Automation Service on this machine: every endpoint, in memory, with a user
demo@example.com (password "demo"). Prints its URL and an API key valid on it.
Requests and webhook attempts are logged on stderr. Stops on Ctrl+C (exit code 130) or SIGTERM (143).

Options:
  --port <n>          the port (default 4010; 0 picks a free one)
  --host <address>    the address to listen on (default 127.0.0.1)
  --build-ms <ms>     how long each build takes (default 3000), or a range to draw from: 3000-10000
  --latency <ms>      wait this long before each answer (default 0)
  --error-rate <0..1> answer this share of requests with a 500, 502 or 503 (a third each)
  --rate-limit <n/s>  requests per second per API key (20/s, 600/m), bursts up to one second's worth;
                      beyond it, 429 with Retry-After
  --rate-limit-headers  with --rate-limit, send RateLimit, RateLimit-Policy and X-RateLimit-* headers
  --webhook-url <url> POST a build.completed event here when a build completes; a failed POST is sent
                      again after 1, 2, 4 and 8 s
  --fail-builds <which>  make builds fail, to try the failure path: all, a share (0.2), or the workflows
                      whose name matches a pattern, * for any text (*nightly*)
  --quiet             do not log requests and webhook deliveries
  --json              print only {"url":…,"apiKey":…} on one line of stdout, for scripts

Example:
  wfa mock --port 4010 &
  export WFA_BASE_URL=http://127.0.0.1:4010 WFA_API_KEY=<the key it prints>
  wfa workflows list

In a script (the first line is JSON; the mock keeps running):
  wfa mock --port 0 --json --quiet > mock.json &
  until [ -s mock.json ]; do sleep 0.1; done; jq -r .url mock.json`;

// Each request on one line, so a newcomer sees what the SDK or wfa sent.
function withRequestLog(service: MockService, log: Output): MockService {
  return {
    ...service,
    async handle(request) {
      const started = performance.now();
      const response = await service.handle(request);
      const { pathname, search } = new URL(request.url);
      log.write(
        `${request.method} ${pathname}${hideQueryCredentials(search)} -> ${response.status} (${Math.round(performance.now() - started)} ms)\n`,
      );
      return response;
    },
  };
}

// What the server answers without the service (a request Node cannot parse) is a line of the log too.
function refusalLine({ method, path, status, message }: MockRefusal): string {
  return `${method === undefined ? '(unparsed request)' : `${method} ${path ?? '(unparsed target)'}`} -> ${status} (refused: ${message})\n`;
}

// Each webhook attempt on one line too: where it went, for which workflow, and what came of it. A failure's
// text may quote the URL (fetch refuses one with a password and says so), so its URLs are hidden alike.
function deliveryLine(delivery: MockWebhookDelivery): string {
  const outcome =
    delivery.status === undefined ? `failed: ${hideUrlCredentials(delivery.error ?? 'no answer', delivery.url)}` : String(delivery.status);
  const retry = delivery.retryInMs === undefined ? '' : `, retry in ${delivery.retryInMs} ms`;
  return `webhook POST ${hideUrl(delivery.url)} ${delivery.payload.event} ${delivery.payload.workflow_id} (attempt ${delivery.attempt}) -> ${outcome}${retry}\n`;
}

type Values = { [name: string]: string | boolean | undefined };

/** The command's options, read into the service's; a value that does not read is a usage error. */
function readOptions(values: Values): { port: number; host: string; options: MockServiceOptions } {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const port = integerOption(text('port'), '--port', 0) ?? 4010;
  if (port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const rateLimit = rateLimitOption(text('rate-limit'));
  if (values['rate-limit-headers'] && !rateLimit) throw new UsageError('--rate-limit-headers needs --rate-limit');
  const options: MockServiceOptions = {
    buildDurationMs: buildMsOption(text('build-ms')) ?? 3000,
    latencyMs: integerOption(text('latency'), '--latency', 0),
    errorRate: errorRateOption(text('error-rate')),
    rateLimit,
    rateLimitHeaders: values['rate-limit-headers'] === true,
    webhookUrl: webhookUrlOption(text('webhook-url')),
    failBuilds: failBuildsOption(text('fail-builds')),
  };
  return { port, host: text('host') ?? '127.0.0.1', options };
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function webhookUrlOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new UsageError(`--webhook-url must be an http(s) URL, got "${value}"`);
  }
  return value;
}

async function listen(testing: Testing, options: MockServerOptions): Promise<MockServer> {
  const { port, host } = options;
  try {
    return await testing.startMockServer(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`Port ${port} on ${host} is in use: pick another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`--host: cannot listen on ${host}: no such address on this machine`);
    throw error;
  }
}

function banner(server: MockServer, user: Testing['DEFAULT_MOCK_USER']): string {
  return `Mock Workflow Automation Service running at ${server.url}
  API key:  ${server.apiKey}
  Log in:   ${user.email} / ${user.password}

Point wfa or the SDK at it (in another terminal):
  export WFA_BASE_URL=${server.url} WFA_API_KEY=${server.apiKey}
  wfa workflows list

Press Ctrl+C to stop.
`;
}

async function serve(
  context: Context,
  testing: Testing,
  options: { port: number; host: string; service: MockService; onRefused: MockServerOptions['onRefused']; json: boolean },
): Promise<ExitCode> {
  let server: MockServer;
  try {
    server = await listen(testing, { port: options.port, host: options.host, service: options.service, onRefused: options.onRefused });
  } catch (error) {
    options.service.close();
    throw error;
  }
  try {
    context.stdout.write(
      options.json ? `${JSON.stringify({ url: server.url, apiKey: server.apiKey })}\n` : banner(server, testing.DEFAULT_MOCK_USER),
    );
    await stopped(context.signal);
  } finally {
    // The server was handed a service, so closing it leaves the service's timers to be stopped here.
    await server.close();
    options.service.close();
  }
  context.stderr.write('Mock service stopped.\n');
  // It only ever stops when asked to: interrupted, like any command stopped by a signal.
  return ExitCode.Interrupted;
}

export const mock: Command = {
  name: 'mock',
  summary: 'Run a local mock of the service (prints its URL and an API key)',
  help: HELP,
  async run(args, context) {
    const { values, positionals } = parseCommand(
      args,
      {
        port: { type: 'string' },
        host: { type: 'string' },
        'build-ms': { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-limit-headers': { type: 'boolean' },
        'webhook-url': { type: 'string' },
        'fail-builds': { type: 'string' },
        latency: { type: 'string' },
        'error-rate': { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        json: { type: 'boolean' },
      },
      USAGE,
    );
    if (values.help) return showHelp(context, HELP);
    expectPositionals(positionals, [], USAGE);
    const { port, host, options } = readOptions(values);
    const log = values.quiet ? undefined : context.stderr;
    // Loaded on use, so that `--help` and usage errors respond without loading the mock service.
    const testing = await import('../testing/index.js');
    const service = testing.createMockService({ ...options, onWebhookDelivery: log && ((delivery) => log.write(deliveryLine(delivery))) });
    return serve(context, testing, {
      port,
      host,
      service: log ? withRequestLog(service, log) : service,
      onRefused: log && ((refused) => log.write(refusalLine(refused))),
      json: values.json ?? false,
    });
  },
};
