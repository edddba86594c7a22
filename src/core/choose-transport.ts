/**
 * Which transport a client sends through: `node:http` on Node when no `fetch` is given, `fetch` everywhere
 * else. The Node transport is imported on its first request, so browser bundles never load it.
 */
import * as z from 'zod/mini';
import type { ClientOptions } from './options.js';
import { checkInput, checked, optional, type Schema } from './schema.js';
import { fetchTransport, type Transport } from './transport.js';

/** A transport, and its name for logs and the runtime matrix. */
export interface ChosenTransport {
  readonly name: 'node:http' | 'fetch';
  readonly send: Transport;
}

// Built on first use: a schema made when the module loads would keep zod in bundles that import only errors.
let optionsSchema: Schema<Pick<ClientOptions, 'fetch' | 'agent'>> | undefined;
const transportOptionsSchema = () =>
  (optionsSchema ??= z
    .object({
      fetch: optional(checked('a function', (value) => typeof value === 'function')),
      agent: optional(
        checked('an http.Agent or https.Agent', (value) => typeof (value as { addRequest?: unknown } | null)?.addRequest === 'function'),
      ),
    })
    .check(
      z.refine((options) => !(options.agent && options.fetch), {
        error: 'is for the node:http transport, which a fetch option replaces: give the agent to that fetch instead',
        path: ['agent'],
      }),
    ) as Schema<Pick<ClientOptions, 'fetch' | 'agent'>>);

/** Node itself: Bun and Deno also report a Node version, and Cloudflare Workers may too. */
function onNode(): boolean {
  const { process, navigator } = globalThis as { process?: typeof globalThis.process; navigator?: { userAgent?: string } };
  return (
    typeof process?.versions?.node === 'string' &&
    process.versions['bun'] === undefined &&
    !('Deno' in globalThis) &&
    navigator?.userAgent !== 'Cloudflare-Workers' &&
    typeof process.getBuiltinModule === 'function'
  );
}

/** The client's transport, from its `fetch` and `agent` options. */
export function chooseTransport(options: Pick<ClientOptions, 'fetch' | 'agent'>): ChosenTransport {
  const { fetch, agent } = checkInput(transportOptionsSchema(), { fetch: options.fetch, agent: options.agent }, 'options of Client');
  if (fetch || (!agent && !onNode())) return { name: 'fetch', send: fetchTransport(options.fetch) };
  let loaded: Transport | undefined;
  let loading: Promise<Transport> | undefined;
  const send: Transport = (request) => {
    if (loaded) return loaded(request);
    loading ??= import('./node-transport.js').then((module) => {
      loaded = module.nodeTransport({ agent: options.agent as never });
      return loaded;
    });
    return loading.then((transport) => transport(request));
  };
  return { name: 'node:http', send };
}
