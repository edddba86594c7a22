/** Debian's redis-server on 127.0.0.1, started and stopped by the test that needs it (`apt-get install redis-server`). */
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './tinyproxy.js';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => resolve(socket.end() && true));
    socket.on('error', () => resolve(false));
  });

/** No persistence (`--save ''`, no AOF): nothing is written to disk, and nothing outlives the test. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failed: Error | undefined;
  child.once('error', (error) => (failed = error));
  for (let attempt = 0; !(await accepts(port)); attempt++) {
    if (failed || child.exitCode !== null || attempt >= 100) {
      child.kill();
      throw new Error(`redis-server did not start on port ${port}: ${failed?.message ?? `exit code ${child.exitCode}`}`);
    }
    await sleep(50);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
