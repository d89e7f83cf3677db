import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { withTimeout } from './timeout.js';

/**
 * BullMQ requires workers never give up a command; request paths fail fast (a quick 503, not a
 * hang). A cluster is typed as `Redis`: BullMQ takes either.
 */
export function createRedis(url: string, purpose: 'worker' | 'client'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  const cluster = parseClusterUrl(url);
  if (!cluster) return new Redis(url, { ...options, lazyConnect: false });
  const { enableOfflineQueue, ...nodeOptions } = options;
  return new Cluster(cluster.nodes, {
    lazyConnect: false,
    enableReadyCheck: true,
    ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
    redisOptions: { ...nodeOptions, ...cluster.auth, ...(cluster.tls ? { tls: {} } : {}) },
    // Managed TLS clusters announce nodes by address while certificates name the host.
    ...(cluster.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  }) as unknown as Redis;
}

export function isClusterUrl(url: string): boolean {
  return /^rediss?\+cluster:\/\//i.test(url);
}

export function parseClusterUrl(url: string) {
  const match = /^(rediss?)\+cluster:\/\/(?:([^@/:]*)(?::([^@/]*))?@)?([^/?#]+)/i.exec(url);
  if (!match) return null;
  const [, scheme, username, password, hosts] = match;
  const auth: { username?: string; password?: string } = {};
  if (username) auth.username = decodeURIComponent(username);
  if (password) auth.password = decodeURIComponent(password);
  const nodes = hosts!.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return at < 0
      ? { host: node, port: 6379 }
      : { host: node.slice(0, at), port: Number(node.slice(at + 1)) || 6379 };
  });
  return { nodes, auth, tls: scheme!.toLowerCase() === 'rediss' };
}

/** On a cluster each master holds only its own slots, so every master is scanned. */
export async function* scanKeys(redis: Redis, pattern: string, count = 1000) {
  const nodes = redis instanceof Cluster ? (redis as Cluster).nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== '0');
  }
}

const DELETE_IF_HELD =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end";

/** A lock or mark someone else took stays. */
export async function deleteIfHeld(redis: Redis, key: string, value: string): Promise<void> {
  await redis.eval(DELETE_IF_HELD, 1, key, value);
}

/** With no offline queue, a command sent before the connection is up would fail, not wait. */
export async function connectedRedis(url: string, timeoutMs = 5_000): Promise<Redis> {
  const redis = createRedis(url, 'client');
  redis.on('error', () => {}); // reported below, once, instead of on every retry
  await withTimeout(
    new Promise((resolve) => redis.once('ready', resolve)),
    timeoutMs,
    () => new Error(`Redis at ${redactUrl(url)} did not answer within ${timeoutMs} ms.`),
  ).catch((error: unknown) => {
    redis.disconnect();
    throw error;
  });
  return redis;
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
