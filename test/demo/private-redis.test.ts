import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalRedis, localRedis, NoRedisError } from '../../src/demo/private-redis.js';
import { probeRedis } from '../../src/demo/redis-probe.js';
import { REDIS_URL } from '../helpers/redis.js';

const DEAD_URL = 'redis://127.0.0.1:1';
const hasRedisServer = spawnSync('/bin/sh', ['-c', 'command -v redis-server']).status === 0;

let started: LocalRedis | undefined;
let parent: ChildProcess | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
  parent?.kill('SIGKILL');
  parent = undefined;
});

/** The server's own pid and working directory, as it reports them. */
async function serverInfo(url: string): Promise<{ pid: number; dir: string }> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const info = await redis.info('server');
    const [, dir] = (await redis.config('GET', 'dir')) as [string, string];
    return { pid: Number(/^process_id:(\d+)/m.exec(info)?.[1]), dir };
  } finally {
    redis.disconnect();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('localRedis', () => {
  it('uses the Redis at the URL when it answers, and leaves it running', async () => {
    const redis = await localRedis({ url: REDIS_URL });

    expect(redis).toMatchObject({ url: REDIS_URL, isPrivate: false });
    await redis.stop();
    expect(await probeRedis(REDIS_URL)).toBeNull();
  });

  it.skipIf(!hasRedisServer)(
    'starts a private redis-server when none answers, and stop() ends it (needs redis-server)',
    async () => {
      started = await localRedis({ url: DEAD_URL });

      expect(started.isPrivate).toBe(true);
      expect(started.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
      expect(await probeRedis(started.url)).toBeNull();
      const { pid, dir } = await serverInfo(started.url);
      expect(isRunning(pid)).toBe(true);

      await started.stop();

      expect(isRunning(pid)).toBe(false);
      expect(existsSync(dir), 'its temporary directory is removed').toBe(false);
      expect(await probeRedis(started.url, 300)).not.toBeNull();
    },
  );

  it.skipIf(!hasRedisServer)(
    'the private server ends when the process that started it is killed (needs redis-server)',
    async () => {
      const script =
        "const { localRedis } = await import('./src/demo/private-redis.ts');" +
        `const redis = await localRedis({ url: '${DEAD_URL}' });` +
        'console.log(redis.url); setInterval(() => {}, 1000);';
      const proc = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      parent = proc;
      const [line] = (await once(proc.stdout, 'data')) as [Buffer];
      const { pid } = await serverInfo(line.toString().trim());

      proc.kill('SIGKILL');

      // No exit handler runs on SIGKILL: only the closed pipe tells the server's guard.
      await until(() => !isRunning(pid), 5_000);
    },
  );

  it('says in one line how to get a Redis when none answers and redis-server is missing', async () => {
    const error = await localRedis({ url: DEAD_URL, path: '/nonexistent' }).catch((e) => e);

    expect(error).toBeInstanceOf(NoRedisError);
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(`Redis does not answer at ${DEAD_URL}`);
    expect(error.message).toContain('apt-get install redis-server');
    expect(error.message).toContain('set REDIS_URL');
  });
});
