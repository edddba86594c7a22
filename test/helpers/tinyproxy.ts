/** Debian's tinyproxy on 127.0.0.1, started and stopped by the test that needs it (`apt-get install tinyproxy`). */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Tinyproxy {
  url: string;
  /** Everything tinyproxy logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => resolve(socket.end() && true));
    socket.on('error', () => resolve(false));
  });

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
  const child = spawn('tinyproxy', ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failed: Error | undefined;
  child.once('error', (error) => (failed = error));
  for (let attempt = 0; !(await accepts(port)); attempt++) {
    if (failed || child.exitCode !== null || attempt >= 100) {
      child.kill();
      throw new Error(`tinyproxy did not start on port ${port}: ${failed?.message ?? `exit code ${child.exitCode}`}`);
    }
    await sleep(50);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => readFileSync(logFile, 'utf8'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
