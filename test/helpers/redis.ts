/** Debian's redis-server on 127.0.0.1, started and stopped by the test that needs it (`apt-get install redis-server`). */
import { freePort, startDaemon } from './daemon.js';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  /** Stalls the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Ends a `pause()`. */
  resume(): void;
}

/** No persistence (`--save ''`, no AOF): nothing is written to disk, and nothing outlives the test. `port`: to restart one. */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const daemon = await startDaemon(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    port,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => daemon.stop(),
    pause: () => daemon.signal('SIGSTOP'),
    resume: () => daemon.signal('SIGCONT'),
  };
}
