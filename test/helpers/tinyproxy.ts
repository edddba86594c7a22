/** Debian's tinyproxy on 127.0.0.1, started and stopped by the test that needs it (`apt-get install tinyproxy`). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDaemon } from './daemon.js';

export interface Tinyproxy {
  url: string;
  /** Everything tinyproxy logged so far. */
  log(): string;
  stop(): Promise<void>;
}

/** `basicAuth` makes the proxy answer 407 without the right `Proxy-Authorization`. */
export async function startTinyproxy(basicAuth?: { user: string; password: string }): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tinyproxy-'));
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const config = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 30',
    'LogLevel Connect',
    `LogFile "${logFile}"`,
    'Allow 127.0.0.1',
    'MaxClients 50',
    ...(basicAuth ? [`BasicAuth ${basicAuth.user} ${basicAuth.password}`] : []),
  ];
  writeFileSync(join(dir, 'tinyproxy.conf'), `${config.join('\n')}\n`);
  const daemon = await startDaemon('tinyproxy', ['-d', '-c', join(dir, 'tinyproxy.conf')], port);
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => readFileSync(logFile, 'utf8'),
    async stop() {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
