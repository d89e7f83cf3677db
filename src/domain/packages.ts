import type { Config } from '../../config/index.js';
import { LIMITS, type PackageLine } from './shipment-contract.js';
import { kilogramsToMilligrams, milligramsToKilograms } from './weight.js';

export interface UnitsToPack {
  unitWeightMg: number;
  quantity: number;
}

/**
 * First-fit decreasing; identical units placed in bulk (same result as one by one, but fast for
 * thousands). Returns each parcel's load in mg. Every unit must fit in an empty parcel.
 */
export function packParcels(units: readonly UnitsToPack[], maxParcelMg: number): number[] {
  const countByWeight = new Map<number, number>();
  for (const { unitWeightMg, quantity } of units) {
    if (unitWeightMg > maxParcelMg) {
      throw new RangeError(`A unit of ${unitWeightMg} mg cannot fit a ${maxParcelMg} mg parcel.`);
    }
    countByWeight.set(unitWeightMg, (countByWeight.get(unitWeightMg) ?? 0) + quantity);
  }

  const parcels: number[] = [];
  for (const [unitMg, count] of [...countByWeight].sort(([a], [b]) => b - a)) {
    let left = count;
    for (let i = 0; i < parcels.length && left > 0; i++) {
      const load = parcels[i]!;
      const fits = Math.min(left, Math.floor((maxParcelMg - load) / unitMg));
      if (fits > 0) {
        parcels[i] = load + fits * unitMg;
        left -= fits;
      }
    }
    while (left > 0) {
      const placed = Math.min(left, Math.floor(maxParcelMg / unitMg));
      parcels.push(placed * unitMg);
      left -= placed;
    }
  }
  return parcels;
}

/** Equal-weight parcels share a line (max 100); one under the API minimum is declared at it. */
export function toPackageLines(
  parcelsMg: readonly number[],
  box: Config['shipment']['defaultBox'],
): PackageLine[] {
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
