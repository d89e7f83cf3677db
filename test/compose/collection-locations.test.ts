import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCollectionLocations } from '../../src/compose/collection-locations.js';
import { createLogger } from '../../src/log.js';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { startStore, storeClient } from '../helpers/intake.js';

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', format: 'json' }, stream), lines };
}

// The fake store has two locations of the merchant's own (Shop location, Aarhus warehouse) and
// one of a fulfillment service.
let store: FakeStore;
beforeAll(async () => {
  store = await startStore();
});
afterAll(() => store.close());

describe('the locations the provider collects from, checked at start', () => {
  it('warns once when the setting is left empty on a store with several own locations', async () => {
    const { logger, lines } = capture();
    await checkCollectionLocations(storeClient(store.url), [], logger);
    expect(lines.map((l) => l.msg)).toEqual([
      'The store has 2 locations of its own (Shop location, Aarhus warehouse), and the provider is asked to ship what is left at every one of them: set COLLECT_FROM_LOCATIONS to the ones it collects from',
    ]);
  });

  it('says nothing when the setting names a location by name or id', async () => {
    const { logger, lines } = capture();
    const [, aarhus] = store.locations();
    await checkCollectionLocations(
      storeClient(store.url),
      ['shop location', `gid://shopify/Location/${aarhus!.id}`],
      logger,
    );
    expect(lines).toEqual([]);
  });

  it("names an entry that is no location of the store's own", async () => {
    const { logger, lines } = capture();
    await checkCollectionLocations(
      storeClient(store.url),
      ['Shop location', "Another app's warehouse"],
      logger,
    );
    expect(lines.map((l) => l.msg)).toEqual([
      "COLLECT_FROM_LOCATIONS names Another app's warehouse, which is no location of the store's own (Shop location, Aarhus warehouse): nothing is shipped from it",
    ]);
  });
});
