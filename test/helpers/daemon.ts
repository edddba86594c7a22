/** A Debian daemon (tinyproxy, redis-server) on a free 127.0.0.1 port, started by the test that needs it. */
import { spawn } from 'node:child_process';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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

/** A running daemon: `stop()` ends it and waits; `signal()` sends it one (SIGSTOP stalls it, SIGCONT resumes it). */
export interface Daemon {
  stop(): Promise<void>;
  signal(signal: NodeJS.Signals): void;
}

/** Resolves once `port` accepts connections (at most 100 tries, 50 ms apart). */
export async function startDaemon(command: string, args: string[], port: number): Promise<Daemon> {
  const child = spawn(command, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failed: Error | undefined;
  child.once('error', (error) => (failed = error));
  for (let attempt = 0; !(await accepts(port)); attempt++) {
    if (failed || child.exitCode !== null || attempt >= 100) {
      child.kill();
      throw new Error(`${command} did not start on port ${port}: ${failed?.message ?? `exit code ${child.exitCode}`}`);
    }
    await sleep(50);
  }
  return {
    async stop() {
      if (child.exitCode === null) {
        // A stalled daemon would not act on SIGTERM until resumed.
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
    },
    signal(signal) {
      if (child.exitCode === null) child.kill(signal);
    },
  };
}
