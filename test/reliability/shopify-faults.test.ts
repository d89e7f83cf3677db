import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';
import {
  orderFigures,
  orderInputs,
  PARTNER_TOKEN,
  type Rig,
  startRig,
  trackingNumberOf,
} from './rig.js';
import { note, report, size } from './size.js';

const ORDERS = size(120, 8);
// Each THROTTLED answer says the bucket is empty: the connector then waits until the request's
// cost has refilled at its share of the rate (SHOPIFY_RESERVE_SHARE), about 7 s on a standard
// shop (100 points a second). The short run plays a Plus shop (1,000 a second).
const THROTTLED = size(20, 2);
const RESTORE_RATE = size(100, 1_000);
const SERVER_ERRORS = size(ORDERS, 4);

let rig: Rig | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  await rig?.close();
  rig = undefined;
});

async function oneWorker(first: number) {
  rig = await startRig({ redisUrl: REDIS_URL });
  await rig.spawnWorker(0);
  const inputs = orderInputs(first, ORDERS);
  return { r: rig, ids: inputs.map((o) => o.id as string), inputs };
}

/** Create requests the provider received. */
function creates(r: Rig) {
  const posts = r.sandbox.requests.filter(
    (q) => q.method === 'POST' && q.path.endsWith('/shipments') && q.token === PARTNER_TOKEN,
  );
  return posts.length;
}

/** What the fake store answered, by outcome (ok, throttled, server_error, answer_lost…). */
function outcomes(r: Rig, operation?: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const q of r.store.requests) {
    if (operation && q.operationName !== operation && !q.rootFields.includes(operation)) continue;
    counts[q.outcome] = (counts[q.outcome] ?? 0) + 1;
  }
  return counts;
}

describe('Shopify refuses or fails', () => {
  it('THROTTLED and 5xx during reads and write-backs: every write-back completes, no repeated create', async () => {
    const { r, ids, inputs } = await oneWorker(8_800_000);
    const started = Date.now();
    // Reads of the orders and the marks written back meet THROTTLED, then 503s.
    r.store.throttleNext(THROTTLED, { currentlyAvailable: 0, restoreRate: RESTORE_RATE });
    r.store.serverErrorNext({ count: SERVER_ERRORS, status: 503 });
    await r.placeOrders(inputs);
    await waitUntil(() => r.check(ids).missing.length + r.check(ids).notMarked.length === 0, {
      timeoutMs: size(400_000, 120_000),
      what: 'every order registered and marked',
    });
    const intake = outcomes(r);
    // The fulfillments meet 500s and THROTTLED.
    r.store.serverErrorNext({ count: SERVER_ERRORS, operation: 'fulfillmentCreate', status: 500 });
    r.store.throttleNext(THROTTLED, { currentlyAvailable: 0, restoreRate: RESTORE_RATE });
    const shippedAt = Date.now();
    r.shipAll();
    const done = await r.waitForAll(ids, size(400_000, 120_000));
    const failed = await r.failedJobs();
    const all = outcomes(r);
    report('shopify throttled and 5xx', {
      orders: ORDERS,
      faults: `${all.throttled ?? 0} THROTTLED, ${all.server_error ?? 0} × 5xx (${intake.server_error ?? 0} during intake and marks)`,
      creates: creates(r),
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      fulfilledAfterShippingMs: Date.now() - shippedAt,
      totalMs: Date.now() - started,
    });
    expect(intake).toMatchObject({ throttled: THROTTLED, server_error: SERVER_ERRORS });
    expect(all).toMatchObject({ throttled: 2 * THROTTLED, server_error: 2 * SERVER_ERRORS });
    expect(creates(r)).toBe(ORDERS);
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
  }, 900_000);

  it('lost answers to fulfillmentCreate (a 502, a dropped connection): no second fulfillment', async () => {
    const { r, ids, inputs } = await oneWorker(8_900_000);
    const started = Date.now();
    await r.placeOrders(inputs);
    await waitUntil(() => r.check(ids).missing.length + r.check(ids).notMarked.length === 0, {
      timeoutMs: 120_000,
      what: 'every order registered and marked',
    });
    // Half the shipments first, their fulfillments applied and answered with a proxy's 502 …
    const half = Math.floor(ORDERS / 2);
    r.store.dropNextAnswers({ count: half, operation: 'fulfillmentCreate', how: 'bad_gateway' });
    for (const reference of ids.slice(0, half)) {
      r.sandbox.advance(reference, 'shipped', {
        carrier: 'GLS',
        trackingNumber: trackingNumberOf(reference),
      });
    }
    await waitUntil(() => outcomes(r, 'fulfillmentCreate').answer_lost === half, {
      timeoutMs: 120_000,
      what: 'the first half of the answers to be lost',
    });
    await r.waitForAll(ids.slice(0, half), 120_000, 'the first half to be fulfilled');
    // … the rest answered by a dropped connection.
    r.store.dropNextAnswers({
      count: ORDERS - half,
      operation: 'fulfillmentCreate',
      how: 'connection_reset',
    });
    r.shipAll();
    const done = await r.waitForAll(ids, 120_000);
    const failed = await r.failedJobs();
    const fulfilCalls = outcomes(r, 'fulfillmentCreate');
    report('shopify fulfillmentCreate answer lost', {
      orders: ORDERS,
      faults: `${fulfilCalls.answer_lost ?? 0} fulfillmentCreate answers lost (502 and reset)`,
      fulfillmentCreates: fulfilCalls,
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      totalMs: Date.now() - started,
    });
    expect(fulfilCalls.answer_lost).toBe(ORDERS);
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
  }, 300_000);
});
