import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerLookingAgain } from '../../../jobs/create-shipment/job.js';
import type { RegisterShipmentDeps } from '../../../jobs/create-shipment/register-shipment.js';
import type { StoreOrder } from '../../../src/domain/order.js';
import { MAX_LOOKS_AGAIN } from '../../../src/domain/order-lifecycle.js';
import { createLogger } from '../../../src/log.js';
import { Counters } from '../../../src/metrics/counters.js';
import { OrderRecords } from '../../../src/records/order-records.js';
import { anOrder, someRules, someSettings } from '../../domain/builders.js';
import { dropKeys, testRedis, uniquePrefix } from '../../helpers/redis.js';

const ORDER_ID = '5551234';

let redis: Redis;
let prefix: string;
let records: OrderRecords;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('look-again');
  records = new OrderRecords(redis, prefix, { retentionDays: 90 });
});

afterEach(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

/**
 * Registration of an unpaid order (a skip: no partner call) with real records in Redis;
 * `duringLoad` runs each time the order is loaded, as an event arriving mid-look would.
 */
function depsFor(duringLoad: () => Promise<void>) {
  const loads: StoreOrder[] = [];
  const deps: RegisterShipmentDeps = {
    store: {
      async getOrder() {
        const order = anOrder({ id: ORDER_ID, financialStatus: 'pending' });
        loads.push(order);
        await duringLoad();
        return order;
      },
    },
    partner: {
      reserveCreate: async () => ({ release: async () => {} }),
      createShipment: () => Promise.reject(new Error('an unpaid order is never sent')),
      getShipment: () => Promise.reject(new Error('an unpaid order is never looked up')),
    },
    records,
    tracking: {
      track: () => Promise.reject(new Error('an unpaid order is never followed')),
      get: () => Promise.reject(new Error('an unpaid order is never followed')),
    },
    counters: new Counters(redis, prefix),
    settings: { shipment: someSettings(), eligibility: someRules() },
    markOrder: async () => {},
    logger: createLogger({ level: 'silent' }),
  };
  return { deps, loads };
}

describe('registerLookingAgain', () => {
  it('looks once when nothing happens meanwhile', async () => {
    const { deps, loads } = depsFor(async () => {});
    expect(await registerLookingAgain(ORDER_ID, deps)).toMatchObject({ outcome: 'skipped' });
    expect(loads).toHaveLength(1);
  });

  it('does not look again for an event that came before the order was loaded', async () => {
    // Asked while an earlier run of the job was still going; this run loads the order after it.
    await records.requestRerun(ORDER_ID);
    const { deps, loads } = depsFor(async () => {});
    await registerLookingAgain(ORDER_ID, deps);
    expect(loads).toHaveLength(1);
  });

  it('keeps the event that asked for the run when Redis fails after the run took it', async () => {
    await records.noteEventRun(ORDER_ID);
    const { deps } = depsFor(async () => {});
    const failing = Object.create(records) as OrderRecords;
    failing.takeRerun = () => Promise.reject(new Error('Connection is closed.'));
    await expect(registerLookingAgain(ORDER_ID, { ...deps, records: failing })).rejects.toThrow(
      'Connection is closed.',
    );
    // The job's next run is still the event's, not taken for a staff retry.
    expect(await records.takeEventRun(ORDER_ID)).toBe(true);
  });

  it('looks again for an event that came during the look', async () => {
    let events = 1;
    const { deps, loads } = depsFor(async () => {
      if (events-- > 0) await records.requestRerun(ORDER_ID);
    });
    await registerLookingAgain(ORDER_ID, deps);
    expect(loads).toHaveLength(2);
  });

  it('stops after a bounded number of looks when the order changes during every one', async () => {
    const { deps, loads } = depsFor(() => records.requestRerun(ORDER_ID));
    expect(await registerLookingAgain(ORDER_ID, deps)).toMatchObject({ outcome: 'skipped' });
    expect(loads).toHaveLength(1 + MAX_LOOKS_AGAIN);
  });
});
