/**
 * The provider's limits as partner-shipment-api.md states them ("Limits" and the field tables).
 * Written out here rather than taken from the client, so a wrong bound in one is caught by the other.
 */
export const CONTRACT_LIMITS = {
  /** Characters (Unicode code points), not bytes or UTF-16 units. */
  referenceMaxChars: 255,
  quantityMin: 1,
  quantityMax: 100,
  weightKgMin: 0.1,
  weightKgMaxPackage: 30,
  weightKgMaxDocument: 2,
  lengthCmMax: 120,
  widthCmMax: 50,
  heightCmMax: 50,
  perPageDefault: 50,
  perPageMax: 200,
  bodyBytesMax: 2 * 1024 * 1024,
} as const;

export const ORDER_TYPES: readonly string[] = ['package', 'document'];
