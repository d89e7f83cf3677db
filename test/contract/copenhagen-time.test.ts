import { afterEach, describe, expect, it } from 'vitest';
import type { ShipmentRequest } from '../../src/domain/shipment-contract.js';
import { PartnerClient } from '../../src/partner/client.js';
import { toCopenhagenIso } from '../../src/partner/time.js';
import { copenhagenTimestamp } from '../../src/sandbox/partner/copenhagen-time.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { createCases } from './shipment-cases.js';

/** Instants either side of both 2026 clock changes, and inside the repeated autumn hour. */
const CLOCK_CHANGES = [
  '2026-03-29T00:59:59Z', // 01:59:59+01:00, the last winter second
  '2026-03-29T01:00:00Z', // 03:00:00+02:00
  '2026-10-25T00:30:00Z', // 02:30:00+02:00, the first of two 02:30s
  '2026-10-25T00:59:59Z',
  '2026-10-25T01:00:00Z', // 02:00:00+01:00
  '2026-10-25T01:30:00Z', // 02:30:00+01:00, the second 02:30
  '2026-12-31T23:00:00Z', // midnight, new year in Copenhagen
];

describe('Copenhagen timestamps, written by the client and by the sandbox', () => {
  it('agree to the character for every hour of a year and around the clock changes', () => {
    const instants = CLOCK_CHANGES.map((iso) => new Date(iso));
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000) {
      instants.push(new Date(ms + 1_234));
    }
    for (const instant of instants) {
      const written = copenhagenTimestamp(instant);
      expect(toCopenhagenIso(instant), instant.toISOString()).toBe(written);
      expect(Date.parse(written)).toBe(Math.floor(instant.getTime() / 1000) * 1000);
    }
  });

  it('keep the offset of each side of the autumn change apart', () => {
    expect(copenhagenTimestamp(new Date('2026-10-25T00:30:00Z'))).toBe('2026-10-25T02:30:00+02:00');
    expect(copenhagenTimestamp(new Date('2026-10-25T01:30:00Z'))).toBe('2026-10-25T02:30:00+01:00');
  });
});

describe('created_after as the client sends it', () => {
  let sandbox: PartnerSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
  });

  it.each(CLOCK_CHANGES)('is read by the sandbox as the instant %s', async (iso) => {
    const at = new Date(iso);
    let now = at;
    sandbox = await startPartnerSandbox({ clock: () => now });
    const client = new PartnerClient({ baseUrl: sandbox.url, token: 'sbx_demo_token' });
    const request = createCases[0]!.body;
    for (const [reference, offsetMs] of [
      ['before', -1_000],
      ['at', 0],
      ['after', 1_000],
    ] as const) {
      now = new Date(at.getTime() + offsetMs);
      await client.createShipment({ ...request, reference } as unknown as ShipmentRequest);
    }

    const page = await client.listShipments({ createdAfter: at });

    expect(page.data.map((item) => item.reference)).toEqual(['after', 'at']);
  });
});
