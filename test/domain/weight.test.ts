import { describe, expect, it } from 'vitest';
import {
  describeKilograms,
  milligramsToKilograms,
  toKilograms,
  unitWeightMilligrams,
} from '../../src/domain/weight.js';

describe('toKilograms', () => {
  it('converts grams, kilograms, ounces and pounds by their exact definitions', () => {
    expect(toKilograms({ value: 500, unit: 'GRAMS' })).toBe(0.5);
    expect(toKilograms({ value: 1, unit: 'GRAMS' })).toBe(0.001);
    expect(toKilograms({ value: 2.5, unit: 'KILOGRAMS' })).toBe(2.5);
    expect(toKilograms({ value: 1, unit: 'POUNDS' })).toBe(0.45359237);
    expect(toKilograms({ value: 1, unit: 'OUNCES' })).toBeCloseTo(0.028349523125, 15);
  });

  it('makes 16 ounces exactly one pound', () => {
    expect(toKilograms({ value: 16, unit: 'OUNCES' })).toBe(
      toKilograms({ value: 1, unit: 'POUNDS' }),
    );
  });
});

describe('unitWeightMilligrams', () => {
  it('uses the default weight when the variant has none or a zero weight', () => {
    expect(unitWeightMilligrams(null, 0.5)).toBe(500_000);
    expect(unitWeightMilligrams({ value: 0, unit: 'GRAMS' }, 0.75)).toBe(750_000);
    expect(unitWeightMilligrams({ value: -3, unit: 'KILOGRAMS' }, 0.5)).toBe(500_000);
  });

  it('keeps sub-gram precision so ounces do not drift when summed', () => {
    expect(unitWeightMilligrams({ value: 1, unit: 'OUNCES' }, 0.5)).toBe(28_350);
    expect(unitWeightMilligrams({ value: 1, unit: 'POUNDS' }, 0.5)).toBe(453_592);
  });
});

describe('kilogram output', () => {
  it('rounds to whole grams, at most three decimals', () => {
    expect(milligramsToKilograms(453_592)).toBe(0.454);
    expect(milligramsToKilograms(29_999_600)).toBe(30);
  });

  it('describes a weight just over a limit as over it, never equal to it', () => {
    expect(describeKilograms(30_000_400)).toBe('30.001');
    expect(describeKilograms(45_000_000)).toBe('45');
  });
});
