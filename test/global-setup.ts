import type { TestProject } from 'vitest/node';
import {
  DEFAULT_REDIS_URL,
  localRedis,
  NoRedisError,
  PrivateRedisError,
} from '../src/demo/private-redis.js';
import { connectedRedis, isClusterUrl } from '../src/queue/redis.js';
import { buildConnector } from './helpers/built-connector.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis the integration tests use: REDIS_URL if it answers, else a private one. */
    redisUrl: string;
  }
}

/**
 * Builds the connector the tests start as processes, and finds the Redis for the tests before any
 * worker starts: the one at REDIS_URL (default 127.0.0.1:6379), or a private redis-server that
 * lives as long as this run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeBuild = await buildConnector();
  const configured = process.env.REDIS_URL;
  if (configured && isClusterUrl(configured)) {
    // `npm run test:cluster` started the cluster and stops it: only check that it answers.
    const cluster = await connectedRedis(configured, 10_000);
    await cluster.quit();
    project.provide('redisUrl', configured);
    return removeBuild;
  }
  let redis: Awaited<ReturnType<typeof localRedis>>;
  try {
    redis = await localRedis({ url: process.env.REDIS_URL });
  } catch (error) {
    if (!(error instanceof NoRedisError || error instanceof PrivateRedisError)) throw error;
    // One line that says what to do, not a stack trace.
    process.stderr.write(`${error.message}\n`);
    await removeBuild();
    process.exit(1);
  }
  if (redis.isPrivate) {
    process.stderr.write(
      `No Redis at ${process.env.REDIS_URL || DEFAULT_REDIS_URL}; ` +
        `the tests use a private redis-server at ${redis.url}.\n`,
    );
  }
  project.provide('redisUrl', redis.url);
  // Workers and the processes tests spawn inherit the environment: give them the same Redis.
  process.env.REDIS_URL = redis.url;
  return async () => {
    await redis.stop();
    await removeBuild();
  };
}
