import { describe, expect, it } from 'vitest';
import { connectedRedis, isClusterUrl, parseClusterUrl } from '../../src/queue/redis.js';
import { REDIS_URL } from '../helpers/redis.js';

describe('connectedRedis', () => {
  it('answers commands at once when it resolves', async () => {
    const redis = await connectedRedis(REDIS_URL);
    try {
      expect(await redis.ping()).toBe('PONG');
    } finally {
      await redis.quit();
    }
  });

  it('says clearly, and without the password, that Redis does not answer', async () => {
    await expect(connectedRedis('redis://:s3cret@127.0.0.1:1', 300)).rejects.toThrow(
      'Redis at redis://***@127.0.0.1:1 did not answer within 300 ms.',
    );
  });
});

describe('Redis Cluster URLs', () => {
  it('reads the seed nodes, credentials and TLS of a rediss+cluster:// URL', () => {
    expect(parseClusterUrl('rediss+cluster://app:p%40ss@node-1:7000,node-2,10.0.0.3:7002')).toEqual(
      {
        nodes: [
          { host: 'node-1', port: 7000 },
          { host: 'node-2', port: 6379 },
          { host: '10.0.0.3', port: 7002 },
        ],
        auth: { username: 'app', password: 'p@ss' },
        tls: true,
      },
    );
    expect(parseClusterUrl('redis+cluster://:secret@127.0.0.1:7000')).toEqual({
      nodes: [{ host: '127.0.0.1', port: 7000 }],
      auth: { password: 'secret' },
      tls: false,
    });
  });

  it('takes redis:// and rediss:// for one Redis', () => {
    expect(parseClusterUrl('rediss://h:6380')).toBeNull();
    expect(isClusterUrl('redis://h:6379')).toBe(false);
    expect(isClusterUrl('REDIS+CLUSTER://h:6379')).toBe(true);
  });
});
