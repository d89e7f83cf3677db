import type { FieldErrors } from './errors.js';

/** Collects every problem of a request before answering, so one 422 names them all. */
export class FieldProblems {
  private readonly byField: FieldErrors = {};

  add(field: string, message: string): void {
    this.byField[field] ??= [];
    this.byField[field].push(message);
  }

  get empty(): boolean {
    return Object.keys(this.byField).length === 0;
  }

  get errors(): FieldErrors {
    return this.byField;
  }
}

export type Fields = Record<string, unknown>;

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent, null, or only whitespace: what the provider treats as "not given". */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}
