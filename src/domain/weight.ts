import type { StoreLineItem, WeightUnit } from './order.js';

/** Whole mg, so sums and limit checks are exact (in floats 300 × 0.1 kg exceeds 30 kg). */
export const MG_PER_KG = 1_000_000;

/** Exact by definition: the international avoirdupois pound, and 16 ounces to the pound. */
const KG_PER_POUND = 0.45359237;
const KG_PER_UNIT: Record<WeightUnit, number> = {
  GRAMS: 1 / 1000,
  KILOGRAMS: 1,
  OUNCES: KG_PER_POUND / 16,
  POUNDS: KG_PER_POUND,
};

type Weight = NonNullable<StoreLineItem['weight']>;

export function toKilograms(weight: Weight): number {
  // Grams divide rather than multiply by 0.001, which is not exact in binary.
  return weight.unit === 'GRAMS' ? weight.value / 1000 : weight.value * KG_PER_UNIT[weight.unit];
}

export function kilogramsToMilligrams(kg: number): number {
  return Math.round(kg * MG_PER_KG);
}

/** The API takes kilograms with at most 3 decimals: round to whole grams. */
export function milligramsToKilograms(mg: number): number {
  return Math.round(mg / 1000) / 1000;
}

/** For messages: rounds up to the gram so a unit just over a limit never reads as equal to it. */
export function describeKilograms(mg: number): string {
  return String(Math.ceil(mg / 1000) / 1000);
}

/** A unit's weight in mg, or the default when Shopify has none (null, zero or nonsense). */
export function unitWeightMilligrams(weight: Weight | null, defaultKg: number): number {
  const kg = weight && Number.isFinite(weight.value) && weight.value > 0 ? toKilograms(weight) : 0;
  // At least 1 mg so packing never divides by zero, even with a zero default.
  return Math.max(1, kilogramsToMilligrams(kg > 0 ? kg : defaultKg));
}
