import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, loadSettings } from '../../config/index.js';
import { shipmentReader } from '../../src/compose/shipment-reader.js';
import { createLogger } from '../../src/log.js';
import { OrderRecords } from '../../src/records/order-records.js';
import {
  AdoptTokenRefusedError,
  adoptReissuedToken,
  claimPartnerEnvironment,
  environmentKey,
  PartnerEnvironmentMismatchError,
} from '../../src/records/partner-environment.js';
import { startService } from '../../src/service.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';
import { capturingLogger } from '../store/helpers.js';

const SANDBOX = { apiUrl: 'https://sandbox.partner.example/api/v1', token: 'sbx_secret_token_1' };
const PRODUCTION = { apiUrl: 'https://partner.example/api/v1', token: 'live_secret_token_1' };

let redis: Redis;
let prefix: string;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('environment');
});

afterEach(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

/** Every key and value under the prefix, as text. */
async function everythingStored(): Promise<string> {
  const keys = await redis.keys(`${prefix}*`);
  const values = await Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      if (type === 'hash') return JSON.stringify(await redis.hgetall(key));
      if (type === 'string') return (await redis.get(key)) ?? '';
      if (type === 'zset') return (await redis.zrange(key, 0, -1)).join(',');
      return type;
    }),
  );
  return [...keys, ...values].join('\n');
}

describe('claimPartnerEnvironment', () => {
  it('records the environment at the first start, and the same one passes after', async () => {
    const first = await claimPartnerEnvironment(
      redis,
      prefix,
      SANDBOX,
      new Date('2026-11-20T10:00:00Z'),
    );

    expect(first).toEqual({ outcome: 'claimed', earlierRegistrations: 0 });
    expect(await redis.hgetall(environmentKey(prefix))).toEqual({
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      apiUrl: SANDBOX.apiUrl,
      claimedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(await claimPartnerEnvironment(redis, prefix, SANDBOX)).toEqual({ outcome: 'matched' });
    // Only a hash of address and token: the token is nowhere in Redis.
    expect(await everythingStored()).not.toContain(SANDBOX.token);
  });

  it('refuses the production environment on records of the sandbox, naming the prefix and the ways out', async () => {
    await claimPartnerEnvironment(redis, prefix, SANDBOX, new Date('2026-11-20T10:00:00Z'));

    const error = await claimPartnerEnvironment(redis, prefix, PRODUCTION).catch((e) => e);

    expect(error).toBeInstanceOf(PartnerEnvironmentMismatchError);
    expect(error.message).toContain(`QUEUE_PREFIX=${prefix} holds the records of another`);
    expect(error.message).toContain(
      `made through ${SANDBOX.apiUrl} (since 2026-11-20T10:00:00.000Z)`,
    );
    expect(error.message).toContain(`configured with ${PRODUCTION.apiUrl}`);
    expect(error.message).toContain('set a new QUEUE_PREFIX');
    expect(error.message).toContain('connector environment forget --yes');
    // Another address is another environment, never a reissued token.
    expect(error.message).not.toContain('adopt-token');
    expect(error.message).not.toContain(PRODUCTION.token);
    // Nothing changed: the sandbox still owns the prefix.
    expect(await claimPartnerEnvironment(redis, prefix, SANDBOX)).toEqual({ outcome: 'matched' });
  });

  it('refuses another token on the same address, and offers adopt-token for a reissued one', async () => {
    await claimPartnerEnvironment(redis, prefix, PRODUCTION);
    const reissued = { ...PRODUCTION, token: 'live_secret_token_2' };

    const error = await claimPartnerEnvironment(redis, prefix, reissued).catch((e) => e);

    expect(error).toBeInstanceOf(PartnerEnvironmentMismatchError);
    expect(error.message).toContain('the same address but another token');
    expect(error.message).toContain('connector environment adopt-token');
  });

  it('adopts another token on the same address when nothing was registered yet, without asking the provider', async () => {
    await claimPartnerEnvironment(redis, prefix, PRODUCTION);
    const reissued = { ...PRODUCTION, token: 'live_secret_token_2' };
    const asked: string[] = [];

    const outcome = await claimPartnerEnvironment(
      redis,
      prefix,
      reissued,
      new Date(),
      async (r) => {
        asked.push(r);
        return 'found';
      },
    );

    expect(outcome).toEqual({ outcome: 'token_adopted', checkedReference: null });
    expect(asked).toEqual([]);
    expect(await claimPartnerEnvironment(redis, prefix, reissued)).toEqual({ outcome: 'matched' });
  });

  it('never asks about another address: that is another environment', async () => {
    await claimPartnerEnvironment(redis, prefix, SANDBOX);
    const asked: string[] = [];

    const error = await claimPartnerEnvironment(
      redis,
      prefix,
      PRODUCTION,
      new Date(),
      async (r) => {
        asked.push(r);
        return 'found';
      },
    ).catch((e) => e);

    expect(error).toBeInstanceOf(PartnerEnvironmentMismatchError);
    expect(asked).toEqual([]);
  });

  it('refuses, saying the next start checks again, when the provider cannot be reached for the check', async () => {
    const unreachable = { apiUrl: 'http://127.0.0.1:1/api/v1', token: 'live_secret_token_1' };
    await claimPartnerEnvironment(redis, prefix, unreachable);
    const records = new OrderRecords(redis, prefix, { retentionDays: 90 });
    await records.markRegistered('5551234', { orderNumber: 'PS-1' });
    const reissued = { ...unreachable, token: 'live_secret_token_2' };
    const settings = loadSettings(['partner'], {
      PARTNER_API_URL: reissued.apiUrl,
      PARTNER_API_TOKEN: reissued.token,
      PARTNER_TIMEOUT_MS: '2000',
    }).partner;
    const reader = shipmentReader(settings, redis, createLogger({ level: 'silent' }));

    const error = await claimPartnerEnvironment(redis, prefix, reissued, new Date(), reader).catch(
      (e) => e,
    );

    expect(error).toBeInstanceOf(PartnerEnvironmentMismatchError);
    expect(error.message).toContain('may hold the records of another partner account');
    expect(error.message).toMatch(
      /could not be checked: reading shipment 5551234 with it failed \(.+\); the next start checks again/,
    );
    expect(error.message).toContain('connector environment adopt-token');
    expect(error.message).not.toContain('live_secret_token');
    // Nothing adopted: the old token's fingerprint stays.
    await expect(claimPartnerEnvironment(redis, prefix, reissued)).rejects.toBeInstanceOf(
      PartnerEnvironmentMismatchError,
    );
  });

  it('counts registrations made before environments were recorded, for a warning', async () => {
    await redis.zadd(`${prefix}:orders:registered`, Date.now(), '5551234');

    expect(await claimPartnerEnvironment(redis, prefix, PRODUCTION)).toEqual({
      outcome: 'claimed',
      earlierRegistrations: 1,
    });
  });
});

describe('adoptReissuedToken', () => {
  it('keeps the records with the new token of the same address', async () => {
    await claimPartnerEnvironment(redis, prefix, PRODUCTION, new Date('2026-11-20T10:00:00Z'));
    const reissued = { ...PRODUCTION, token: 'live_secret_token_2' };

    await adoptReissuedToken(redis, prefix, reissued);

    expect(await claimPartnerEnvironment(redis, prefix, reissued)).toEqual({ outcome: 'matched' });
    expect(await redis.hget(environmentKey(prefix), 'claimedAt')).toBe('2026-11-20T10:00:00.000Z');
    await expect(claimPartnerEnvironment(redis, prefix, PRODUCTION)).rejects.toBeInstanceOf(
      PartnerEnvironmentMismatchError,
    );
    expect(await everythingStored()).not.toContain('live_secret_token');
  });

  it('refuses to adopt a token of another address', async () => {
    await claimPartnerEnvironment(redis, prefix, SANDBOX);

    await expect(adoptReissuedToken(redis, prefix, PRODUCTION)).rejects.toBeInstanceOf(
      AdoptTokenRefusedError,
    );
    await expect(claimPartnerEnvironment(redis, prefix, PRODUCTION)).rejects.toBeInstanceOf(
      PartnerEnvironmentMismatchError,
    );
  });
});

describe('startService', () => {
  it('says in one line which shop, partner address, prefix and limit it starts with, and no secret', async () => {
    await claimPartnerEnvironment(redis, prefix, SANDBOX);
    const { logger, lines } = capturingLogger();

    await startService(productionConfig(), { logger, http: false }).catch(() => {});

    const starting = lines()
      .split('\n')
      .filter((line) => line.includes('"connector starting"'));
    expect(starting).toHaveLength(1);
    expect(JSON.parse(starting[0]!)).toMatchObject({
      shop: 'environment-test.myshopify.com',
      partnerApiUrl: PRODUCTION.apiUrl,
      queuePrefix: prefix,
      partnerRateLimit: '60 per 60000 ms',
    });
    for (const secret of [PRODUCTION.token, 'shpat_environment_test', 'whsec_environment_test']) {
      expect(lines()).not.toContain(secret);
    }
  });

  it('refuses to start on records of another partner environment', async () => {
    await claimPartnerEnvironment(redis, prefix, SANDBOX);
    const config = productionConfig();

    await expect(
      startService(config, { logger: createLogger({ level: 'silent' }), http: false }),
    ).rejects.toBeInstanceOf(PartnerEnvironmentMismatchError);

    // Refused before anything was built: no queue, no scheduler, no record under the prefix.
    expect((await redis.keys(`${prefix}:*`)).sort()).toEqual([environmentKey(prefix)]);
  });
});

/** A configuration for the "production" account, on this test's prefix. */
function productionConfig() {
  return loadConfig({
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    PARTNER_API_URL: PRODUCTION.apiUrl,
    PARTNER_API_TOKEN: PRODUCTION.token,
    SHOPIFY_SHOP: 'environment-test.myshopify.com',
    SHOPIFY_ACCESS_TOKEN: 'shpat_environment_test',
    SHOPIFY_WEBHOOK_SECRET: 'whsec_environment_test',
    SENDER_NAME: 'Warehouse',
    SENDER_PHONE: '+4511111111',
    SENDER_STREET: 'Lagervej 1',
    SENDER_CITY: 'Kolding',
    SENDER_POSTAL_CODE: '6000',
    SENDER_COUNTRY_CODE: 'DK',
  });
}
