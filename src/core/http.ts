/**
 * The core: every call of every resource comes here, and goes through the `Transport` (`transport.ts`) to the
 * URL its `Routes` give. `call.ts` reads one call top to bottom. It knows no endpoint paths; where a path goes
 * is the routes' business (`src/service/prefix.ts`).
 */
import { resolveKey } from './api-key.js';
import { Call } from './call.js';
import { HookedCall } from './hooked-call.js';
import type { Hooks } from './hooks.js';
import type { LevelLogger } from './logger.js';
import { redact, redactAndCut, usableSecrets } from './redact.js';
import type { CallHost, CoreRequest, CoreResponse, Routes } from './request.js';
import type { ClientSettings } from './settings.js';

export type { CoreRequest, CoreResponse, ResponseSpec, Route, Routes } from './request.js';

// Bounds the endpoints remembered as reported deprecated.
const MAX_DEPRECATED = 100;
// How much of each deprecation header a warning quotes.
const MAX_QUOTED = 200;

export class HttpCore implements CallHost {
  readonly settings: ClientSettings;
  readonly routes: Routes;
  readonly log: LevelLogger;
  /** Endpoints already reported as deprecated: once each, and a bounded set. */
  readonly #deprecated = new Set<string>();
  /** So errors built outside the core (build waits) can be cleaned of the key. */
  #lastKey: string | undefined;

  constructor(settings: ClientSettings, routes: Routes, log: LevelLogger) {
    this.settings = settings;
    this.routes = routes;
    this.log = log;
    log.log('debug', `sending through the ${settings.transportName} transport`);
  }

  get root(): string {
    return this.routes.root;
  }

  get timeoutMs(): number {
    return this.settings.timeoutMs;
  }

  get maxRetries(): number {
    return this.settings.maxRetries;
  }

  get validateResponses(): boolean {
    return this.settings.validateResponses;
  }

  /** For build waits' `onWait`. */
  get hooks(): Hooks | undefined {
    return this.settings.hooks;
  }

  get hasApiKey(): boolean {
    return this.settings.apiKey !== undefined;
  }

  /** Rejects only with the SDK's errors. With `raw`, a success's body is left unread for the caller, and `data` is `undefined`. */
  request<T = unknown>(req: CoreRequest<T>, raw = false): Promise<CoreResponse<T>> {
    // A client without hooks runs the plain call: no hook branch on its way.
    return (this.settings.hooks ? new HookedCall(this, req, raw) : new Call(this, req, raw)).run();
  }

  /** The key of one call; a key function runs within `timeoutMs` and the signal. */
  async key(signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
    const { apiKey, keyFromEnv } = this.settings;
    const key = await resolveKey(apiKey, keyFromEnv, { signal, timeoutMs }, this.#lastKey);
    this.#lastKey = key;
    return key;
  }

  /** Once per endpoint, a warning quoting the headers: each redacted first, then cut, so no cut splits a secret. */
  noteDeprecation(endpoint: string, headers: Headers, secrets: readonly string[]): void {
    if (this.#deprecated.has(endpoint) || this.#deprecated.size >= MAX_DEPRECATED) return;
    this.#deprecated.add(endpoint);
    const said = ['deprecation', 'sunset', 'link']
      .filter((name) => headers.has(name))
      .map((name) => `${name}: ${redactAndCut(headers.get(name)!, secrets, MAX_QUOTED)}`);
    this.log.log('warn', `${endpoint} is deprecated by the service (${said.join('; ')})`, secrets);
  }

  redactSecrets<T>(value: T): T {
    return redact(value, usableSecrets([this.#lastKey]));
  }
}
