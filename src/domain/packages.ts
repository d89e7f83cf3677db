import type { PackageLine } from './shipment-contract.js';
import { LIMITS } from './shipment-contract.js';
import { kilogramsToMilligrams, milligramsToKilograms } from './weight.js';

/** Identical units of one line item, ready to pack. */
export interface UnitsToPack {
  unitWeightMg: number;
  quantity: number;
}

export interface Box {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

/**
 * First-fit decreasing: heaviest units first, each into the first parcel with room, else a new
 * parcel. Identical units are placed in bulk (as many as fit per parcel), which gives the same
 * result as placing them one by one but stays fast for quantities in the thousands.
 * Returns the load of each parcel in mg. Every unit must fit in an empty parcel.
 */
export function packParcels(units: readonly UnitsToPack[], maxParcelMg: number): number[] {
  const countByWeight = new Map<number, number>();
  for (const { unitWeightMg, quantity } of units) {
    if (unitWeightMg > maxParcelMg) {
      throw new RangeError(`A unit of ${unitWeightMg} mg cannot fit a ${maxParcelMg} mg parcel.`);
    }
    countByWeight.set(unitWeightMg, (countByWeight.get(unitWeightMg) ?? 0) + quantity);
  }
  const heaviestFirst = [...countByWeight].sort(([a], [b]) => b - a);

  const parcels: number[] = [];
  for (const [unitMg, count] of heaviestFirst) {
    let left = count;
    for (let i = 0; i < parcels.length && left > 0; i++) {
      const load = parcels[i]!;
      const fits = Math.min(left, Math.floor((maxParcelMg - load) / unitMg));
      if (fits > 0) {
        parcels[i] = load + fits * unitMg;
        left -= fits;
      }
    }
    const perParcel = Math.floor(maxParcelMg / unitMg);
    while (left > 0) {
      const placed = Math.min(left, perParcel);
      parcels.push(placed * unitMg);
      left -= placed;
    }
  }
  return parcels;
}

/**
 * Parcels of equal (rounded) weight become one line with a quantity, at most 100 per line.
 * A parcel under the API minimum is declared at the minimum.
 */
export function toPackageLines(parcelsMg: readonly number[], box: Box): PackageLine[] {
  const minMg = kilogramsToMilligrams(LIMITS.weightKg.min);
  const countByKg = new Map<number, number>();
  for (const mg of parcelsMg) {
    const kg = milligramsToKilograms(Math.max(mg, minMg));
    countByKg.set(kg, (countByKg.get(kg) ?? 0) + 1);
  }

  const lines: PackageLine[] = [];
  for (const [kg, count] of [...countByKg].sort(([a], [b]) => b - a)) {
    for (let left = count; left > 0; left -= LIMITS.quantity.max) {
      lines.push({
        quantity: Math.min(left, LIMITS.quantity.max),
        weight_kg: kg,
        length_cm: box.lengthCm,
        width_cm: box.widthCm,
        height_cm: box.heightCm,
      });
    }
  }
  return lines;
}
