import { namesLocation } from '../domain/shipment-contents.js';
import type { Logger } from '../log.js';
import type { StoreSetup } from '../store/setup/types.js';

/** Unset with several locations, all ship; an entry naming none of the store's ships nothing. */
export async function checkCollectionLocations(
  store: Pick<StoreSetup, 'merchantLocations'>,
  collectFrom: readonly string[],
  logger: Logger,
): Promise<void> {
  const locations = await store.merchantLocations().catch((error: unknown) => {
    logger.warn({ err: error }, 'could not list the store locations at start');
  });
  if (!locations) return;
  if (collectFrom.length === 0) {
    if (locations.length > 1) {
      logger.warn(
        `The store has ${locations.length} locations of its own (${locations.map((l) => l.name).join(', ')}), and the provider is asked to ship what is left at every one of them: set COLLECT_FROM_LOCATIONS to the ones it collects from`,
      );
    }
    return;
  }
  const unknown = collectFrom.filter((entry) => !locations.some((l) => namesLocation(entry, l)));
  if (unknown.length > 0) {
    logger.warn(
      `COLLECT_FROM_LOCATIONS names ${unknown.join(', ')}, which is no location of the store's own (${locations.map((l) => l.name).join(', ')}): nothing is shipped from it`,
    );
  }
}
