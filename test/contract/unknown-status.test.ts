import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShipmentRequest } from '../../src/domain/shipment-contract.js';
import { PartnerClient } from '../../src/partner/client.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { createCases } from './shipment-cases.js';

/** "A client treats an unrecognised value as in progress and does not fail on it." */
describe('a status the contract does not document', () => {
  let sandbox: PartnerSandbox;
  let client: PartnerClient;
  beforeEach(async () => {
    sandbox = await startPartnerSandbox();
    client = new PartnerClient({ baseUrl: sandbox.url, token: 'sbx_demo_token' });
    const request = { ...createCases[0]!.body, reference: 'held-1' } as unknown as ShipmentRequest;
    await client.createShipment(request);
    sandbox.setUndocumentedStatus('held-1', 'held_at_customs', 'Held at customs');
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('is read by the client from GET /shipments/{reference}', async () => {
    const record = await client.getShipment('held-1');
    expect(record).toMatchObject({ status: 'held_at_customs', status_label: 'Held at customs' });
    expect(record.history.map((h) => h.status)).toEqual(['pending', 'held_at_customs']);
  });

  it('is read by the client from the list, filtered by it or not', async () => {
    const all = await client.listShipments();
    expect(all.data).toEqual([
      expect.objectContaining({ reference: 'held-1', status: 'held_at_customs' }),
    ]);
    const held = await client.listShipments({ status: 'held_at_customs' });
    expect(held.meta.total).toBe(1);
  });
});
