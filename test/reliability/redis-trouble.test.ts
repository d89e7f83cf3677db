import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/shipment-stack.js';
import { type ScenarioRedis, startScenarioRedis } from './redis-server.js';
import { orderFigures, orderInputs, type Rig, startRig } from './rig.js';
import { note, report, size } from './size.js';

const ORDERS = size(120, 8);

let rig: Rig | undefined;
let redis: ScenarioRedis | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  // All of it (RELIABILITY_LOG_LEVEL=info for more), for what the last lines do not explain.
  if (process.env.RELIABILITY_LOG_DIR && rig) {
    writeFileSync(join(process.env.RELIABILITY_LOG_DIR, `${rig.prefix}.log`), rig.logs());
  }
  await rig?.close();
  await redis?.close();
  rig = undefined;
  redis = undefined;
});

/** A private Redis, a rig on it with one worker process, and the scenario's orders. */
async function world(first: number, options: { aof: boolean; env?: Record<string, string> }) {
  redis = await startScenarioRedis({ aof: options.aof });
  rig = await startRig({
    redisUrl: redis.url,
    env: {
      ...options.env,
      RELIABILITY_SCHEDULE_REFRESH_MS: '1000',
      LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'warn',
    },
  });
  await rig.spawnWorker(0);
  const inputs = orderInputs(first, ORDERS);
  return { r: rig, server: redis, ids: inputs.map((o) => o.id as string), inputs };
}

/** Waits for every order to be registered, ships them all, waits for every fulfillment. */
async function completeAll(r: Rig, ids: string[]) {
  // At full size Shopify's cost budget paces the re-reads, marks and fulfillments: minutes.
  await waitUntil(() => r.check(ids).missing.length === 0, {
    timeoutMs: size(300_000, 120_000),
    what: 'every order to be registered',
  });
  r.shipAll();
  return r.waitForAll(ids, size(300_000, 120_000));
}

describe('Redis restarts or goes away', () => {
  it('restarted mid-run with AOF on: nothing lost, nothing duplicated', async () => {
    const { r, server, ids, inputs } = await world(8_500_000, { aof: true });
    const started = Date.now();
    const placing = r.placeOrders(inputs, 4);
    await waitUntil(() => r.check(ids).missing.length <= ORDERS / 2, {
      timeoutMs: 60_000,
      what: 'half the orders to be registered',
    });
    await server.shutdown();
    await server.start();
    const back = Date.now();
    await placing;
    const done = await completeAll(r, ids);
    const failed = await r.failedJobs();
    report('redis restarted (AOF)', {
      orders: ORDERS,
      faults: 'SHUTDOWN and start on the same dir and port, half the orders registered',
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      recoveredMs: Date.now() - back,
      totalMs: Date.now() - started,
    });
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
  }, 900_000);

  it('restarted empty: the reconciliation and the status sync recover every order, each once', async () => {
    const { r, server, ids, inputs } = await world(8_600_000, {
      aof: false,
      env: { ORDER_POLL_INTERVAL_MS: '2000' },
    });
    const started = Date.now();
    const half = Math.floor(ORDERS / 2);
    await r.placeOrders(inputs.slice(0, half), 4);
    await waitUntil(
      () =>
        r.check(ids.slice(0, half)).notMarked.length +
          r.check(ids.slice(0, half)).missing.length ===
        0,
      {
        timeoutMs: size(300_000, 60_000),
        what: 'the first half to be registered and marked',
      },
    );
    // Those parcels leave before the data is lost: only the provider knows they shipped.
    const shippedBefore = r.shipAll();
    // The second half is queued, its creates on their way (the provider answers slowly), when
    // Redis loses everything: the provider may hold a shipment Redis never heard of.
    r.sandbox.setLatency(3_000);
    await r.placeOrders(inputs.slice(half), 4);
    await server.shutdown();
    const before = r.check(ids);
    const unmarkedBefore = before.missing.length + before.notMarked.length;
    r.sandbox.setLatency(0);
    await server.start({ empty: true });
    const back = Date.now();
    const done = await completeAll(r, ids);
    const failed = await r.failedJobs();
    report('redis restarted empty', {
      orders: ORDERS,
      faults: `data lost with ${ORDERS - unmarkedBefore} registered and marked, ${before.shipments} at the provider, ${shippedBefore} shipped, ${before.fulfilments} fulfilled`,
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      recoveredMs: Date.now() - back,
      totalMs: Date.now() - started,
    });
    expect(unmarkedBefore).toBe(ORDERS - half);
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
  }, 900_000);

  it('down for a while: webhooks get 503; Shopify retries and the reconciliation recover every order', async () => {
    const { r, server, ids, inputs } = await world(8_700_000, {
      aof: true,
      env: { ORDER_POLL_INTERVAL_MS: '2000' },
    });
    const started = Date.now();
    const third = Math.floor(ORDERS / 3);
    await r.placeOrders(inputs.slice(0, third));

    await server.shutdown();
    const downAt = Date.now();
    // Every order placed meanwhile: its webhook is delivered once and refused.
    const during = await Promise.all(
      inputs.slice(third).map(async (input) => {
        const { order } = await r.store.createOrder(input, { sendWebhook: false });
        const delivery = await r.deliverOnce(order);
        return { order, status: delivery.status };
      }),
    );
    // The outage lasts a while longer with nothing arriving (the workers meet it on their own).
    await sleep(size(10_000, 1_000));
    await server.start();
    const back = Date.now();
    // Shopify delivers half of them again; the other half only the reconciliation finds.
    const resent = during.filter((_, i) => i % 2 === 0);
    const redelivered = await Promise.all(resent.map(({ order }) => r.sendWebhook(order)));
    const done = await completeAll(r, ids);
    const failed = await r.failedJobs();
    const statuses = during.map((d) => d.status);
    report('redis down', {
      orders: ORDERS,
      faults: `Redis down ${back - downAt} ms; ${statuses.length} webhooks meanwhile, answered ${[...new Set(statuses)]}; ${resent.length} delivered again`,
      redeliveries: redelivered.map((d) => d.attempts),
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      recoveredMs: Date.now() - back,
      totalMs: Date.now() - started,
    });
    expect(statuses.every((s) => s === 503)).toBe(true);
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
  }, 900_000);
});
