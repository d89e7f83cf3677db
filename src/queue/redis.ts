import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections. Workers block on Redis and must never give up a command
 * (`maxRetriesPerRequest: null`, as BullMQ requires). Everything on a request path (the webhook
 * intake, health checks) fails fast instead, so a Redis outage becomes a quick 503, not a hang.
 *
 * REDIS_URL names one Redis (`redis://`, or `rediss://` for TLS) or a Redis Cluster
 * (`redis+cluster://`, `rediss+cluster://`, with one or more seed nodes separated by commas:
 * `rediss+cluster://user:password@node-1:6379,node-2:6379`). A cluster connection is returned
 * typed as `Redis`: it answers the same commands, and BullMQ takes either.
 */
export function createRedis(url: string, purpose: 'worker' | 'client'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  const cluster = parseClusterUrl(url);
  if (!cluster) return new Redis(url, { ...options, lazyConnect: false });
  const { enableOfflineQueue, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    lazyConnect: false,
    enableReadyCheck: true,
    ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
    redisOptions: { ...nodeOptions, ...cluster.auth, ...(cluster.tls ? { tls: {} } : {}) },
    // Managed clusters with TLS (ElastiCache, MemoryDB) announce nodes by address while their
    // certificates name the host: connect by the name given, as ioredis advises for them.
    ...(cluster.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  };
  return new Cluster(cluster.nodes, clusterOptions) as unknown as Redis;
}

/** Whether the connection is to a Redis Cluster (see createRedis). */
export function isClusterUrl(url: string): boolean {
  return /^rediss?\+cluster:\/\//i.test(url);
}

interface ClusterAddress {
  nodes: { host: string; port: number }[];
  auth: { username?: string; password?: string };
  tls: boolean;
}

/** The seed nodes, credentials and TLS of a `redis+cluster://` URL; null for any other URL. */
export function parseClusterUrl(url: string): ClusterAddress | null {
  const match = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)/i.exec(url);
  if (!match) return null;
  const [, scheme, credentials, hosts] = match;
  const auth: ClusterAddress['auth'] = {};
  if (credentials) {
    const colon = credentials.indexOf(':');
    const username = decodeURIComponent(colon < 0 ? credentials : credentials.slice(0, colon));
    const password = colon < 0 ? '' : decodeURIComponent(credentials.slice(colon + 1));
    if (username) auth.username = username;
    if (password) auth.password = password;
  }
  const nodes = hosts!.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return at < 0
      ? { host: node, port: 6379 }
      : { host: node.slice(0, at), port: Number(node.slice(at + 1)) || 6379 };
  });
  return { nodes, auth, tls: scheme!.toLowerCase() === 'rediss' };
}

/**
 * Every key matching `pattern`, in batches. On a cluster each master holds only its own slots,
 * so every master is scanned (with a hash-tagged prefix all the keys are on one of them).
 */
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

/**
 * A fail-fast connection that is ready to use, for commands that do one thing and exit: with no
 * offline queue, a command sent before the connection is up would fail rather than wait.
 */
export async function connectedRedis(url: string, timeoutMs = 5_000): Promise<Redis> {
  const redis = createRedis(url, 'client');
  redis.on('error', () => {}); // reported below, once, instead of on every retry
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
