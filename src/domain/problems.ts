import type { FieldErrors } from './shipment-contract.js';

/** Keyed by the API's dotted path. Messages never quote the order's personal data. */
export type Problems = Map<string, string[]>;

export function addProblem(problems: Problems, path: string, message: string): void {
  problems.set(path, [...(problems.get(path) ?? []), message]);
}

/** Ours wins for the exact path only: a bad box size at `packages.0` shows beside `packages`. */
export function mergeWithSchemaErrors(problems: Problems, schemaErrors: FieldErrors): FieldErrors {
  const ours = [...problems].filter(([, messages]) => messages.length > 0);
  const theirs = Object.entries(schemaErrors).filter(([path]) => !problems.has(path));
  return Object.fromEntries([...ours, ...theirs]);
}
