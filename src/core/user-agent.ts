/**
 * The `User-Agent` of server runtimes. Browsers get none: a header of ours there would force a CORS preflight.
 * The version is put in by the build (tsup `define`); run from source it reads `0.0.0-dev`.
 */
declare const __WFA_VERSION__: string | undefined;

/** The package's version, as built. */
export const SDK_VERSION: string = typeof __WFA_VERSION__ === 'string' ? __WFA_VERSION__ : '0.0.0-dev';

interface RuntimeGlobals {
  process?: { versions?: Record<string, string | undefined>; platform?: string; arch?: string };
  Deno?: { version?: { deno?: string }; build?: { os?: string; arch?: string } };
}

/** `(runtime version; os; arch)` on Node, Bun or Deno; `undefined` anywhere else. */
function runtime(): string | undefined {
  try {
    const g = globalThis as RuntimeGlobals;
    const deno = g.Deno?.version?.deno;
    if (deno) return `(deno ${deno}; ${g.Deno?.build?.os ?? 'unknown'}; ${g.Deno?.build?.arch ?? 'unknown'})`;
    const versions = g.process?.versions;
    const name = versions?.['bun'] ? 'bun' : versions?.['node'] ? 'node' : undefined;
    if (!name || 'document' in globalThis) return undefined;
    return `(${name} ${versions?.[name]}; ${g.process?.platform ?? 'unknown'}; ${g.process?.arch ?? 'unknown'})`;
  } catch {
    return undefined;
  }
}

/** The header's value, or `undefined` in a browser; `appInfo` goes first, as the product closest to the user. */
export function userAgent(appInfo: { name: string; version: string } | undefined): string | undefined {
  const where = runtime();
  if (!where) return undefined;
  const sdk = `workflow-automation-sdk/${SDK_VERSION} ${where}`;
  return appInfo ? `${appInfo.name}/${appInfo.version} ${sdk}` : sdk;
}
