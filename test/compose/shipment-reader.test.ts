import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../config/index.js';
import { buildPartnerSide } from '../../src/compose/clients.js';
import { shipmentReader } from '../../src/compose/shipment-reader.js';
import { PartnerAuthError } from '../../src/partner/errors.js';
import { startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { testRedis, uniquePrefix } from '../helpers/redis.js';
import { capturingLogger, silentLogger } from '../store/helpers.js';

/** The one read a start with a new partner token makes to tell the accounts apart. */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(limit = 60, windowMs = 60_000) {
  const sandbox = await startPartnerSandbox();
  closers.push(() => sandbox.close());
  const redis = testRedis();
  closers.push(() => redis.quit());
  const token = sandbox.issueToken('demo@sandbox.local', uniquePrefix('reader'));
  const settings = loadSettings(['partner'], {
    PARTNER_API_URL: sandbox.url,
    PARTNER_API_TOKEN: token,
    PARTNER_RATE_LIMIT: String(limit),
    PARTNER_RATE_WINDOW_MS: String(windowMs),
  }).partner;
  return { sandbox, redis, token, settings };
}

describe('shipmentReader', () => {
  it("says found for the token's own shipment and not_found for another account's", async () => {
    const { sandbox, redis, settings } = await setup();
    sandbox.seedShipments({ references: ['5551001'] });
    sandbox.seedShipments({ references: ['5551002'], account: 'other@sandbox.local' });
    const read = shipmentReader(settings, redis, silentLogger);

    expect(await read('5551001')).toBe('found');
    expect(await read('5551002')).toBe('not_found');
  });

  it('waits for the shared budget another process has spent, instead of giving up', async () => {
    const { sandbox, redis, settings } = await setup(1, 400);
    sandbox.seedShipments({ references: ['5551001'] });
    // Another process of the same token takes the only request of the window.
    await buildPartnerSide(settings, redis, silentLogger).partner.listShipments({ perPage: 1 });

    const { logger, lines } = capturingLogger('info');

    expect(await shipmentReader(settings, redis, logger)('5551001')).toBe('found');
    expect(sandbox.requestCounts().byEndpoint['GET /shipments/{reference}']).toBe(1);
    expect(lines()).toContain('waiting for the partner budget to check the new token');
  });

  it('throws what the provider said when it refuses the token: the check cannot decide', async () => {
    const { sandbox, redis, token, settings } = await setup();
    sandbox.revokeToken(token);

    await expect(shipmentReader(settings, redis, silentLogger)('5551001')).rejects.toBeInstanceOf(
      PartnerAuthError,
    );
  });
});
