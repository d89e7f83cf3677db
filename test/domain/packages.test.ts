import { describe, expect, it } from 'vitest';
import type { StoreLineItem } from '../../src/domain/order.js';
import { packParcels, toPackageLines } from '../../src/domain/packages.js';
import type { PackageLine } from '../../src/domain/shipment-contract.js';
import { buildShipmentRequest } from '../../src/domain/shipment-request.js';
import { anItem, anOrder, someSettings, units } from './builders.js';

function packagesFor(lineItems: StoreLineItem[], tags: string[] = []): PackageLine[] {
  const result = buildShipmentRequest(anOrder({ lineItems, tags }), someSettings());
  if (!result.ok) throw new Error(`expected a request, got ${JSON.stringify(result.errors)}`);
  return result.request.packages;
}

/** Just quantity and weight: box dimensions are the same on every line. */
const shape = (lines: PackageLine[]) => lines.map((l) => [l.quantity, l.weight_kg]);
const totalKg = (lines: PackageLine[]) =>
  lines.reduce((sum, l) => sum + l.quantity * l.weight_kg, 0);
const parcelCount = (lines: PackageLine[]) => lines.reduce((sum, l) => sum + l.quantity, 0);

describe('packing line items into package lines', () => {
  it('splits 70 × 1 kg into three parcels of at most 30 kg', () => {
    expect(shape(packagesFor([units(70, 1)]))).toEqual([
      [2, 30],
      [1, 10],
    ]);
  });

  it('keeps many light units together in one parcel', () => {
    expect(shape(packagesFor([units(250, 0.1)]))).toEqual([[1, 25]]);
  });

  it('never puts more than 100 parcels on one line', () => {
    const lines = packagesFor([units(250, 16)]);
    expect(shape(lines)).toEqual([
      [100, 16],
      [100, 16],
      [50, 16],
    ]);
  });

  it('packs mixed weights heaviest first, topping up earlier parcels', () => {
    const lines = packagesFor([units(4, 2.5), units(2, 20), units(3, 8)]);
    expect(shape(lines)).toEqual([
      [2, 28],
      [1, 18],
    ]);
    expect(totalKg(lines)).toBe(74);
  });

  it('splits document orders at 2 kg per parcel', () => {
    const lines = packagesFor([units(5, 0.5)], ['document']);
    expect(shape(lines)).toEqual([
      [1, 2],
      [1, 0.5],
    ]);
  });

  it('declares a parcel lighter than 0.1 kg as 0.1 kg', () => {
    expect(shape(packagesFor([units(1, 20, 'GRAMS')]))).toEqual([[1, 0.1]]);
  });

  it('uses the default weight for units without one', () => {
    expect(shape(packagesFor([anItem({ quantity: 3, weight: null })]))).toEqual([[1, 1.5]]);
  });

  // 66.13 lb = 29.99606 kg; 66.14 lb = 30.00060 kg.
  it('converts pounds exactly at the 30 kg boundary', () => {
    expect(shape(packagesFor([units(1, 66.13, 'POUNDS')]))).toEqual([[1, 29.996]]);
    const over = buildShipmentRequest(
      anOrder({
        lineItems: [anItem({ title: 'Crate', weight: { value: 66.14, unit: 'POUNDS' } })],
      }),
      someSettings(),
    );
    expect(over).toEqual({
      ok: false,
      errors: {
        packages: [
          "Line item 'Crate' weighs 30.001 kg per unit; the most one package may weigh is 30 kg.",
        ],
      },
    });
  });

  it('gives 16 ounces the same weight as one pound, and sums ounces without drift', () => {
    expect(packagesFor([units(16, 1, 'OUNCES')])).toEqual(packagesFor([units(1, 1, 'POUNDS')]));
    expect(shape(packagesFor([units(100, 1, 'OUNCES')]))).toEqual([[1, 2.835]]);
  });

  it('leaves out items that need no shipping or have nothing left to ship', () => {
    const lines = packagesFor([
      units(2, 1),
      anItem({ requiresShipping: false, weight: { value: 5, unit: 'KILOGRAMS' } }),
      anItem({ quantity: 0, weight: { value: 7, unit: 'KILOGRAMS' } }),
    ]);
    expect(shape(lines)).toEqual([[1, 2]]);
  });

  it('uses the configured box on every line', () => {
    const result = buildShipmentRequest(
      anOrder({ lineItems: [units(40, 1)] }),
      someSettings({ defaultBox: { lengthCm: 120, widthCm: 50, heightCm: 40 } }),
    );
    if (!result.ok) throw new Error('expected a request');
    for (const line of result.request.packages) {
      expect(line).toMatchObject({ length_cm: 120, width_cm: 50, height_cm: 40 });
    }
    expect(result.request.packages).toHaveLength(2);
  });

  it('refuses a unit heavier than one package may weigh, naming the item', () => {
    const result = buildShipmentRequest(
      anOrder({
        lineItems: [
          units(1, 1),
          anItem({ title: 'Anvil', weight: { value: 45, unit: 'KILOGRAMS' } }),
        ],
      }),
      someSettings(),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        packages: [
          "Line item 'Anvil' weighs 45 kg per unit; the most one package may weigh is 30 kg.",
        ],
      },
    });
  });

  it('refuses a document unit over 2 kg', () => {
    const result = buildShipmentRequest(
      anOrder({
        tags: ['Document'],
        lineItems: [anItem({ title: 'Binder', weight: { value: 2.5, unit: 'KILOGRAMS' } })],
      }),
      someSettings(),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        packages: [
          "Line item 'Binder' weighs 2.5 kg per unit; the most one document package may weigh is 2 kg.",
        ],
      },
    });
  });
});

describe('packParcels', () => {
  it('fits lighter units into the first parcel with room', () => {
    expect(
      packParcels(
        [
          { unitWeightMg: 7_000, quantity: 1 },
          { unitWeightMg: 6_000, quantity: 2 },
        ],
        10_000,
      ),
    ).toEqual([7_000, 6_000, 6_000]);
    expect(
      packParcels(
        [
          { unitWeightMg: 3_000, quantity: 1 },
          { unitWeightMg: 6_000, quantity: 2 },
        ],
        10_000,
      ),
    ).toEqual([9_000, 6_000]);
  });

  it('handles large quantities quickly and conserves weight', () => {
    const parcels = packParcels(
      [
        { unitWeightMg: 29_000_000, quantity: 5_000 },
        { unitWeightMg: 700_000, quantity: 3_000 },
      ],
      30_000_000,
    );
    expect(parcels.every((mg) => mg <= 30_000_000)).toBe(true);
    expect(parcels.reduce((a, b) => a + b, 0)).toBe(5_000 * 29_000_000 + 3_000 * 700_000);
    expect(parcelCount(toPackageLines(parcels, { lengthCm: 1, widthCm: 1, heightCm: 1 }))).toBe(
      parcels.length,
    );
  });

  it('rejects a unit that cannot fit any parcel instead of looping', () => {
    expect(() => packParcels([{ unitWeightMg: 31, quantity: 1 }], 30)).toThrow(RangeError);
  });
});
