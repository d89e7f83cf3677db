import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/demo/free-port.js';
import { waitFor } from './intake.js';

/**
 * A redis-server of the test's own on a free loopback port, for settings (CONFIG SET) no other
 * test may see on the shared Redis. `stop` ends it and removes its directory.
 */
export async function startPrivateRedisServer(args: string[] = []): Promise<{
  url: string;
  /** A connection for the test itself (CONFIG SET, reads). */
  redis: Redis;
  stop(): Promise<void>;
}> {
  const port = await freePort('127.0.0.1');
  const dir = mkdtempSync(join(tmpdir(), 'private-redis-'));
  const server: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...args],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  // Retries every 20 ms until the server listens.
  const redis = new Redis(url, { retryStrategy: () => 20, lazyConnect: false });
  redis.on('error', () => {});
  await waitFor(() => redis.status === 'ready', { what: 'the private redis-server' });
  return {
    url,
    redis,
    async stop() {
      redis.disconnect();
      server.kill('SIGTERM');
      if (server.exitCode === null) await once(server, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
