/**
 * The client's core: every call of every resource comes here, and runs as one `Call` (`call.ts`), or a
 * `HookedCall` when the client has hooks. It knows no endpoint paths: those are the routes' (`src/service/prefix.ts`).
 */
import { Call } from './call.js';
import { HookedCall } from './hooked-call.js';
import type { LevelLogger } from './logger.js';
import { type RateGate, rateGateOf } from './rate-gate.js';
import { redact, redactAndCut } from './redact.js';
import type { CallHost, CoreRequest, CoreResponse, Routes } from './request.js';
import type { ClientSettings } from './settings.js';

export type { CoreRequest, CoreResponse, ResponseSpec, Route, Routes } from './request.js';

// Bounds the endpoints remembered as reported deprecated.
const MAX_DEPRECATED = 100;
// How much of each deprecation header a warning quotes.
const MAX_QUOTED = 200;

export class HttpCore implements CallHost {
  /** Endpoints already reported as deprecated: once each, and a bounded set. */
  readonly #deprecated = new Set<string>();
  /** The last key resolved: removed from a failing key function's error. */
  lastKey: string | undefined;

  /**
   * `gate`: the client's rate gate, given so that clients derived from one (their own options, one budget) can
   * share it; `undefined` with `rateLimit: false`.
   */
  constructor(
    readonly settings: ClientSettings,
    readonly routes: Routes,
    readonly log: LevelLogger,
    readonly gate: RateGate | undefined = rateGateOf(settings),
  ) {
    log.log('debug', `sending through the ${settings.transportName} transport`);
  }

  /** Rejects only with the SDK's errors. With `raw`, a success's body is left unread for the caller, and `data` is `undefined`. */
  request<T = unknown>(req: CoreRequest<T>, raw = false): Promise<CoreResponse<T>> {
    return this.#call(req, raw).run();
  }

  /**
   * `request`, with what removes this call's secrets (the key it sent, a per-call key header too) from a value:
   * for errors built outside the core that quote its data (a build wait's), so they hide what its own would.
   */
  async requestRedacting<T>(req: CoreRequest<T>): Promise<CoreResponse<T> & { redact: <V>(value: V) => V }> {
    const call = this.#call(req, false);
    const response = await call.run();
    return { ...response, redact: (value) => redact(value, call.secrets) };
  }

  #call<T>(req: CoreRequest<T>, raw: boolean): Call<T> {
    // A client without hooks runs the plain call: no hook branch on its way.
    return this.settings.hooks ? new HookedCall(this, req, raw) : new Call(this, req, raw);
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
}
