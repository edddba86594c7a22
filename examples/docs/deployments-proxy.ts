import { EnvHttpProxyAgent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { Client, type ClientOptions, type FetchLike } from 'workflow-automation-sdk';

// undici's fetch takes a `dispatcher` (the proxy); its types differ from the DOM's only in name.
const proxiedFetch = undiciFetch as unknown as (
  input: Parameters<FetchLike>[0],
  init: RequestInit & { dispatcher: Dispatcher },
) => Promise<Response>;

function fetchThrough(dispatcher: Dispatcher): FetchLike {
  return (input, init) => proxiedFetch(input, { ...init, dispatcher });
}

/** Every request through one proxy, such as "http://user:password@proxy.corp.example:3128". */
export function clientBehindProxy(proxyUrl: string, options: ClientOptions = {}): Client {
  return new Client({ ...options, fetch: fetchThrough(new ProxyAgent(proxyUrl)) });
}

/** The proxy named by HTTP_PROXY / HTTPS_PROXY, except for the hosts in NO_PROXY: your opt-in, not the SDK's. */
export function clientFromProxyEnv(options: ClientOptions = {}): Client {
  return new Client({ ...options, fetch: fetchThrough(new EnvHttpProxyAgent()) });
}
