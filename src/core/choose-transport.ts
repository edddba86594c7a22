/**
 * Which transport a client sends through: `node:http` on Node when no `fetch` is given, `fetch` everywhere
 * else. The Node transport is imported on its first request, and only Node gets it (node-parts.ts).
 */
import { loadNodeTransport } from './node-parts.js';
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
  // Only Node gets the Node transport (node-parts.ts): elsewhere an `agent` means nothing.
  if (fetch || (!agent && !onNode()) || !loadNodeTransport) return { name: 'fetch', send: fetchTransport(options.fetch) };
  const load = loadNodeTransport;
  let loaded: Transport | undefined;
  let loading: Promise<Transport> | undefined;
  const send: Transport = (request) => {
    if (loaded) return loaded(request);
    loading ??= load().then((module) => {
      loaded = module.nodeTransport({ agent: options.agent as never });
      return loaded;
    });
    return loading.then((transport) => transport(request));
  };
  return { name: 'node:http', send };
}
