/**
 * Where a call may go, checked before anything is sent: a route under the service root (which gets the key and
 * the client's headers) or another URL (which gets neither). The root is matched by whole path segments.
 */
import { ValidationError, type Issue } from './errors.js';
import type { CoreRequest, Route, Routes } from './request.js';

/** A route under the service root, or another URL. */
export type Target = { route: Route; url?: undefined } | { route?: undefined; url: string };

// What `fetch` sends everywhere: CONNECT, TRACE and TRACK are forbidden to it.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
// `.` and `..` segments, plain or percent-encoded, after `/` or `\` (which URLs read as `/`).
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i;
// A URL parser drops tab, CR and LF, which would turn `.\t.` into `..` after the dot check.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An absolute URL under the root (by whole path segments) is routed like its path; any other is foreign. */
export function targetOf(path: string, routes: Routes): Target {
  let rest = path;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    const url = new URL(path);
    if (url.username || url.password) {
      // fetch refuses such a URL, and an error quoting it would show the password.
      const message = 'must not contain user:password@; send credentials in headers';
      throw new ValidationError('request', [{ path: ['path'], message, code: 'invalid_value' }]);
    }
    url.hash = '';
    const rootPath = underRoot(url.href, routes.root);
    if (rootPath === undefined) return { url: url.href };
    rest = url.pathname.slice(rootPath.length) + url.search;
  }
  if (DOT_SEGMENT.test(rest.split(/[?#]/, 1)[0]!)) {
    // A URL parser resolves them, and the call would leave the service root with the key.
    throw new ValidationError('request', [{ path: ['path'], message: 'must not hold "." or ".." segments', code: 'invalid_value' }]);
  }
  return { route: routes.route(rest.startsWith('/') ? rest : `/${rest}`) };
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
