/**
 * Which transport a client sends through: `node:http` on Node when no `fetch` is given, `fetch` everywhere
 * else. The Node transport is imported on its first request, so browser bundles never load it.
 */
import type { ClientOptions } from './options.js';
import { fetchTransport, type Transport } from './transport.js';

/** A transport, and its name for logs and the runtime matrix. */
export interface ChosenTransport {
  readonly name: 'node:http' | 'fetch';
  readonly send: Transport;
}

/** Node itself: Bun and Deno also report a Node version, and Cloudflare Workers may too. */
export function onNode(): boolean {
  const { process, navigator } = globalThis as { process?: typeof globalThis.process; navigator?: { userAgent?: string } };
  return (
    typeof process?.versions?.node === 'string' &&
    process.versions['bun'] === undefined &&
    !('Deno' in globalThis) &&
    navigator?.userAgent !== 'Cloudflare-Workers' &&
    typeof process.getBuiltinModule === 'function'
  );
}

/** The client's transport, from its `fetch` and `agent` options (checked with the client's other options). */
export function chooseTransport(options: Pick<ClientOptions, 'fetch' | 'agent'>): ChosenTransport {
  const { fetch, agent } = options;
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
