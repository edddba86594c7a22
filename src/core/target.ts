/**
 * Where a call may go, checked before anything is sent: a route under the service root (which gets the key and
 * the client's headers) or another URL (which gets neither). The root is matched by whole path segments.
 */
import { ValidationError, type Issue } from './errors.js';
import type { CoreRequest, Route, Routes } from './request.js';
import { climbs, hasCredentials } from './url.js';

/** A route under the service root, or another URL. */
export type Target = { route: Route; url?: undefined } | { route?: undefined; url: string };

// What `fetch` sends everywhere: CONNECT, TRACE and TRACK are forbidden to it.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
// A URL parser drops tab, CR and LF, which would turn `.\t.` into `..` after the dot check.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * An absolute URL under the root (by whole path segments) is routed like its path; any other is foreign. A
 * resource's path holds its ids encoded, one segment each; only a caller's own path (no `route`) is checked.
 */
export function targetOf({ path, route }: Pick<CoreRequest<unknown>, 'path' | 'route'>, routes: Routes): Target {
  let rest = path;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    const url = new URL(path);
    if (hasCredentials(url)) {
      throw invalidPath('must not contain user:password@; send credentials in headers');
    }
    url.hash = '';
    const rootPath = underRoot(url.href, routes.root);
    if (rootPath === undefined) return { url: url.href };
    rest = url.pathname.slice(rootPath.length) + url.search;
  } else if (path.includes('#')) {
    // The query would be appended after the fragment, which is never sent: refused rather than dropped.
    throw invalidPath('must not hold "#": a fragment is never sent, and the query would go after it');
  }
  if (route === undefined && climbs(rest.split('?', 1)[0]!)) {
    // A URL parser, or a server, resolves them, and the call would leave the service root with the key.
    throw invalidPath('must not hold "." or ".." segments, plain or percent-encoded, %2F and %5C read as "/"');
  }
  return { route: routes.route(rest.startsWith('/') ? rest : `/${rest}`) };
}

function invalidPath(message: string): ValidationError {
  return new ValidationError('request', [{ path: ['path'], message, code: 'invalid_value' }]);
}

/** The root's path when `url` is under it by whole segments (`/gw` holds `/gw/x`, not `/gw2/x`); else `undefined`. */
export function underRoot(url: string, root: string): string | undefined {
  const target = new URL(url);
  const { origin } = new URL(root);
  if (target.origin !== origin) return undefined;
  const rootPath = root.slice(origin.length);
  return target.pathname === rootPath || target.pathname.startsWith(`${rootPath}/`) ? rootPath : undefined;
}

/** Refuses, before anything is sent, a method or path a JavaScript caller got wrong. */
export function checkCall(req: CoreRequest<unknown>): void {
  const issues: Issue[] = [];
  if (typeof req.method !== 'string' || !METHODS.includes(req.method.toUpperCase())) {
    issues.push({ path: ['method'], message: `must be one of ${METHODS.join(', ')}`, code: 'invalid_value' });
  }
  if (typeof req.path !== 'string' || req.path === '') {
    issues.push({ path: ['path'], message: 'must be a non-empty string', code: 'invalid_type' });
  } else if (CONTROL.test(req.path)) {
    issues.push({ path: ['path'], message: 'must not hold control characters (tab, CR, LF, ...)', code: 'invalid_value' });
  }
  if (issues.length) throw new ValidationError('request', issues);
}
