/** `createCore`: what `new Client` and the standalone functions send through, made once from the client's options. */
import { HttpCore } from '../core/http.js';
import type { ClientOptions } from '../core/options.js';
import { rateGateOf } from '../core/rate-gate.js';
import { clientSettings } from '../core/settings.js';
import { PrefixRoutes } from '../service/prefix.js';
import { Core } from './resource.js';

/** A parent's core, and the options a derived client changes (`client.withOptions`). */
export interface Parent {
  http: HttpCore;
  routes: PrefixRoutes;
  changed: ClientOptions;
}

/**
 * An HTTP core and the routes it confirms its prefix on, from a client's options (`Client` reads both). A derived
 * client shares its parent's connection pool, confirmed prefix and rate gate, unless its own options change them.
 */
export function openCore(options: ClientOptions, parent?: Parent): { http: HttpCore; routes: PrefixRoutes } {
  const own = clientSettings(options);
  const shares = (...names: (keyof ClientOptions)[]) => parent && names.every((name) => parent.changed[name] === undefined);
  const { transport, transportName } = shares('fetch', 'agent') ? parent!.http.settings : own;
  const settings = { ...own, transport, transportName };
  const routes = shares('baseUrl', 'apiPrefix', 'authPath') ? parent!.routes : new PrefixRoutes(settings);
  const gate = shares('rateLimit') ? parent!.http.gate : rateGateOf(settings);
  return { http: new HttpCore(settings, routes, settings.log, gate), routes };
}

/**
 * A core for the standalone functions of `workflow-automation-sdk/funcs`: the same options and checks as
 * `new Client(options)`.
 *
 * @throws ValidationError naming an invalid option; WfaError when `baseUrl` is missing or not http(s).
 * @example
 * ```ts
 * import { createCore, workflowsList } from 'workflow-automation-sdk/funcs';
 *
 * const core = createCore({ apiKey: process.env.WFA_API_KEY, baseUrl: 'https://automation.example.com' });
 * const page = await workflowsList(core, { limit: 10 });
 * ```
 */
export function createCore(options: ClientOptions = {}): Core {
  return new Core(openCore(options).http);
}
