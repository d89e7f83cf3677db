import { describe, expect, it } from 'vitest';
import { connectedRedis } from '../../src/queue/redis.js';
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
