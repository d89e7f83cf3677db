import { afterEach, describe, expect, it } from 'vitest';
import { adoptReissuedToken } from '../../src/records/partner-environment.js';
import { REDIS_URL } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';
import {
  orderFigures,
  orderInputs,
  PARTNER_EMAIL,
  PARTNER_TOKEN,
  type Rig,
  startRig,
} from './rig.js';
import { note, report, size } from './size.js';

const ORDERS = size(120, 16);

let rig: Rig | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  await rig?.close();
  rig = undefined;
});

/** A rig with one worker process, logging at debug level (so the secrets check sees it all). */
async function oneWorker(first: number, count = ORDERS) {
  rig = await startRig({ redisUrl: REDIS_URL, env: { LOG_LEVEL: 'debug' } });
  await rig.spawnWorker(0);
  const inputs = orderInputs(first, count);
  return { r: rig, ids: inputs.map((o) => o.id as string), inputs };
}

describe('the provider fails, then recovers', () => {
  it('an outage of 500s (each after the shipment was stored): every order once, nothing failed', async () => {
    const { r, ids, inputs } = await oneWorker(8_200_000);
    const started = Date.now();
    // Every create answers 500 once the shipment is stored, until the outage ends.
    r.sandbox.failNextCreates(ORDERS);
    await r.placeOrders(inputs);
    await waitUntil(
      () => r.sandbox.requestCounts().byEndpointAndStatus['POST /shipments 500'] === ORDERS,
      { timeoutMs: 60_000, what: 'the outage to be met' },
    );
    const outageEnded = Date.now();
    r.shipAll();
    await waitUntil(() => r.check(ids).missing.length === 0, { timeoutMs: 120_000 });
    r.shipAll();
    const done = await r.waitForAll(ids, 120_000);
    const failed = await r.failedJobs();
    const errors = r.sandbox.requests.filter((q) => q.status >= 500).length;
    report('partner outage', {
      orders: ORDERS,
      faults: `${errors} × 500 after storing`,
      ...orderFigures(done),
      failedForGood: failed,
      recoveredMs: Date.now() - outageEnded,
      totalMs: Date.now() - started,
    });
    expect(errors).toBe(ORDERS);
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
    expect(await r.leaks()).toEqual([]);
  }, 240_000);

  it('a 429 storm with long Retry-After: nothing sent before it passed, nothing failed', async () => {
    // Paced at one request a second: fewer orders in the short run.
    const { r, ids, inputs } = await oneWorker(8_300_000, size(ORDERS, 5));
    // The account allows far less than the connector was told (PARTNER_RATE_LIMIT).
    const limit = 4;
    const windowMs = 4_000;
    r.sandbox.setRateLimit(limit, windowMs);
    const started = Date.now();
    await r.placeOrders(inputs);
    await waitUntil(() => r.check(ids).missing.length === 0, {
      timeoutMs: size(300_000, 120_000),
      intervalMs: 250,
    });
    r.shipAll();
    // Every detail read is paced too (one a second): the full run needs minutes.
    const done = await r.waitForAll(ids, size(400_000, 120_000));
    const failed = await r.failedJobs();

    const log = r.sandbox.requests.filter((q) => q.token === PARTNER_TOKEN);
    const refused = log.filter((q) => q.status === 429);
    // A request that arrived while a Retry-After it could have known of was still running. The
    // answer to a 429 takes a moment to reach every process: arrivals within 250 ms are in flight.
    const early = log.filter((q) =>
      refused.some((x) => q.at > x.at + 250 && q.at < x.at + (x.retryAfterS ?? 0) * 1000 - 250),
    );
    // Utilisation after the first 429: admitted requests over what the limit allowed meanwhile.
    const firstRefusal = refused[0]?.at ?? started;
    const after = log.filter((q) => q.at >= firstRefusal && q.status !== 429);
    const spanMs = Math.max(1, (log.at(-1)?.at ?? firstRefusal) - firstRefusal);
    const utilisation = after.length / ((spanMs / windowMs) * limit);
    report('partner 429 storm', {
      orders: ids.length,
      limit: `${limit} per ${windowMs} ms`,
      refused: refused.length,
      retryAfterS: [...new Set(refused.map((x) => x.retryAfterS))],
      sentEarly: early.length,
      utilisationAfterFirst429: +utilisation.toFixed(2),
      ...orderFigures(done),
      failedForGood: failed,
      totalMs: Date.now() - started,
    });
    expect(refused.length).toBeGreaterThan(0);
    expect(early).toEqual([]);
    expect(done).toMatchObject({
      shipments: ids.length,
      duplicates: [],
      fulfilments: ids.length,
    });
    expect(failed).toEqual({});
  }, 900_000);

  it('a revoked token pauses processing, the intake keeps taking webhooks; a new token completes everything', async () => {
    const { r, ids, inputs } = await oneWorker(8_400_000);
    const half = Math.floor(ORDERS / 2);
    await r.placeOrders(inputs.slice(0, half));
    await waitUntil(() => r.check(ids.slice(0, half)).missing.length === 0, { timeoutMs: 60_000 });

    r.sandbox.revokeToken(PARTNER_TOKEN);
    const revokedAt = Date.now();
    // Webhooks are taken at the first delivery while the provider refuses the token.
    const deliveries = await r.placeOrders(inputs.slice(half));
    await waitUntil(
      async () => {
        if (r.redis.status === 'wait') await r.redis.connect();
        return (await r.redis.hget(`${r.prefix}:create-shipment:meta`, 'paused')) === '1';
      },
      { timeoutMs: 60_000, what: 'the create queue to pause' },
    );
    const refusedCreates = r.sandbox.requests.filter((q) => q.status === 401).length;
    const failedWhileRevoked = await r.failedJobs();

    // The provider issues a new token; the operator adopts it and restarts the workers.
    const token = r.sandbox.issueToken(PARTNER_EMAIL);
    await adoptReissuedToken(r.redis, r.prefix, { apiUrl: r.sandbox.url, token });
    r.setEnv({ PARTNER_API_TOKEN: token });
    await r.kill(0);
    const restartedAt = Date.now();
    await r.spawnWorker(0);
    await waitUntil(() => r.check(ids).missing.length === 0, { timeoutMs: 120_000 });
    r.shipAll();
    const done = await r.waitForAll(ids, 120_000);
    const failed = await r.failedJobs();
    report('partner token revoked', {
      orders: ORDERS,
      webhooksWhileRevoked: ORDERS - half,
      webhookDeliveries: deliveries,
      refused401: refusedCreates,
      ...orderFigures(done),
      failedForGood: failed,
      pausedForMs: restartedAt - revokedAt,
      recoveredAfterNewTokenMs: Date.now() - restartedAt,
    });
    expect(deliveries).toBe(ORDERS - half);
    expect(failedWhileRevoked).toEqual({});
    expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
    expect(failed).toEqual({});
    expect(await r.leaks({ 'new partner token': token, 'revoked token': PARTNER_TOKEN })).toEqual(
      [],
    );
  }, 300_000);
});
