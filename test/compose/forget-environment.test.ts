import { afterEach, describe, expect, it } from 'vitest';
import { describePrefix, forgetEnvironment } from '../../src/compose/forget-environment.js';
import { claimPartnerEnvironment } from '../../src/records/partner-environment.js';
import { intakeOnTestRedis } from '../helpers/intake.js';
import { dropKeys } from '../helpers/redis.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('forgetEnvironment', () => {
  it('deletes every key under the prefix and nothing of another prefix that starts the same', async () => {
    const intake = await intakeOnTestRedis('forget');
    closers.push(() => intake.close());
    const { redis, prefix } = intake;
    // A neighbour connector, QUEUE_PREFIX=<prefix>-eu, on the same Redis.
    const neighbour = `${prefix}-eu:order:1`;
    await redis.set(neighbour, 'kept');
    closers.push(() => dropKeys(redis, `${prefix}-eu`));
    await claimPartnerEnvironment(redis, prefix, {
      apiUrl: 'https://a.example/api/v1',
      token: 't',
    });
    await intake.records.markRegistered('5551234', {
      orderNumber: 'PS-1',
      status: 'pending',
      createdAt: '2026-11-20T10:00:00+01:00',
    });
    await intake.records.markSkipped('5551235', 'not_paid', 'Not paid.');
    await intake.enqueueOrder('5551236', 'orders/paid');
    expect(await describePrefix(intake)).toMatchObject({ records: 2, registered: 1 });

    const { deletedKeys } = await forgetEnvironment(intake);

    expect(deletedKeys).toBeGreaterThan(4);
    expect(await redis.keys(`${prefix}:*`)).toEqual([]);
    expect(await redis.get(neighbour)).toBe('kept');
  });
});
