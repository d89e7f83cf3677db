import type { FieldErrors } from './shipment-contract.js';

/**
 * Problems found while mapping, keyed by the dotted path the API would use. Messages tell an
 * admin what to fix in Shopify and never quote the order's personal data.
 */
export type Problems = Map<string, string[]>;

export function addProblem(problems: Problems, path: string, message: string): void {
  problems.set(path, [...(problems.get(path) ?? []), message]);
}

/**
 * Marks a field as already explained by another problem (no shipping address explains the
 * missing name), so the schema's generic message for it is not shown as well.
 */
export function explainedElsewhere(problems: Problems, path: string): void {
  if (!problems.has(path)) problems.set(path, []);
}

/**
 * Our own message wins over the schema's for the same field: "the order has no postal code"
 * helps an admin more than "the postal code field is required". Only the exact path is
 * covered, so a bad box size under `packages.0` still shows beside a problem with `packages`.
 */
export function mergeWithSchemaErrors(problems: Problems, schemaErrors: FieldErrors): FieldErrors {
  const merged: FieldErrors = {};
  for (const [path, messages] of problems) if (messages.length > 0) merged[path] = messages;
  for (const [path, messages] of Object.entries(schemaErrors)) {
    if (!problems.has(path)) merged[path] = messages;
  }
  return merged;
}
