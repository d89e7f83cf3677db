/** Messages per dotted field path (`packages.0.weight_kg`), as the contract's Error body carries them. */
export type FieldErrors = Record<string, string[]>;

/** The API's Error body: `{success: false, message, errors?}`. */
export interface ErrorBody {
  success: false;
  message: string;
  errors?: FieldErrors;
}

export function errorBody(message: string, errors?: FieldErrors): ErrorBody {
  return errors ? { success: false, message, errors } : { success: false, message };
}

export const VALIDATION_FAILED = 'The given data was invalid.';

/** Thrown by the sandbox's own operations (advance, cancel, issueToken) with the HTTP status to answer. */
export class SandboxError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}
