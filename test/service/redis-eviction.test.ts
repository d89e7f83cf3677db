import { Queue, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { createRedis } from '../../src/queue/redis.js';
import {
  EvictionPolicyError,
  EvictionPolicyWatch,
  readEvictionPause,
} from '../../src/queue/redis-durability.js';
import { type RunningService, startService } from '../../src/service.js';
import { waitFor } from '../helpers/intake.js';
import { type StatusBody, startLocalApis } from '../helpers/local-service.js';
import { startPrivateRedisServer } from '../helpers/private-redis-server.js';
import { uniquePrefix } from '../helpers/redis.js';
import { capturingLogger, silentLogger } from '../store/helpers.js';

/**
 * A Redis that may evict keys loses queued orders, records and the fulfilment's write lock
 * without a trace. The workers refuse to start on one, and pause while one changes to it. Each
 * test runs its own redis-server: the policy is set with CONFIG SET, which other tests must not see.
 */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** What /status says about the workers. */
type WorkersStatus = StatusBody & {
  workers: { status: string; pausedSince: string | null; problems: string[] };
};

async function privateRedis(policy: string) {
  const server = await startPrivateRedisServer(['--maxmemory-policy', policy]);
  closers.push(() => server.stop());
  return server;
}

async function serviceEnv(redisUrl: string, extra: Record<string, string> = {}) {
  const apis = await startLocalApis({ name: 'eviction' });
  return { ...apis, env: { ...apis.env, REDIS_URL: redisUrl, ...extra } };
}

describe('workers on a Redis that may evict keys', () => {
  it('do not start under allkeys-lru, with a message naming the policy, the fix and the override', async () => {
    const redis = await privateRedis('allkeys-lru');
    const { env } = await serviceEnv(redis.url);

    const error = await startService(loadConfig(env), { logger: silentLogger }).catch((e) => e);

    expect(error).toBeInstanceOf(EvictionPolicyError);
    expect(error.message).toContain('maxmemory-policy allkeys-lru');
    expect(error.message).toContain('maxmemory-policy noeviction');
    expect(error.message).toContain('REDIS_ALLOW_EVICTION=true');
  });

  it('start under volatile-lru with REDIS_ALLOW_EVICTION=true, saying what is at risk', async () => {
    const redis = await privateRedis('volatile-lru');
    const { env } = await serviceEnv(redis.url, { REDIS_ALLOW_EVICTION: 'true' });
    const { logger, lines } = capturingLogger('info');

    const service = await startService(loadConfig(env), { logger, http: false });
    closers.push(() => service.close());

    expect(lines()).toMatch(/maxmemory-policy volatile-lru.*REDIS_ALLOW_EVICTION=true/);
  });

  it('start, with a warning saying what to check by hand, where CONFIG is refused (managed Redis)', async () => {
    const server = await startPrivateRedisServer([
      '--maxmemory-policy',
      'allkeys-lru',
      '--rename-command',
      'CONFIG',
      '',
    ]);
    closers.push(() => server.stop());
    const { env } = await serviceEnv(server.url);
    const { logger, lines } = capturingLogger('info');

    const service = await startService(loadConfig(env), { logger, http: false });
    closers.push(() => service.close());

    expect(lines()).toContain('could not read Redis maxmemory-policy (CONFIG GET refused');
  });

  it('the intake alone (--no-workers) still starts, with the warning', async () => {
    const redis = await privateRedis('allkeys-lru');
    const { env } = await serviceEnv(redis.url);
    const { logger, lines } = capturingLogger('info');

    const service = await startService(loadConfig(env), { logger, workers: false });
    closers.push(() => service.close());

    await waitFor(() => lines().includes('maxmemory-policy allkeys-lru'), { what: 'the warning' });
  });

  it('pause when the policy changes after start, say why in /status, and resume once it is noeviction again', async () => {
    const redis = await privateRedis('noeviction');
    const { env } = await serviceEnv(redis.url);
    const { logger, lines } = capturingLogger('info');
    const service: RunningService = await startService(loadConfig(env), {
      logger,
      evictionCheckMs: 50,
    });
    closers.push(() => service.close());
    const status = async () =>
      (await fetch(`${service.url}/status`)).json() as Promise<WorkersStatus>;
    expect((await status()).workers.status).toBe('ok');

    await redis.redis.config('SET', 'maxmemory-policy', 'volatile-ttl');

    const paused = (await waitFor(
      async () => {
        const body = await status();
        return body.workers.status === 'redis_evicts' && body;
      },
      { what: 'the workers to pause' },
    )) as WorkersStatus;
    expect(paused.workers.problems[0]).toMatch(
      /maxmemory-policy volatile-ttl.*workers are paused until it is noeviction again/,
    );
    expect(lines()).toMatch(/workers are paused until it is noeviction again/);

    await redis.redis.config('SET', 'maxmemory-policy', 'noeviction');

    await waitFor(async () => (await status()).workers.status === 'ok', {
      what: 'the workers to resume',
    });
    expect(lines()).toContain('maxmemory-policy noeviction again: queue workers resumed');
  });
});

describe('EvictionPolicyWatch', () => {
  it('pauses BullMQ workers while the policy evicts, and resumes them when it no longer does', async () => {
    const server = await privateRedis('noeviction');
    const connection = createRedis(server.url, 'worker');
    closers.push(() => connection.quit());
    const prefix = uniquePrefix('eviction-watch');
    const processed: string[] = [];
    const worker = new Worker(
      'watched',
      async (job) => {
        processed.push(job.id!);
      },
      { connection, prefix },
    );
    closers.push(() => worker.close());
    const queue = new Queue('watched', { connection, prefix });
    closers.push(() => queue.close());
    const watch = new EvictionPolicyWatch(connection, prefix, [worker], silentLogger);

    expect(await watch.check()).toBe('running');
    await server.redis.config('SET', 'maxmemory-policy', 'allkeys-random');
    expect(await watch.check()).toBe('paused');
    expect(worker.isPaused()).toBe(true);
    expect(await readEvictionPause(connection, prefix)).toMatchObject({ policy: 'allkeys-random' });

    await queue.add('job', {}, { jobId: 'while-paused' });
    await server.redis.config('SET', 'maxmemory-policy', 'noeviction');
    expect(await watch.check()).toBe('running');

    expect(worker.isPaused()).toBe(false);
    expect(await readEvictionPause(connection, prefix)).toBeNull();
    await waitFor(() => processed.includes('while-paused'), { what: 'the job queued meanwhile' });
  });
});
