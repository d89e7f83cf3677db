import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { PartnerNotFoundError } from '../partner/errors.js';
import type { ShipmentReader } from '../records/partner-environment.js';
import { buildPartnerSide } from './clients.js';

/**
 * Reads one shipment with the configured token, from the token's shared budget: how a start with
 * a new token tells a reissued token of the same account from another account's.
 */
export function shipmentReader(
  settings: Config['partner'],
  redis: Redis,
  logger: Logger,
): ShipmentReader {
  return async (reference) => {
    const { partner } = buildPartnerSide(settings, redis, logger);
    try {
      await partner.getShipment(reference, { priority: 'create' });
      return 'found';
    } catch (error) {
      if (error instanceof PartnerNotFoundError) return 'not_found';
      throw error;
    }
  };
}
