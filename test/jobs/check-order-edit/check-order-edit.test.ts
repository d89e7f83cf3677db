import { describe, expect, it } from 'vitest';
import { checkOrderEdit } from '../../../jobs/check-order-edit/check-order-edit.js';
import { orderJobId } from '../../../jobs/create-shipment/job.js';
import { registerShipment } from '../../../jobs/create-shipment/register-shipment.js';
import { allJobs } from '../../helpers/intake.js';
import {
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  waitForJob,
} from '../../helpers/shipment-stack.js';

const start = shipmentStacks();
const ID = FIXTURE.paidCopenhagen;

function check(s: ShipmentStack, orderId: string = ID) {
  return checkOrderEdit(orderId, {
    ...s.parts,
    store: s.storeClient,
    markOrder: s.parts.markOrder,
  });
}

const getOrders = (s: ShipmentStack) =>
  s.store.requests.filter((r) => r.operationName === 'GetOrder').length;

describe('checkOrderEdit', () => {
  it('does not read an order that is not registered', async () => {
    const s = await start({ workers: false });
    await s.records.markFailed(ID, 'no postal code');

    expect(await check(s)).toEqual({ outcome: 'not_registered' });
    expect(getOrders(s)).toBe(0);
  });

  it('takes the order as it is for one registered before fingerprints were kept', async () => {
    const s = await start({ workers: false });
    await s.records.markRegistered(ID, {
      orderNumber: 'PS-1',
      status: 'pending',
      createdAt: '2026-11-22T10:00:00+01:00',
    });

    expect(await check(s)).toEqual({ outcome: 'baseline_recorded' });
    expect((await s.records.get(ID))?.sentFingerprint).toMatch(/^v=2;receiver=[0-9a-f]{16};/);
    expect(await check(s)).toEqual({ outcome: 'unchanged' });
    expect(await allJobs(s.queues.markOrder)).toEqual([]);
  });

  it("takes a shipment sent before its settings were kept as today's settings would, a narrowed one not an edit", async () => {
    const s = await start({ workers: false, shipment: { shipPickupPoints: true } });
    const id = '8699101';
    await s.store.createOrder({
      id,
      lineItems: [{ title: 'Mug' }, { title: 'Vase', deliveryMethod: 'PICKUP_POINT' }],
    });
    await registerShipment(id, {
      ...s.parts,
      store: s.storeClient,
      partner: s.partner,
      settings: s.config,
      logger: s.logger,
    });
    await s.redis.hdel(`${s.prefix}:order:${id}`, 'sentSettings');
    s.config.shipment.shipPickupPoints = false;

    expect(await check(s, id)).toEqual({ outcome: 'unchanged' });
    // From then on taken as it was sent, whatever the settings say.
    s.config.shipment.documentTag = 'paper';
    s.config.shipment.collectFromLocations = ['Aarhus warehouse'];
    expect(await check(s, id)).toEqual({ outcome: 'unchanged' });
    await s.store.updateOrder(id, { lineQuantities: [{ title: 'Vase', quantity: 0 }] });
    expect(await check(s, id)).toEqual({ outcome: 'reported', changes: ['lines', 'weights'] });
  });

  it('keeps the settings with the fingerprint kept at the first look, so a later setting change is no edit', async () => {
    const s = await start({ workers: false });
    // Registered as when a lost answer is found at the provider: nothing kept of what was sent.
    await s.records.markRegistered(ID, { orderNumber: 'PS-1' });
    await s.store.updateOrder(ID, { tags: ['document'] }, { sendWebhook: false });

    expect(await check(s)).toEqual({ outcome: 'baseline_recorded' });
    expect(JSON.parse((await s.records.get(ID))!.sentSettings!)).toMatchObject({
      documentTag: 'document',
    });
    s.config.shipment.documentTag = 'paper';
    expect(await check(s)).toEqual({ outcome: 'unchanged' });
    expect(await allJobs(s.queues.markOrder)).toEqual([]);
  });

  it.each([
    {
      kept: 'a fingerprint of the current kind',
      change: (_fingerprint: string) => undefined,
      first: 'unchanged',
    },
    {
      kept: 'a fingerprint of the older kind',
      change: (fingerprint: string) =>
        fingerprint.replace(/^v=\d+;/, '').replace(/lines=[0-9a-f]{16}/, 'lines=0123456789abcdef'),
      first: 'baseline_recorded',
    },
  ])(
    'keeps the settings of a shipment sent before they were kept ($kept) at its first look',
    async ({ change, first }) => {
      const s = await start({ workers: false });
      const id = '8699102';
      await s.store.createOrder({ id, tags: ['document'], lineItems: [{ title: 'Letter' }] });
      await registerShipment(id, {
        ...s.parts,
        store: s.storeClient,
        partner: s.partner,
        settings: s.config,
        logger: s.logger,
      });
      const key = `${s.prefix}:order:${id}`;
      await s.redis.hdel(key, 'sentSettings');
      const older = change((await s.records.get(id))!.sentFingerprint!);
      if (older) await s.redis.hset(key, 'sentFingerprint', older);

      expect(await check(s, id)).toEqual({ outcome: first });
      s.config.shipment.documentTag = 'paper';
      expect(await check(s, id)).toEqual({ outcome: 'unchanged' });
      await s.store.updateOrder(id, { tags: [] }, { sendWebhook: false });
      expect(await check(s, id)).toEqual({ outcome: 'reported', changes: ['lines'] });
    },
  );

  it('leaves a cancelled order to the cancellation flag', async () => {
    const s = await start();
    await s.parts.enqueueOrder(ID, 'orders/create');
    await waitForJob(s.queues.createShipment, orderJobId(ID), 'completed');
    await s.store.updateOrder(ID, { cancel: true });

    expect(await check(s)).toEqual({ outcome: 'cancelled' });
  });
});
