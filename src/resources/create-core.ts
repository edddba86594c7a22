/** `createCore`: what `new Client` and the standalone functions send through, made once from the client's options. */
import { HttpCore } from '../core/http.js';
import type { ClientOptions } from '../core/options.js';
import { clientSettings } from '../core/settings.js';
import { PrefixRoutes } from '../service/prefix.js';
import { Core } from './resource.js';

/** An HTTP core and the routes it confirms its prefix on, from a client's options (`Client` reads both). */
export function openCore(options: ClientOptions): { http: HttpCore; routes: PrefixRoutes } {
  const settings = clientSettings(options);
  const routes = new PrefixRoutes(settings);
  return { http: new HttpCore(settings, routes, settings.log), routes };
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
