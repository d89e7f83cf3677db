import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { PartnerNotFoundError, PartnerWaitError } from '../partner/errors.js';
import type { ShipmentReader } from '../records/partner-environment.js';

/** In all, for the budget or a 429. */
const MAX_WAIT_MS = 5 * 60_000;

/** A spent budget is waited out: other processes may be busy with the same token. */
export function shipmentReader(
  settings: Config['partner'],
  redis: Redis,
  logger: Logger,
): ShipmentReader {
  return async (reference) => {
    // Nothing else needs the partner client in this thread.
    const { buildPartnerSide } = await import('./clients.js');
    const { partner } = buildPartnerSide(settings, redis, logger);
    let waitedMs = 0;
    for (;;) {
      try {
        await partner.getShipment(reference, { priority: 'create' });
        return 'found';
      } catch (error) {
        if (error instanceof PartnerNotFoundError) return 'not_found';
        if (!(error instanceof PartnerWaitError) || waitedMs + error.waitMs > MAX_WAIT_MS) {
          throw error;
        }
        logger.info(
          { waitMs: Math.ceil(error.waitMs) },
          'waiting for the partner budget to check the new token',
        );
        await sleep(error.waitMs);
        waitedMs += error.waitMs;
      }
    }
  };
}
