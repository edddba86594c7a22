/**
 * The key `wfa login` saves: `$XDG_CONFIG_HOME/wfa/config.json` (else `~/.config/wfa/config.json`), readable
 * only by its owner (0600, folder 0700), written to a temporary file and renamed so it is never half written.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { Context } from './context.js';
import { ConfigError } from './errors.js';

/** What `wfa login` saves. Never a password. */
export interface StoredLogin {
  /** The service the key was issued by: the key is only ever sent there. */
  baseUrl: string;
  apiKey: string;
  email?: string | undefined;
  /** The path prefix the service was found under at login (or given then): later commands skip the detection. */
  apiPrefix?: string | undefined;
}

/** The config file's path, from the environment only (a test's environment decides, not the developer's home). */
export function configFile(env: Context['env']): string | undefined {
  const xdg = env['XDG_CONFIG_HOME']?.trim();
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  if (xdg && isAbsolute(xdg)) return join(xdg, 'wfa', 'config.json');
  const home = (env['HOME'] ?? env['USERPROFILE'])?.trim();
  return home ? join(home, '.config', 'wfa', 'config.json') : undefined;
}

/** Two base URLs name the same service when they differ only by trailing slashes or a version prefix. */
export function sameService(a: string, b: string): boolean {
  const normal = (url: string) => {
    if (!URL.canParse(url)) return url.trim();
    const parsed = new URL(url.trim());
    return parsed.origin + parsed.pathname.replace(/\/+$/, '').replace(/(?:\/api)?\/v1$/, '');
  };
  return normal(a) === normal(b);
}

/** The saved login, or `undefined` when there is none. A file that cannot be read is a `ConfigError`, its content never quoted. */
export async function readStoredLogin(env: Context['env']): Promise<StoredLogin | undefined> {
  const path = configFile(env);
  if (!path) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { baseUrl, apiKey, email, apiPrefix } = record;
  if (typeof baseUrl !== 'string' || typeof apiKey !== 'string' || !baseUrl || !apiKey) {
    throw new ConfigError(`${path} is not a login saved by wfa: run \`wfa login\` again, or \`wfa logout\` to remove it`);
  }
  return {
    baseUrl,
    apiKey,
    email: typeof email === 'string' ? email : undefined,
    apiPrefix: typeof apiPrefix === 'string' ? apiPrefix : undefined,
  };
}

/** Saves a login atomically, readable only by its owner; returns the file's path. */
export async function saveLogin(env: Context['env'], login: StoredLogin): Promise<string> {
  const path = configFile(env);
  if (!path) throw new ConfigError('Nowhere to save the key: set HOME or XDG_CONFIG_HOME');
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to a folder it creates; wfa's own folder is tightened if it already existed.
  await chmod(folder, 0o700);
  const temporary = join(folder, `.config.json.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temporary, 'wx', 0o600);
  try {
    // The umask cannot widen 0600, but a filesystem that ignores open's mode is told again.
    await file.chmod(0o600);
    await file.writeFile(`${JSON.stringify(login, null, 2)}\n`, 'utf8');
    await file.sync();
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return path;
}

/** Removes the saved login; resolves to the path removed, or `undefined` when there was none. */
export async function removeLogin(env: Context['env']): Promise<string | undefined> {
  const path = configFile(env);
  if (!path) return undefined;
  const existed = await readFile(path).then(
    () => true,
    () => false,
  );
  await rm(path, { force: true });
  return existed ? path : undefined;
}
