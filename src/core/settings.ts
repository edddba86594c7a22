/**
 * The one check of a client's options and of a call's (their types, documented, are `options.ts`): each a zod
 * schema, parsed once where the options come in, into a normalised object the core trusts. The same bad value is
 * the same `ValidationError`, naming the same field, at both levels.
 */
import * as z from 'zod/mini';
import { statedProtocol } from './agent-protocol.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './body.js';
import { ValidationError } from './errors.js';
import { chooseTransport } from './choose-transport.js';
import type { Hooks } from './hooks.js';
import { clientLogger } from './logger.js';
import {
  readEnv,
  type ApiKeySource,
  type ClientOptions,
  type LogLevel,
  type NodeAgent,
  type RateLimitOptions,
  type RequestOptions,
} from './options.js';
import type { RateStore } from './rate-store.js';
import { MAX_RETRIES, MAX_RETRY_AFTER_MS, type RetryOptions } from './retry.js';
import { isPlainObject, ownFields } from './readable.js';
import { checked, checkInput, safeParse, toIssues } from './schema.js';
import { TOKEN, TRANSPORT_HEADERS } from './transport.js';
import { isHttpUrl } from './url.js';
import { userAgent } from './user-agent.js';

const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];
// What a Fetch `ByteString` header value may hold.
const HEADER_VALUE = /^[\t -~\x80-\xff]*$/;

// The rules the client's, a call's and a download's options share (download-options.ts), each message written once.
export const func = <T>() => checked<T>('a function', (value) => typeof value === 'function');
export const milliseconds = () => checked<number>('a number of milliseconds > 0', (v) => Number.isFinite(v) && (v as number) > 0);
/** One request per longest `Retry-After` wait: slower, a pace's timer would outlast any wait the client takes. */
const MIN_REQUESTS_PER_SECOND = 1000 / MAX_RETRY_AFTER_MS;
const delay = () => checked<number>('a number of milliseconds >= 0', (v) => Number.isFinite(v) && (v as number) >= 0);
export const retries = () =>
  checked<number>(
    `a whole number from 0 to ${MAX_RETRIES}`,
    (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_RETRIES,
  );
const token = () => checked<string>('a token without spaces, slashes or parentheses', (v) => typeof v === 'string' && TOKEN.test(v));

const isSignal = (value: unknown): boolean => {
  const signal = value as AbortSignal | null;
  return typeof signal === 'object' && typeof signal?.aborted === 'boolean' && typeof signal.addEventListener === 'function';
};

export const abortSignal = () => checked<AbortSignal>('an AbortSignal', isSignal);

const headers = () =>
  z.custom<Record<string, string>>(isPlainObject, { error: 'must be a plain object of header names to strings' }).check(
    z.superRefine((value, context) => {
      for (const [name, text] of Object.entries(value)) {
        const message = !TOKEN.test(name)
          ? 'is not a valid header name'
          : TRANSPORT_HEADERS.has(name.toLowerCase())
            ? 'is set by the transport (framing, the connection, the host); a caller may not set it'
            : typeof text !== 'string' || !HEADER_VALUE.test(text)
              ? 'must be a string without line breaks or characters past U+00FF'
              : undefined;
        if (message) context.addIssue({ code: 'custom', path: [name], message, input: undefined });
      }
    }),
  );

// Header names are case-insensitive: lower case, so that a later name replaces an earlier one in any case.
const lowerCaseNames = (given: Record<string, string> | undefined) =>
  given && Object.fromEntries(Object.entries(given).map(([name, text]) => [name.toLowerCase(), text]));

/** Built on first use, so that an app importing only the errors carries no schema. */
let schemas: ReturnType<typeof buildSchemas> | undefined;

function buildSchemas() {
  // The options a call and a client share, with the same rules. Each shape `satisfies` its documented type's
  // keys, so that a field added there cannot be dropped here unseen (an object schema strips unknown keys).
  const shared = {
    timeoutMs: z.optional(milliseconds()),
    maxRetries: z.optional(retries()),
    deadlineMs: z.optional(milliseconds()),
    headers: z.optional(headers()),
  };

  const requestOptions = z.object({ ...shared, signal: z.optional(abortSignal()) } satisfies Record<keyof RequestOptions, unknown>);

  const hook = () => z.optional(func<() => void>());
  const retryOptions = z.strictObject({
    statuses: z.optional(
      checked<readonly number[]>(
        'an array of statuses from 400 to 599',
        (v) => Array.isArray(v) && v.every((s) => Number.isInteger(s) && s >= 400 && s < 600),
      ),
    ),
    baseDelayMs: z.optional(delay()),
    maxDelayMs: z.optional(delay()),
    maxRetryAfterMs: z.optional(delay()),
    shouldRetry: z.optional(func<RetryOptions['shouldRetry']>()),
  } satisfies Record<keyof RetryOptions, unknown>);

  const rateLimitObject = z.strictObject({
    requestsPerSecond: z.optional(
      checked<number>(
        'a number of requests a second, at least one a minute (1/60)',
        (v) => Number.isFinite(v) && (v as number) >= MIN_REQUESTS_PER_SECOND,
      ),
    ),
    maxConcurrent: z.optional(checked<number>('a whole number > 0', (v) => Number.isSafeInteger(v) && (v as number) > 0)),
    store: z.optional(
      checked<RateStore>('a RateStore (book, read, close and setPace functions)', (v) =>
        ['book', 'read', 'close', 'setPace'].every((name) => typeof (v as Record<string, unknown> | null)?.[name] === 'function'),
      ),
    ),
    key: z.optional(checked<string>('a non-empty string', (v) => typeof v === 'string' && v.length > 0)),
  } satisfies Record<keyof RateLimitOptions, unknown>);
  // `false`, or the object checked field by field, so that an issue names its field (a union would not).
  const rateLimit = z
    .custom<RateLimitOptions | false>((v) => v === false || (typeof v === 'object' && v !== null && !Array.isArray(v)), {
      error: 'must be false or an object',
    })
    .check(
      z.superRefine((value, context) => {
        const result = value === false ? undefined : safeParse(rateLimitObject, value);
        if (result && !result.success) {
          for (const { path, message } of toIssues(result.error))
            context.addIssue({ code: 'custom', path: [...path], message, input: undefined });
        }
      }),
    );

  const clientOptions = z
    .object({
      ...shared,
      apiKey: z.optional(checked<ApiKeySource>('a string or a function', (v) => typeof v === 'string' || typeof v === 'function')),
      baseUrl: z.optional(z.string()),
      apiPrefix: z.optional(z.string()),
      authPath: z.optional(z.string()),
      retry: z.optional(retryOptions),
      rateLimit: z.optional(rateLimit),
      hooks: z.optional(
        z.strictObject({
          beforeRequest: hook(),
          afterResponse: hook(),
          beforeRetry: hook(),
          onSuccess: hook(),
          onError: hook(),
          onWait: hook(),
          onRateLimit: hook(),
        } satisfies Record<keyof Hooks, unknown>),
      ),
      fetch: z.optional(func<ClientOptions['fetch']>()),
      agent: z.optional(
        checked<NodeAgent>('an http.Agent or https.Agent', (v) => typeof (v as { addRequest?: unknown } | null)?.addRequest === 'function'),
      ),
      maxResponseBytes: z.optional(checked<number>('a whole number of bytes > 0', (v) => Number.isSafeInteger(v) && (v as number) > 0)),
      validateResponses: z.optional(checked<boolean>('true or false', (v) => typeof v === 'boolean')),
      logger: z.optional(
        checked<ClientOptions['logger']>('an object with error, warn, info and debug', (v) => typeof v === 'object' && v !== null),
      ),
      logLevel: z.optional(checked<LogLevel>(`one of ${LOG_LEVELS.join(', ')}`, (v) => LOG_LEVELS.includes(v as LogLevel))),
      appInfo: z.optional(z.strictObject({ name: token(), version: token() })),
    } satisfies Record<keyof ClientOptions, unknown>)
    .check(
      z.refine((options) => !(options.agent && options.fetch), {
        error: 'is for the node:http transport, which a fetch option replaces: give the agent to that fetch instead',
        path: ['agent'],
      }),
    );
  return { requestOptions, clientOptions, requestOptionNames: Object.keys(requestOptions.shape) as (keyof RequestOptions)[] };
}

/** A call's options, checked; header names in lower case. */
export type CallOptions = RequestOptions;

/**
 * Checks a call's options (`signal`, `timeoutMs`, `maxRetries`, `deadlineMs`, `headers`) and returns them
 * normalised; other fields are ignored. Throws a `ValidationError` naming the field, before anything is sent.
 */
export function checkRequestOptions(options: RequestOptions, what = 'request options', secrets: readonly unknown[] = []): CallOptions {
  schemas ??= buildSchemas();
  const given = ownFields(options, what, ['headers']);
  // Most calls pass no option: nothing to parse.
  if (schemas.requestOptionNames.every((name) => given[name] === undefined)) return {};
  const checked = checkInput(schemas.requestOptions, given, what, secrets);
  return { ...checked, headers: lowerCaseNames(checked.headers) };
}

/**
 * Node refuses, on every request, an agent of the other protocol than the URL's: refused here instead, once. Only
 * an agent that states its protocol as data (Node's own agents) is held to it: a proxy agent's follows the request.
 */
function checkAgentProtocol(agent: NodeAgent | undefined, baseUrl: string | undefined): void {
  const stated = statedProtocol(agent);
  const url = baseUrl?.trim() ?? '';
  if (stated === undefined || !isHttpUrl(url)) return;
  const wanted = new URL(url).protocol;
  if (stated === wanted) return;
  const module = (protocol: string) => protocol.slice(0, -1);
  const message = `is an ${module(stated)}.Agent and baseUrl is ${module(wanted)}: give an ${module(wanted)}.Agent, or none`;
  throw new ValidationError('client options', [{ path: ['agent'], message, code: 'invalid_value' }]);
}

/** A client's options, checked once when it is made, with the defaults filled in. */
export type ClientSettings = Readonly<ReturnType<typeof clientSettings>>;

export function clientSettings(given: ClientOptions) {
  schemas ??= buildSchemas();
  const options = ownFields(given, 'client options', ['headers', 'rateLimit']);
  const checked = checkInput(schemas.clientOptions, options, 'client options', [options.apiKey]);
  const agent = userAgent(checked.appInfo);
  const hooks = Object.fromEntries(Object.entries(checked.hooks ?? {}).filter(([, hook]) => hook !== undefined)) as Hooks;
  const transport = chooseTransport(checked);
  const baseUrl = checked.baseUrl ?? readEnv('WFA_BASE_URL');
  checkAgentProtocol(checked.agent, baseUrl);
  const apiKey = checked.apiKey ?? readEnv('WFA_API_KEY');
  return {
    baseUrl,
    apiPrefix: checked.apiPrefix,
    authPath: checked.authPath,
    apiKey,
    keyFromEnv: checked.apiKey === undefined,
    log: clientLogger(checked.logger, checked.logLevel),
    transport: transport.send,
    /** Which transport that is, for the debug log and the runtime matrix. */
    transportName: transport.name,
    fetch: checked.fetch,
    /** Lower-case names; `user-agent` included where the runtime sends ours. */
    headers: { ...(agent && { 'user-agent': agent }), ...lowerCaseNames(checked.headers) },
    timeoutMs: checked.timeoutMs ?? 60_000,
    maxRetries: checked.maxRetries ?? 2,
    deadlineMs: checked.deadlineMs,
    retry: checked.retry && { ...checked.retry, statuses: checked.retry.statuses && [...checked.retry.statuses] },
    /** `false`: no gate. */
    rateLimit: rateLimitOf(checked.rateLimit, apiKey),
    /** `undefined` when no hook is set, so that a call without hooks checks one field. */
    hooks: Object.keys(hooks).length ? hooks : undefined,
    validateResponses: checked.validateResponses ?? true,
    maxResponseBytes: checked.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
}

/** A shared store's budget is named by `key`, or by a hash of a key known now: a key function's is not. */
function rateLimitOf(given: RateLimitOptions | false | undefined, apiKey: ApiKeySource | undefined): RateLimitOptions | false {
  if (given === false) return false;
  if (given?.store && given.key === undefined && typeof apiKey !== 'string') {
    const message = 'is required with a store when apiKey is a function or absent: it names the shared budget';
    throw new ValidationError('client options', [{ path: ['rateLimit', 'key'], message, code: 'custom' }]);
  }
  return { ...given };
}
